"""`sort-routines`: marks each sort whose comparator only orders one
operand's elements, for a runtime routine to sort.

A sort kernel inlines its comparator in a merge sort (lowering/kernels/
sort.py), which is most of a one-sort program's compile. Most sorts compare
one operand by a plain order, which a routine the target builds once can
sort instead: the kernel then maps that operand's elements to unsigned
integer keys of the same order, has the routine sort the keys (stably) into
an order of positions, and moves every operand along it
(lowering/kernels/sort_routine.py). The comparators recognized, on the
operand's pair of arguments (lhs, rhs) = (2i, 2i+1), after `simplify`:

* `compare LT/GT, lhs, rhs, TOTALORDER` on floats: IEEE totalOrder (-NaN
  first, -0 before +0, +NaN last);
* `!(a >= b) && a == a` with (a, b) = (lhs, rhs), or swapped for the
  descending order: JAX's float comparator, the total order of
  canonicalized floats (every NaN one positive NaN, -0 equal to +0;
  passes/hlo/simplify_patterns/total_order.py makes it);
* `compare LT/GT, lhs, rhs` on integers, ordered by the element type's
  signedness (which the verifier makes the compare type match);

with lhs and rhs swapped meaning the other direction. The sort goes to the
routine as an attribute, `xlir.sort_routine = "ORDER DIRECTION OPERAND"`,
which the kernel lowering reads; other comparators (several keys, float
compares that are no strict weak order) and rows of 2^31 elements or more
keep the inline kernel. The routine
sorts stably, as the inline kernel does (`is_stable` or not).

A `chlo.top_k` goes to the target's top_k routine (a selection of a row's
k largest by the same keys: lowering/kernels/top_k_routine.py) where its
elements' bits are their key's (`top_k_bits`), marked
`xlir.top_k_routine`; the others keep the selection kernel.

Only a target that has the routines runs the pass (the cpu target's
pipeline, unless `CompileOptions.sort_routines` is off).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Block, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xlir.dialects.chlo import TopKOp
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.elementwise import AndOp, CompareOp, NotOp
from xlir.dialects.stablehlo.enums import ComparisonDirection, ComparisonType
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.dialects.stablehlo.types import is_unsigned
from xlir.passes.loop.float_formats import format_of

from xlir.walk import walk

SORT_ROUTINE = "xlir.sort_routine"
"""The attribute that sends a sort to the routine."""

TOP_K_ROUTINE = "xlir.top_k_routine"
"""The attribute that sends a top_k to the routine."""

TOP_K_BITS = (8, 16, 32, 64)
"""The element widths of the top_k routines."""

ORDERS = ("total", "canonical", "signed", "unsigned")

MAX_LENGTH = 1 << 31
"""The routine's positions are i32: longer rows keep the merge sort."""
"""Float totalOrder, totalOrder of canonicalized floats, integers."""


@dataclass(frozen=True)
class SortKey:
    """What the routine sorts by: operand `operand`'s elements in `order`:
    `total` (float totalOrder), `canonical` (totalOrder of canonicalized
    floats), `signed` or `unsigned` (integers)."""

    order: str
    descending: bool
    operand: int

    def attribute(self) -> StringAttr:
        direction = "descending" if self.descending else "ascending"
        return StringAttr(f"{self.order} {direction} {self.operand}")


def sort_key(op: SortOp) -> SortKey | None:
    """The key of a sort marked for the routine, or None."""
    mark = op.attributes.get(SORT_ROUTINE)
    if not isinstance(mark, StringAttr):
        return None
    order, direction, operand = mark.data.split()
    return SortKey(order, direction == "descending", int(operand))


def plain_key(op: SortOp) -> SortKey | None:
    """The key of a sort whose comparator is one of the module docstring's
    (along a dimension of fewer than `MAX_LENGTH` elements), or None."""
    block = op.comparator.block
    if block is None or not isinstance(block.last_op, ReturnOp):
        return None
    if op.inputs[0].type.get_shape()[op.sort_dimension] >= MAX_LENGTH:  # pyright: ignore[reportAttributeAccessIssue]
        return None
    (decides,) = block.last_op.operands
    return _compare_key(block, decides) or _canonical_key(block, decides)


def _pair(block: Block, lhs: SSAValue, rhs: SSAValue) -> tuple[int, bool] | None:
    """(operand, swapped) where lhs and rhs are one operand's two arguments."""
    if not (isinstance(lhs, BlockArgument) and isinstance(rhs, BlockArgument)):
        return None
    if lhs.block is not block or rhs.block is not block:
        return None
    first, second = sorted((lhs.index, rhs.index))
    if first % 2 or second != first + 1:
        return None
    return first // 2, lhs.index > rhs.index


def _element(block: Block, operand: int):
    return block.args[2 * operand].type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]


def _compare_key(block: Block, decides: SSAValue) -> SortKey | None:
    """`compare LT/GT` on one operand's pair by totalOrder or as integers."""
    compare = decides.owner
    if not isinstance(compare, CompareOp):
        return None
    pair = _pair(block, compare.lhs, compare.rhs)
    direction = compare.comparison_direction.data
    if pair is None or direction not in (
        ComparisonDirection.LT,
        ComparisonDirection.GT,
    ):
        return None
    operand, swapped = pair
    element = _element(block, operand)
    kind = None if compare.compare_type is None else compare.compare_type.data
    if isinstance(element, AnyFloat) and kind == ComparisonType.TOTALORDER:
        order = "total"
    elif isinstance(element, IntegerType):
        unsigned = element.width.data == 1 or is_unsigned(element)
        order = "unsigned" if unsigned else "signed"
    else:
        return None
    return SortKey(order, (direction == ComparisonDirection.GT) != swapped, operand)


def _canonical_key(block: Block, decides: SSAValue) -> SortKey | None:
    """`!(a >= b) && a == a` on one float operand's pair."""
    both = decides.owner
    if not isinstance(both, AndOp):
        return None
    for not_, equal in (both.operands, reversed(both.operands)):
        below, ordered = not_.owner, equal.owner
        if not (isinstance(below, NotOp) and isinstance(ordered, CompareOp)):
            continue
        at_least = below.operands[0].owner
        if not (
            isinstance(at_least, CompareOp)
            and _float_compare(at_least, ComparisonDirection.GE)
            and _float_compare(ordered, ComparisonDirection.EQ)
            and ordered.lhs is at_least.lhs
            and ordered.rhs is at_least.lhs
        ):
            continue
        pair = _pair(block, at_least.lhs, at_least.rhs)
        if pair is not None and isinstance(_element(block, pair[0]), AnyFloat):
            return SortKey("canonical", pair[1], pair[0])
    return None


def _float_compare(compare: CompareOp, direction: ComparisonDirection) -> bool:
    kind = None if compare.compare_type is None else compare.compare_type.data
    return compare.comparison_direction.data == direction and kind in (
        None,
        ComparisonType.FLOAT,
    )


def top_k_bits(op: TopKOp) -> int | None:
    """The element width of the top_k routine that takes `op`, or None: an
    element whose bits order as its key (f16, bf16: the top half of its
    f32, f32, f64, integers of 8 to 64 bits) with i32 or i64 indices, in
    rows shorter than `MAX_LENGTH`.
    Booleans and the float8/6/4 formats (keyed by their f32 value, in
    which an FNUZ NaN or an unsigned format does not order as its bits)
    keep the selection kernel."""
    element = op.operand.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    index = op.indices.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    if not (isinstance(index, IntegerType) and index.width.data in (32, 64)):
        return None
    if op.operand.type.get_shape()[-1] >= MAX_LENGTH:  # pyright: ignore[reportAttributeAccessIssue]
        return None
    if isinstance(element, AnyFloat):
        own = format_of(element) is None or isinstance(element, BFloat16Type)
        bits = element.bitwidth if own else None
    elif isinstance(element, IntegerType):
        bits = element.width.data
    else:
        bits = None
    return bits if bits in TOP_K_BITS else None


@dataclass(frozen=True)
class SortRoutinesPass(ModulePass):
    """Mark the sorts and top_ks a routine does; see the module docstring."""

    name = "sort-routines"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in walk(op):
            if isinstance(inner, SortOp):
                key = plain_key(inner)
                if key is not None:
                    inner.attributes[SORT_ROUTINE] = key.attribute()
            elif isinstance(inner, TopKOp) and top_k_bits(inner) is not None:
                inner.attributes[TOP_K_ROUTINE] = UnitAttr()
