"""Put the innermost parallel dimension of a loop nest on XA-1's 16 vector
lanes (at the loop level, before `loop-to-accel`).

A `loop.parallel` whose body holds no other parallel loop is split along its
last dimension into a main nest that steps by 16, where every value that
depends on that dimension becomes a `vector<16xT>` (its loads and stores
contiguous `vector` accesses, the values it combines with broadcast), and a
remainder nest, the original loop over the last `trip mod 16` iterations.
Sequential loops inside keep running in order, their carried values vectors
when they depend on the dimension (a matmul's accumulators are 16 output
columns at once), so every lane computes exactly what the scalar loop does.

The dimension's own number cast to i32 (an iota, an argmax's positions)
becomes the first lane's number plus `vidx`'s 0..15. A nest is left as it
is where a lane would not: any other index computed from the dimension (a
gather, a transpose), an access whose last index is
not the dimension itself, a store every lane would make to one element, or
an op on types other than f32, i32 and i1 that depends on the dimension.
"""

from __future__ import annotations

from functools import cache

from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.analysis.dependence import dependents
from xlir.dialects import arith as xarith
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.syntax import array_values, i64_array

from xlir.rewriting import set_type

LANES = 16

LANE_OPS = (
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp,
    arith.MinimumfOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp,
    arith.RemSIOp, arith.DivUIOp, arith.RemUIOp, arith.AndIOp, arith.OrIOp,
    arith.XOrIOp, arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp, arith.MaxSIOp,
    arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp, arith.CmpiOp, arith.CmpfOp,
    arith.SelectOp, arith.NegfOp, arith.UIToFPOp, arith.SIToFPOp, xarith.SIToFPOp,
    arith.FPToSIOp, xarith.FPToSIOp, arith.FPToUIOp, arith.BitcastOp, math.AbsFOp,
    math.CopySignOp, math.SqrtOp, math.RsqrtOp, arith.ExtFOp, arith.TruncFOp,
    math.FloorOp, math.CeilOp, math.RoundEvenOp, math.RoundOp, math.TruncOp,
    math.AbsIOp, math.CountLeadingZerosOp, math.CtPopOp,
)  # fmt: skip
"""Scalar ops whose lane-wise form the vector unit has."""


BOOLEAN_OPS = (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.SelectOp)
"""The ops that take i1 lanes (0/1 words)."""


def _lane_type(type_: Attribute) -> bool:
    """f32 (f16 in its f32 container: `half_floats.py`), i32 and i1."""
    return isinstance(type_, Float32Type | Float16Type) or (
        isinstance(type_, IntegerType) and type_.width.data in (1, 32)
    )


@cache
def _is_structure(kind: type[Operation]) -> bool:
    """Whether ops of class `kind` are loops, their yields or memory
    accesses (asked once per class: `isinstance` with xDSL's op classes is
    slow for the ops it is not, and the vectorizer asks for every op)."""
    return issubclass(kind, (ParallelOp, ForOp, YieldOp, LoadOp, StoreOp))


@cache
def _is_lane_op(kind: type[Operation]) -> bool:
    """Whether ops of class `kind` are `LANE_OPS` (asked once per class)."""
    return issubclass(kind, LANE_OPS)


def varying_values(nest: ParallelOp | ForOp, lane: SSAValue) -> set[SSAValue] | None:
    """The values of `nest`'s body that depend on `lane` (its last
    dimension), or None if a lane could not compute one of its ops."""
    varying = dependents([lane], nest.body.block.ops)
    for op in nest.body.walk():
        if op is nest:
            continue
        if _is_structure(type(op)):
            if isinstance(op, ParallelOp):
                return None
            if isinstance(op, LoadOp | StoreOp):
                indices = list(op.indices)
                if any(i in varying for i in indices[:-1]):
                    return None
                last_varies = bool(indices) and indices[-1] in varying
                if last_varies and indices[-1] is not lane:
                    return None
                if isinstance(op, StoreOp) and not last_varies and op.value in varying:
                    return None  # every lane would store to one element
                if last_varies and not _lane_type(op.buffer.type.element_type):  # pyright: ignore[reportAttributeAccessIssue]
                    return None
                continue
            if isinstance(op, ForOp):
                bounds = [*op.dynamic_lower, *op.dynamic_upper, *op.dynamic_step]
                if any(b in varying for b in bounds):
                    return None
                continue
            continue  # a yield
        if not any(v in varying for v in op.operands):
            continue
        if is_lane_number(op, lane):
            continue
        if not _is_lane_op(type(op)):
            return None
        if any(v is lane for v in op.operands):
            return None  # an index computed from the dimension
        types = [v.type for v in (*op.operands, *op.results)]
        if not all(_lane_type(t) for t in types):
            return None
        operand_types = [v.type for v in op.operands]
        bits = [t.width.data for t in operand_types if isinstance(t, IntegerType)]
        if 1 in bits and not isinstance(op, BOOLEAN_OPS):
            return None  # i1 lanes only as masks
    return varying


@cache
def lanes_of(element: Attribute) -> VectorType:
    """`vector<16 x element>`, made once per element type (each new type is
    verified, and a nest asks for one per value it puts on the lanes)."""
    return VectorType(element, [LANES])


def is_lane_number(op: Operation, lane: SSAValue) -> bool:
    """Whether `op` casts the lane dimension itself to i32."""
    return (
        isinstance(op, arith.IndexCastOp)
        and op.input is lane
        and isinstance(op.result.type, IntegerType)
        and op.result.type.width.data == 32
    )


def lane_numbers(first: SSAValue, before: Operation) -> SSAValue:
    """The i32 lanes `first`, `first` + 1, ... `first` + 15 (`vidx` plus a
    splat of the first)."""
    offsets = arith.ConstantOp(
        DenseIntOrFPElementsAttr.from_list(
            VectorType(IntegerType(32), [LANES]), list(range(LANES))
        )
    )
    numbers = arith.AddiOp(broadcast(first, before), offsets.result)
    block = before.parent_block()
    assert block is not None
    block.insert_ops_before([offsets, numbers], before)
    return numbers.result


def retype(value: SSAValue, varying: set[SSAValue]) -> None:
    """`value` on the lanes (a vector of its type), still varying."""
    set_type(value, lanes_of(value.type))
    varying.add(value)


def broadcast(value: SSAValue, before: Operation) -> SSAValue:
    op = vector.BroadcastOp(value, lanes_of(value.type))
    block = before.parent_block()
    assert block is not None
    block.insert_op_before(op, before)
    return op.vector


def to_lanes(nest: ParallelOp | ForOp, lane: SSAValue, varying: set[SSAValue]) -> None:
    """Give the values of `nest` (a clone stepping by 16) that vary with
    `lane` vector types."""
    for op in list(nest.body.walk()):
        if op is nest:
            continue
        if _is_structure(type(op)):  # else an op computing values
            if isinstance(op, ForOp):
                yielded = op.block.last_op
                assert yielded is not None
                for index, arg in enumerate(op.block.args[1:]):
                    if arg not in varying:
                        continue
                    init = op.iter_args[index]
                    if init not in varying:
                        op.operands[len(op.operands) - len(op.iter_args) + index] = (
                            broadcast(init, op)
                        )
                    retype(arg, varying)
                    retype(op.results[index], varying)
                continue
            if isinstance(op, YieldOp):
                parent = op.parent_op()
                if isinstance(parent, ForOp):
                    for index, (value, arg) in enumerate(
                        zip(op.operands, parent.block.args[1:], strict=True)
                    ):
                        if isinstance(arg.type, VectorType) and not isinstance(
                            value.type, VectorType
                        ):
                            op.operands[index] = broadcast(value, op)
                continue
            if isinstance(op, LoadOp):
                if op.indices and op.indices[-1] is lane:
                    retype(op.result, varying)
                continue
            if isinstance(op, StoreOp):
                if (
                    op.indices
                    and op.indices[-1] is lane
                    and not isinstance(op.value.type, VectorType)
                ):
                    op.operands[0] = broadcast(op.value, op)
                continue
        if not any(v in varying for v in op.operands):
            continue
        if is_lane_number(op, lane):
            assert op.next_op is not None
            uses = list(op.results[0].uses)
            numbers = lane_numbers(op.results[0], op.next_op)
            for use in uses:
                use.operation.operands[use.index] = numbers
            varying.discard(op.results[0])
            varying.add(numbers)
            continue
        for index, operand in enumerate(op.operands):
            if not isinstance(operand.type, VectorType):
                op.operands[index] = broadcast(operand, op)
        for result in op.results:
            retype(result, varying)


def _trips(nest: ParallelOp) -> int | None:
    """The last dimension's trip count when it is known: static bounds, or
    an upper bound that adds a constant to the lower one (a tile of
    `accel-tile`)."""
    low, high = nest.lower_bounds[-1], nest.upper_bounds[-1]
    if isinstance(low, int) and isinstance(high, int):
        return high - low
    if isinstance(high, SSAValue) and isinstance(high.owner, arith.AddiOp):
        lhs, rhs = high.owner.lhs, high.owner.rhs
        constant = rhs.owner if lhs is low else None
        if isinstance(constant, arith.ConstantOp) and isinstance(
            constant.value, IntegerAttr
        ):
            return constant.value.value.data
    return None


def vectorize_kernel(kernel: KernelOp) -> int:
    """Split every eligible nest of `kernel`; the number split. A nest with
    no remainder goes on the lanes as it is (a tile: all of it, or none)."""
    count = 0
    for nest in [op for op in kernel.body.walk() if type(op) is ParallelOp]:
        if not nest.block.args:
            continue
        low = nest.lower_bounds[-1]
        trips = _trips(nest)
        if trips is None or nest.steps[-1] != 1 or trips < LANES:
            continue
        varying = varying_values(nest, nest.block.args[-1])
        if varying is None:
            continue
        if not isinstance(low, int):
            if trips % LANES == 0:
                set_property(nest, "static_step", LANES)
                to_lanes(nest, nest.block.args[-1], varying)
                count += 1
            continue
        split = low + trips // LANES * LANES
        if split == low + trips:
            _set_last_dimension(nest, low, split, LANES)
            to_lanes(nest, nest.block.args[-1], varying)
            count += 1
            continue
        clones: dict[SSAValue, SSAValue] = {}
        main = nest.clone(clones)
        _set_last_dimension(main, low, split, LANES)
        to_lanes(main, main.block.args[-1], {clones[v] for v in varying})
        block = nest.parent_block()
        assert block is not None
        block.insert_op_before(main, nest)
        _set_last_dimension(nest, split, low + trips, 1)
        count += 1
    return count


def _set_last_dimension(nest: ParallelOp, low: int, high: int, step: int) -> None:
    for name, value in (
        ("static_lower", low),
        ("static_upper", high),
        ("static_step", step),
    ):
        set_property(nest, name, value)


def set_property(nest: ParallelOp | ForOp, name: str, value: int) -> None:
    """Set the last dimension's entry of a static bound or step."""
    array = nest.properties[name]
    assert isinstance(array, DenseArrayBase)
    values = list(array_values(array))
    values[-1] = value
    nest.properties[name] = i64_array(values)
