"""Index-of-maximum and index-of-minimum row reductions on XA-1's 16 vector
lanes (at the loop level, before `loop-to-accel`), exact.

JAX's argmax reduces (value, index) pairs with a select: the accumulator
stays where it is greater than the element or NaN, its index stays where it
stays or ties with a larger index. As a loop:

    pick = cmpf ogt acc, x  |  cmpf une acc, acc     (olt: argmin; cmpi on i32)
    keep = pick  |  (cmpf oeq acc, x  &  cmpi slt acc_index, index)
    acc, acc_index = select pick, acc, x;  select keep, acc_index, index

with `index` the loop's counter cast to i32. Run in order, the loop returns
the first NaN if there is one, else the largest value at its first
position. Each lane runs the same loop over every sixteenth element from
the identity (the lowest value at index INT_MAX, which any element
replaces), so lane l holds that answer for its elements. The lanes are
combined by the same rule at once: the extreme value over the lanes
(`vredmax.f` propagates NaN), the smallest index among the lanes holding
it or a NaN (`vredmin`), the value of the lane with that index. That pair
is combined with the loop's initial pair by the loop's own body, and the
last `trip mod 16` elements follow in order, so the result is the loop's
bit for bit, signed zeros and NaN included.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import Float32Type, IntegerType, VectorType
from xdsl.ir import Operation, SSAValue
from xlir.dialects.arith import predicate
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, YieldOp
from xlir.targets.accel.vector_lanes import (
    LANES,
    broadcast,
    retype,
    set_property,
    to_lanes,
    varying_values,
)
from xlir.targets.accel.vector_reductions import (
    constant,
    lane_reduction,
    leave_remainder,
    streams_along,
)

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
DIRECTIONS = {"ogt": "max", "olt": "min", "sgt": "max", "slt": "min"}
"""The comparison of the accumulator with the element -> which extreme."""
SWAPPED = {"ogt": "olt", "olt": "ogt", "sgt": "slt", "slt": "sgt"}


@dataclass
class ArgReduction:
    """A matched argmax/argmin loop: its reducer's ops (in order) and what
    the lane combination needs."""

    loop: ForOp
    reducer: list[Operation]
    element: SSAValue
    index: SSAValue
    direction: str
    is_float: bool


def vectorize_arg_reductions(kernel: KernelOp) -> int:
    """Split every argmax/argmin loop of `kernel`; the number split."""
    matches = [
        m
        for op in list(kernel.body.walk())
        if type(op) is ForOp and (m := match_arg_reduction(op)) is not None
    ]
    for match in matches:
        _split(match)
    return len(matches)


def _operand_pair(op: Operation, a: SSAValue, b: SSAValue) -> bool:
    return list(op.operands) in ([a, b], [b, a])


def _owner(value: SSAValue, kind: type[Operation]) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, kind) else None


def _predicate(op: Operation) -> str:
    assert isinstance(op, arith.CmpfOp | arith.CmpiOp)
    return predicate(op)


def match_arg_reduction(loop: ForOp) -> ArgReduction | None:
    """The argmax/argmin reduction of the module docstring, if `loop` is one
    the lanes can compute; None otherwise."""
    low, high = loop.lower, loop.upper
    if not (isinstance(low, int) and isinstance(high, int) and loop.step == 1):
        return None
    if high - low < LANES or len(loop.carried) != 2:
        return None
    acc, acc_index = loop.carried
    is_float = isinstance(acc.type, Float32Type)
    i32 = IntegerType(32)
    if acc_index.type != i32 or not (is_float or acc.type == i32):
        return None
    yielded = loop.block.last_op
    assert isinstance(yielded, YieldOp)
    value_select = _owner(yielded.operands[0], arith.SelectOp)
    index_select = _owner(yielded.operands[1], arith.SelectOp)
    if value_select is None or index_select is None:
        return None
    pick, kept, element = value_select.operands
    keep, kept_index, index = index_select.operands
    if kept is not acc or kept_index is not acc_index:
        return None
    cast = _owner(index, arith.IndexCastOp)
    if cast is None or cast.operands[0] is not loop.induction_var:
        return None
    pick_ops = _pick(pick, acc, element, is_float)
    if pick_ops is None:
        return None
    direction, pick_ops = pick_ops
    keep_ops = _keep(keep, pick, acc, element, acc_index, index, is_float)
    if keep_ops is None:
        return None
    reducer = [*pick_ops, *keep_ops, value_select, index_select]
    inner = {*reducer, yielded}
    values = [acc, acc_index, *(r for op in reducer for r in op.results)]
    if any(u.operation not in inner for v in values for u in v.uses):
        return None
    if not streams_along(loop):
        return None
    if varying_values(loop, loop.induction_var) is None:
        return None
    return ArgReduction(loop, reducer, element, index, direction, is_float)


def _pick(
    pick: SSAValue, acc: SSAValue, element: SSAValue, is_float: bool
) -> tuple[str, list[Operation]] | None:
    """`cmp acc, x | acc != acc` (required for floats: NaN wins; optional
    for i32, where it is false): the direction and the ops, in order."""
    compare_kind = arith.CmpfOp if is_float else arith.CmpiOp
    unequal = "une" if is_float else "ne"
    ops: list[Operation] = []
    either = _owner(pick, arith.OrIOp)
    if either is not None:
        nan = next(
            (
                o
                for v in either.operands
                if isinstance(o := v.owner, compare_kind)
                and _predicate(o) == unequal
                and list(o.operands) == [acc, acc]
            ),
            None,
        )
        other = [v for v in either.operands if v.owner is not nan]
        if nan is None or len(other) != 1:
            return None
        assert isinstance(nan, Operation)
        pick, ops = other[0], [nan, either]
    elif is_float:
        return None
    compare = _owner(pick, compare_kind)
    if compare is None or not _operand_pair(compare, acc, element):
        return None
    predicate = _predicate(compare)
    if compare.operands[0] is not acc:
        predicate = SWAPPED.get(predicate, "")
    if predicate not in DIRECTIONS:
        return None
    return DIRECTIONS[predicate], [compare, *ops]


def _keep(
    keep: SSAValue,
    pick: SSAValue,
    acc: SSAValue,
    element: SSAValue,
    acc_index: SSAValue,
    index: SSAValue,
    is_float: bool,
) -> list[Operation] | None:
    """`pick | (acc == x & acc_index < index)`: its ops, operands in order."""
    either = _owner(keep, arith.OrIOp)
    if either is None or pick not in either.operands:
        return None
    tie = next((v for v in either.operands if v is not pick), None)
    both = _owner(tie, arith.AndIOp) if tie is not None else None
    if both is None:
        return None
    compare_kind = arith.CmpfOp if is_float else arith.CmpiOp
    equal = next(
        (
            o
            for v in both.operands
            if isinstance(o := v.owner, compare_kind)
            and _predicate(o) == ("oeq" if is_float else "eq")
            and _operand_pair(o, acc, element)
        ),
        None,
    )
    earlier = next(
        (
            o
            for v in both.operands
            if isinstance(o := v.owner, arith.CmpiOp)
            and (
                (_predicate(o) == "slt" and list(o.operands) == [acc_index, index])
                or (_predicate(o) == "sgt" and list(o.operands) == [index, acc_index])
            )
        ),
        None,
    )
    if not isinstance(equal, Operation) or not isinstance(earlier, Operation):
        return None
    return [equal, earlier, both, either]


def _split(match: ArgReduction) -> None:
    loop = match.loop
    low, high = loop.lower, loop.upper
    assert isinstance(low, int) and isinstance(high, int)
    split = low + (high - low) // LANES * LANES
    block = loop.parent_block()
    assert block is not None
    value_type = loop.carried[0].type
    assert isinstance(value_type, Float32Type | IntegerType)
    lowest = {
        ("max", True): float("-inf"),
        ("min", True): float("inf"),
        ("max", False): INT_MIN,
        ("min", False): INT_MAX,
    }[match.direction, match.is_float]

    main = loop.clone()
    set_property(main, "static_upper", split)
    set_property(main, "static_step", LANES)
    block.insert_op_before(main, loop)
    first_carried = len(main.operands) - len(main.iter_args)
    varying = varying_values(main, main.induction_var)
    assert varying is not None
    for position, start in enumerate((lowest, INT_MAX)):
        arg = main.carried[position]
        assert isinstance(arg.type, Float32Type | IntegerType)
        start_op = constant(start, arg.type)
        block.insert_op_before(start_op, main)
        main.operands[first_carried + position] = broadcast(start_op.result, main)
        retype(arg, varying)
        retype(main.results[position], varying)
    to_lanes(main, main.induction_var, varying)

    values, indices = main.results
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    def splat(value: SSAValue) -> SSAValue:
        return add(_broadcast_op(value))

    kind = {
        ("max", True): "maximumf",
        ("min", True): "minimumf",
        ("max", False): "maxsi",
        ("min", False): "minsi",
    }[match.direction, match.is_float]
    extreme = add(lane_reduction(values, kind))
    if match.is_float:
        at_extreme = add(_on_lanes(arith.CmpfOp(values, splat(extreme), "oeq")))
        is_nan = add(_on_lanes(arith.CmpfOp(values, values, "une")))
        candidate = add(arith.OrIOp(at_extreme, is_nan, at_extreme.type))
    else:
        candidate = add(_on_lanes(arith.CmpiOp(values, splat(extreme), "eq")))
    none = add(constant(INT_MAX, IntegerType(32)))
    first = add(
        lane_reduction(add(arith.SelectOp(candidate, indices, splat(none))), "minsi")
    )
    if match.is_float:  # the value of the lane holding `first`, sign and NaN kept
        chosen = add(_on_lanes(arith.CmpiOp(indices, splat(first), "eq")))
        below = add(constant(float("-inf"), Float32Type()))
        others = add(arith.SelectOp(chosen, values, splat(below)))
        value = add(lane_reduction(others, "maximumf"))
    else:
        value = extreme
    mapping: dict[SSAValue, SSAValue] = {
        loop.carried[0]: loop.iter_args[0],
        loop.carried[1]: loop.iter_args[1],
        match.element: value,
        match.index: first,
    }
    for op in match.reducer:
        ops.append(op.clone(value_mapper=mapping))
    block.insert_ops_before(ops, loop)
    totals = [mapping[s.results[0]] for s in match.reducer[-2:]]
    leave_remainder(loop, split, high, totals, first_carried)


def _on_lanes(compare: arith.CmpfOp | arith.CmpiOp) -> Operation:
    """`compare` with its result on the lanes (xDSL's constructors give a
    comparison an i1 result whatever its operands)."""
    lanes = type(compare).create(
        operands=compare.operands,
        result_types=[VectorType(IntegerType(1), [LANES])],
        properties=dict(compare.properties),
    )
    compare.erase()  # its operands' uses
    return lanes


def _broadcast_op(value: SSAValue) -> Operation:
    return vector.BroadcastOp(value, VectorType(value.type, [LANES]))
