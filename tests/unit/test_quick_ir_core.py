"""`quick_ir_core` iterates a block's ops as xDSL's iterator does (while the
block changes under it too), keeps values, ops, blocks and regions equal
only to themselves, and makes attributes as xDSL does (verified; only
`Data` and `ParametrizedAttribute` ones)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.ir.core import _BlockOpsIterator  # pyright: ignore[reportPrivateUsage]
from xdsl.utils.exceptions import VerifyException

from xlir import quick_ir_core  # noqa: F401  (installed by xlir anyway)


def _block(count: int) -> tuple[Block, list[Operation]]:
    ops: list[Operation] = [AnyOp() for _ in range(count)]
    return Block(ops), ops


def _visit(
    iterator: Iterator[Operation], ops: list[Operation], block: Block
) -> list[int]:
    """The indices (into `ops`, the block's ops as made, then the ops the
    visit inserts) of the ops `iterator` hands out while each visit changes
    the block: the second op is erased, an op is inserted after the third,
    and one before the fourth."""
    seen: list[int] = []
    for op in iterator:
        seen.append(ops.index(op))
        if op is ops[1]:
            op.detach()
        elif op is ops[2]:
            ops.append(AnyOp())
            block.insert_op_after(ops[-1], op)
        elif op is ops[3]:
            ops.append(AnyOp())
            block.insert_op_before(ops[-1], op)
    return seen


def _unchanged(block: Block, ops: list[Operation]) -> None:
    pass


def _front_added(block: Block, ops: list[Operation]) -> None:
    ops.append(AnyOp())
    block.insert_op_before(ops[-1], ops[0])


def _first_erased(block: Block, ops: list[Operation]) -> None:
    ops[0].detach()


CHANGES: dict[str, Callable[[Block, list[Operation]], None]] = {
    "none": _unchanged,
    "op added at the front": _front_added,
    "first op erased": _first_erased,
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_block_ops_in_xdsl_order(change: str) -> None:
    """Ops changed after the iteration starts (`change`, before its first
    op) and during it are seen as by xDSL's iterator."""
    runs = []
    for make in (lambda b: _BlockOpsIterator(b.first_op), lambda b: iter(b.ops)):
        block, ops = _block(6)
        iterator = make(block)
        CHANGES[change](block, ops)
        runs.append(_visit(iterator, ops, block))
    assert runs[0] == runs[1]
    assert runs[1]  # the iteration saw ops


def test_values_and_ops_equal_only_themselves() -> None:
    one, two = AnyOp(result_types=[i32]), AnyOp(result_types=[i32])
    assert one != two and one.results[0] != two.results[0]
    assert one == one and one.results[0] == one.results[0]
    blocks, regions = (Block(), Block()), (Region(), Region())
    assert blocks[0] != blocks[1] and regions[0] != regions[1]
    table = {one: 1, two: 2, one.results[0]: 3, blocks[0]: 4, regions[1]: 5}
    assert [table[k] for k in (one, two, one.results[0], blocks[0], regions[1])] == [
        1,
        2,
        3,
        4,
        5,
    ]


def test_attributes_verified() -> None:
    with pytest.raises(VerifyException):
        IntegerType(-1)


def test_attribute_of_neither_kind_refused() -> None:
    @dataclass(frozen=True)
    class Loose(Attribute):
        name = "test.loose"

    with pytest.raises(TypeError, match="Data or ParametrizedAttribute"):
        Loose()
