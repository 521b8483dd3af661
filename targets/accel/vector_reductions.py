"""Reductions along a contiguous row on XA-1's 16 vector lanes (at the loop
level, before `loop-to-accel`; manual section 11.1: accumulate in vector
registers, reduce across lanes only at the end).

A `loop.for` whose carried values are each combined with one value per
iteration by a sum, maximum or minimum (f32 or i32), and whose loads read
the induction variable as their last index, is split: a main loop steps by
16 with vector accumulators that start at the combination's identity, each
lane reducing every sixteenth element; `vector.reduction` then combines the
lanes (the `vred*` instructions' fixed tree, manual section 4.8) and the
loop's initial value; the original loop finishes the last `trip mod 16`
elements in order.

Integer sums, maxima and minima are exact in any order. A float sum is not:
it adds the elements in another order than the CPU's sequential loop, so it
may differ from it by a few units in the last place times the number of
elements (the documented tolerance of accel's float reductions, docs/accel.md).
"""

from __future__ import annotations

from xdsl.dialects import arith, vector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.targets.accel.vector_lanes import (
    LANES,
    broadcast,
    retype,
    set_property,
    to_lanes,
    varying_values,
)

COMBINERS: dict[type[Operation], tuple[str, float | int]] = {
    arith.AddfOp: ("add", -0.0),
    arith.MaximumfOp: ("maximumf", float("-inf")),
    arith.MinimumfOp: ("minimumf", float("inf")),
    arith.AddiOp: ("add", 0),
    arith.MaxSIOp: ("maxsi", -(2**31)),
    arith.MinSIOp: ("minsi", 2**31 - 1),
}
"""The combinations with a `vred*` instruction: the reduction's kind and its
identity (-0.0 leaves every sum, -0.0 included, as it is)."""


def vectorize_reductions(kernel: KernelOp) -> int:
    """Split every eligible reduction loop of `kernel`; the number split."""
    loops = [op for op in kernel.body.walk() if type(op) is ForOp]
    return sum(_split(loop) for loop in loops if _combiners(loop) is not None)


def _combiners(loop: ForOp) -> list[Operation] | None:
    """The op that combines each carried value, if `loop` is a row reduction
    the lanes can compute; None otherwise."""
    low, high, step = loop.lower, loop.upper, loop.step
    if not (isinstance(low, int) and isinstance(high, int) and step == 1):
        return None
    if high - low < LANES or not loop.carried:
        return None
    yielded = loop.block.last_op
    assert isinstance(yielded, YieldOp)
    combiners: list[Operation] = []
    for arg, value in zip(loop.carried, yielded.operands, strict=True):
        op = value.owner
        if (
            type(op) not in COMBINERS
            or not isinstance(arg.type, Float32Type | IntegerType)
            or (isinstance(arg.type, IntegerType) and arg.type.width.data != 32)
            or not arg.has_one_use()
            or arg not in op.operands  # pyright: ignore[reportAttributeAccessIssue]
            or not value.has_one_use()
        ):
            return None
        assert isinstance(op, Operation)
        combiners.append(op)
    if not streams_along(loop):
        return None
    varying = varying_values(loop, loop.induction_var)
    if varying is None or not all(c.results[0] in varying for c in combiners):
        return None
    return combiners


def streams_along(loop: ForOp) -> bool:
    """Whether the loop's body stores nothing, holds no other loop, and
    each load reads along the loop's index in its last dimension, so that
    16 trips read 16 contiguous elements (one vector load each)."""
    for op in loop.body.walk():
        if isinstance(op, StoreOp | ForOp) and op is not loop:
            return False
        if isinstance(op, LoadOp) and (
            not op.indices or op.indices[-1] is not loop.induction_var
        ):
            return False
    return True


def _split(loop: ForOp) -> int:
    combiners = _combiners(loop)
    assert combiners is not None
    low, high = loop.lower, loop.upper
    assert isinstance(low, int) and isinstance(high, int)
    split = low + (high - low) // LANES * LANES
    kinds = [COMBINERS[type(c)] for c in combiners]
    main = loop.clone()
    set_property(main, "static_upper", split)
    set_property(main, "static_step", LANES)
    block = loop.parent_block()
    assert block is not None
    block.insert_op_before(main, loop)
    first_carried = len(main.operands) - len(main.iter_args)
    varying = varying_values(main, main.induction_var)
    assert varying is not None
    for index, (arg, (_, identity)) in enumerate(zip(main.carried, kinds, strict=True)):
        assert isinstance(arg.type, Float32Type | IntegerType)  # _combiners checked
        start = constant(identity, arg.type)
        block.insert_op_before(start, main)
        main.operands[first_carried + index] = broadcast(start.result, main)
        retype(arg, varying)
        retype(main.results[index], varying)
    to_lanes(main, main.induction_var, varying)
    totals: list[SSAValue] = []
    after = loop
    for index, (combiner, (kind, _)) in enumerate(zip(combiners, kinds, strict=True)):
        lanes = lane_reduction(main.results[index], kind)
        total = type(combiner)(loop.iter_args[index], lanes.dest)  # pyright: ignore[reportCallIssue]
        block.insert_op_before(lanes, after)
        block.insert_op_before(total, after)
        totals.append(total.results[0])
    leave_remainder(loop, split, high, totals, first_carried)
    return 1


def leave_remainder(
    loop: ForOp, split: int, high: int, totals: list[SSAValue], first_carried: int
) -> None:
    """After the lanes reduced `loop` up to `split`: its results are the
    `totals` if nothing is left, else it runs the rest from the totals."""
    if split == high:
        for result, total in zip(loop.results, totals, strict=True):
            result.replace_all_uses_with(total)
        loop.detach()
        loop.erase()
    else:
        set_property(loop, "static_lower", split)
        for index, total in enumerate(totals):
            loop.operands[first_carried + index] = total


def lane_reduction(lanes: SSAValue, kind: str) -> vector.ReductionOp:
    """`vector.reduction` of `lanes` to their element type (xDSL's
    constructor gives the result the vector's type)."""
    assert isinstance(lanes.type, VectorType)
    return vector.ReductionOp.create(
        operands=[lanes],
        result_types=[lanes.type.element_type],
        properties={
            "kind": vector.CombiningKindAttr(vector.CombiningKindFlag(kind)),
            "fastmath": FastMathFlagsAttr("none"),
        },
    )


def constant(value: float | int, type_: Float32Type | IntegerType) -> arith.ConstantOp:
    if isinstance(type_, Float32Type):
        return arith.ConstantOp(FloatAttr(value, type_))
    return arith.ConstantOp(IntegerAttr(int(value), type_))
