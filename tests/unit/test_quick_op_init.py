"""`quick_op_init` makes the op xDSL's `irdl_op_init` makes (operands, result
types, properties and attributes in the same order, segment sizes, regions),
and leaves every argument it does not take quickly, errors included, to
`irdl_op_init`."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, StringAttr, f32, i32
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    operations,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
    var_successor_def,
)
from xdsl.traits import IsTerminator

from xlir import quick_op_init


@irdl_op_definition
class GroupsOp(IRDLOperation):
    """Every kind of operand, result and region group, segment sizes kept
    as a property for operands and as an attribute for results."""

    name = "test.groups"
    single = operand_def()
    many = var_operand_def()
    maybe = opt_operand_def()
    out = result_def()
    outs = var_result_def()
    out_maybe = opt_result_def()
    body = region_def()
    bodies = var_region_def()
    tag = prop_def(StringAttr)
    note = opt_prop_def(StringAttr)
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(),
    )


def _values(count: int):
    return AnyOp(result_types=[i32] * count).results


def _both(make: Callable[[], Operation]) -> tuple[Operation, Operation]:
    """`make()` with xDSL's construction and then with the quick one."""
    operations.irdl_op_init = quick_op_init._irdl_op_init
    try:
        slow = make()
    finally:
        operations.irdl_op_init = quick_op_init.quick_op_init
    return slow, make()


def _same(slow: Operation, quick: Operation) -> None:
    assert type(slow) is type(quick)
    assert list(slow.operands) == list(quick.operands)
    assert [r.type for r in slow.results] == [r.type for r in quick.results]
    assert list(slow.properties.items()) == list(quick.properties.items())
    assert list(slow.attributes.items()) == list(quick.attributes.items())
    assert [len(r.blocks) for r in slow.regions] == [
        len(r.blocks) for r in quick.regions
    ]


a, b, c, d = _values(4)
THREE = _values(3)
REGIONS = [Region(Block()) for _ in range(6)]

CASES: dict[str, Callable[[], Operation]] = {
    "binary": lambda: arith.AddiOp(a, b),
    "constant": lambda: arith.ConstantOp(IntegerAttr(3, i32)),
    "every group filled": lambda: GroupsOp(
        operands=[a, [b, c], [d]],
        result_types=[i32, [f32, f32], [i32]],
        properties={"tag": StringAttr("t"), "note": StringAttr("n")},
        attributes={"seen": StringAttr("s")},
        regions=[Region(Block()), [Region(Block()), Region(Block())]],
    ),
    "groups empty or None": lambda: GroupsOp(
        operands=[a, [], None],
        result_types=[i32, [], None],
        properties={"tag": StringAttr("t"), "note": None},
        attributes={"gone": None},
        regions=[Region(Block()), []],
    ),
    "tuples": lambda: GroupsOp(
        operands=(a, (b,), ()),
        result_types=(i32, (f32,), ()),
        properties={"tag": StringAttr("t")},
        regions=(Region(Block()), (Region(Block()),)),
    ),
    "an op's results as a group": lambda: AnyOp(
        THREE,
        result_types=[THREE.types],  # pyright: ignore[reportArgumentType]
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_the_quick_op_is_xdsls(name: str) -> None:
    _same(*_both(CASES[name]))


REFUSED: dict[str, Callable[[], Operation]] = {
    "a single operand missing": lambda: GroupsOp(
        operands=[None, [], []],
        result_types=[i32, [], []],
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), []],
    ),
    "two in an optional group": lambda: GroupsOp(
        operands=[a, [], [b, c]],
        result_types=[i32, [], []],
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), []],
    ),
    "a group too few": lambda: GroupsOp(
        operands=[a, []],
        result_types=[i32, [], []],
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), []],
    ),
    "None for a variadic result": lambda: GroupsOp(
        operands=[a, [], []],
        result_types=[i32, None, []],
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), []],
    ),
    "no region": lambda: GroupsOp(
        operands=[a, [], []],
        result_types=[i32, [], []],
        properties={"tag": StringAttr("t")},
        regions=[None, []],
    ),
}


@pytest.mark.parametrize("name", REFUSED)
def test_what_xdsl_refuses_is_refused_with_its_message(name: str) -> None:
    operations.irdl_op_init = quick_op_init._irdl_op_init
    try:
        with pytest.raises(ValueError) as slow:
            REFUSED[name]()
    finally:
        operations.irdl_op_init = quick_op_init.quick_op_init
    with pytest.raises(ValueError) as quick:
        REFUSED[name]()
    assert str(quick.value) == str(slow.value)


def test_other_arguments_take_xdsls_path() -> None:
    """An op as an operand (its one result), a list of ops as a region."""
    made = AnyOp(result_types=[i32])
    slow, quick = _both(
        lambda: GroupsOp(
            operands=[made, [], []],
            result_types=[i32, [], []],
            properties={"tag": StringAttr("t")},
            regions=[[AnyOp()], []],
        )
    )
    _same(slow, quick)
    assert quick.operands[0] is made.results[0]


def test_it_is_installed() -> None:
    assert operations.irdl_op_init is quick_op_init.quick_op_init
    assert Operation.__init__ is quick_op_init.quick_operation_init
    assert IRDLOperation.__post_init__ is quick_op_init.quick_post_init


@irdl_op_definition
class DefaultsOp(IRDLOperation):
    """Properties and an attribute with defaults, one optional (no default
    filled in), and successors."""

    name = "test.defaults"
    args = var_operand_def()
    kind = prop_def(StringAttr, default_value=StringAttr("plain"))
    level = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    extra = opt_prop_def(StringAttr, default_value=StringAttr("x"))
    tone = attr_def(StringAttr, default_value=StringAttr("mid"))
    next = var_successor_def()
    traits = traits_def(IsTerminator())


def _xdsls(make: Callable[[], Operation]) -> Operation:
    """`make()` with xDSL's own `Operation.__init__` and `__post_init__`."""
    Operation.__init__ = quick_op_init._operation_init
    IRDLOperation.__post_init__ = quick_op_init._irdl_post_init
    try:
        return make()
    finally:
        Operation.__init__ = quick_op_init.quick_operation_init
        IRDLOperation.__post_init__ = quick_op_init.quick_post_init


def _same_op(slow: Operation, quick: Operation) -> None:
    """The same op, its operands' and successors' uses included."""
    _same(slow, quick)
    assert quick.location is slow.location
    assert list(slow.successors) == list(quick.successors)
    for op in (slow, quick):
        operand_uses = op._operand_uses  # pyright: ignore[reportPrivateUsage]
        assert [(u.operation, u.index) for u in operand_uses] == [
            (op, index) for index in range(len(op.operands))
        ]
        assert [(u.operation, u.index) for u in op.successor_uses] == [
            (op, index) for index in range(len(op.successors))
        ]
        for index, value in enumerate(op.operands):
            assert any(u.operation is op and u.index == index for u in value.uses)
        for index, block in enumerate(op.successors):
            assert any(u.operation is op and u.index == index for u in block.uses)
        assert [(r.op, r.index) for r in op.results] == [
            (op, index) for index in range(len(op.results))
        ]
        assert all(region.parent is op for region in op.regions)


SUCCESSOR, OTHER = Block(), Block()
MADE: dict[str, Callable[[], Operation]] = {
    "defaults filled": lambda: DefaultsOp.create(operands=[a, a, b]),
    "defaults given": lambda: DefaultsOp.create(
        properties={"level": IntegerAttr(7, i32), "kind": StringAttr("k")},
        attributes={"tone": StringAttr("low"), "other": StringAttr("o")},
    ),
    "successors": lambda: DefaultsOp.create(
        operands=[c], successors=[SUCCESSOR, SUCCESSOR, OTHER]
    ),
    "results and regions": lambda: GroupsOp.create(
        operands=[a, b],
        result_types=[i32, f32],
        properties={"tag": StringAttr("t")},
        regions=[Region(Block()), Region(Block())],
    ),
    "through the generic construction": lambda: arith.AddiOp(a, b),
}


@pytest.mark.parametrize("name", MADE)
def test_the_quick_operation_init_makes_xdsls_op(name: str) -> None:
    _same_op(_xdsls(MADE[name]), MADE[name]())
