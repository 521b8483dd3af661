"""`quick_accessors` reads each named operand, result and region of an op as
xDSL's accessors do: single fields before a variadic group, groups and
optional fields sized by a segment-size attribute (one `segment_sizes` made,
and one made elsewhere, as the parser makes them), and regions (xDSL's own
path)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, f32, i32
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.irdl.operations import BaseAccessor, BaseAttrAccessor

from xlir import quick_accessors  # noqa: F401  (installed by xlir anyway)


@irdl_op_definition
class GroupsOp(IRDLOperation):
    """Every accessor kind: segment sizes of the operands as a property, of
    the results as an attribute."""

    name = "test.accessor_groups"
    single = operand_def()
    many = var_operand_def()
    maybe = opt_operand_def()
    last = operand_def()
    out = result_def()
    outs = var_result_def()
    out_maybe = opt_result_def()
    body = region_def()
    bodies = var_region_def()
    tag = prop_def(StringAttr)
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(),
    )


@irdl_op_definition
class MiddleOp(IRDLOperation):
    """One variadic group between single fields, and an optional field as
    the only variadic one."""

    name = "test.accessor_middle"
    first = operand_def()
    middle = var_operand_def()
    after = operand_def()
    out = opt_result_def()
    extra = result_def()


MIDDLE_FIELDS = ("first", "middle", "after", "out", "extra")


FIELDS = ("single", "many", "maybe", "last", "out", "outs", "out_maybe", "body")
V = AnyOp(result_types=[i32] * 6).results


def _xdsl(op: Operation, field: str) -> object:
    """The field as xDSL's own accessor reads it."""
    accessor = type(op).__dict__[field]
    if isinstance(accessor, BaseAttrAccessor):
        return BaseAttrAccessor.__get__(accessor, op)
    assert isinstance(accessor, BaseAccessor)
    return BaseAccessor.__get__(accessor, op)


def _groups(operands: list, result_types: list) -> GroupsOp:
    return GroupsOp(
        operands=operands,
        result_types=result_types,
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), [Region(Block()), Region(Block())]],
    )


def _resized(op: GroupsOp) -> GroupsOp:
    """`op` with segment-size attributes `segment_sizes` did not make (as
    parsed ops have), holding the same sizes."""
    for container, name in (
        (op.properties, "operandSegmentSizes"),
        (op.attributes, "resultSegmentSizes"),
    ):
        sizes = container[name]
        assert isinstance(sizes, DenseArrayBase)
        container[name] = DenseArrayBase.from_list(i32, sizes.get_values())
    return op


CASES = {
    "filled": lambda: _groups([V[0], [V[1], V[2]], [V[3]], V[4]], [i32, [f32], [i32]]),
    "empty": lambda: _groups([V[0], [], None, V[5]], [f32, [], None]),
    "filled, parsed sizes": lambda: _resized(
        _groups([V[0], [V[1], V[2]], [V[3]], V[4]], [i32, [f32, i32], [i32]])
    ),
    "empty, parsed sizes": lambda: _resized(
        _groups([V[0], [], None, V[5]], [f32, [], None])
    ),
}


MIDDLES = {
    "filled": lambda: MiddleOp(
        operands=[V[0], [V[1], V[2]], V[3]], result_types=[[i32], f32]
    ),
    "empty": lambda: MiddleOp(operands=[V[0], [], V[3]], result_types=[None, f32]),
}

READS = [
    *((CASES[case], field) for case in CASES for field in FIELDS),
    *((MIDDLES[case], field) for case in MIDDLES for field in MIDDLE_FIELDS),
]
READ_IDS = [
    *(f"{field}-{case}" for case in CASES for field in FIELDS),
    *(f"{field}-middle {case}" for case in MIDDLES for field in MIDDLE_FIELDS),
]


@pytest.mark.parametrize(("make", "field"), READS, ids=READ_IDS)
def test_field_read_as_xdsl_reads_it(make: Callable[[], Operation], field: str) -> None:
    op = make()
    quick, slow = getattr(op, field), _xdsl(op, field)
    assert type(quick) is type(slow)
    if isinstance(slow, tuple):
        assert list(quick) == list(slow)  # pyright: ignore[reportArgumentType]
    else:
        assert quick is slow


def test_single_operand_and_result() -> None:
    add = arith.AddiOp(V[0], V[1])
    assert (add.lhs, add.rhs, add.result) == (V[0], V[1], add.results[0])
    assert add.lhs is _xdsl(add, "lhs") and add.result is _xdsl(add, "result")
