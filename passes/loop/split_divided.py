"""`split-divided`: a nest's dimension that its body divides by constants
becomes nested dimensions.

`hlo-to-loop` lowers a reshape that merges dimensions of a transposed
operand (attention's heads put back side by side, an image's pixels and
channels flattened) to one nest over the output, whose index into the
operand divides the merged index again:

    loop.parallel (%b, %r, %i) = (0, 0, 0) to (4, 128, 256) step (1, 1, 1) {
      %h = arith.divui %i, %c64 : index
      %d = arith.remui %i, %c64 : index
      %v = loop.load %x[%b, %h, %r, %d] : memref<4x4x128x64xf32>
      loop.store %v, %y[%b, %r, %i] : memref<4x128x256xf32>
    }

LLVM vectorizes the loop over `%i` as a vector of indices, divides and
masks it lane by lane and gathers the loads (a bf16 load, which x86 cannot
gather, is 32 scalar loads and inserts): the kernel is slow, and LLVM
spends on it what a kernel many times its size costs. Here
`%i` becomes the dimensions `(%h, %d) = (0, 0) to (4, 64)`, the old index
their sum `%h * 64 + %d`, and `fold-index`'s division of linear sums
(`DivideLinear`) folds the division to `%h` and the remainder to `%d`: the
inner loop loads and stores with unit stride.

A dimension (static, from 0, step 1) is split when its induction variable
is divided (`divui`, `remui`) by constants that each divide the next and
the extent (768 and 3 of 6144: dimensions of 8, 256 and 3), and its
remainder by the least is the last index of a load, which then reads with
unit stride along the innermost new dimension. A remainder that indexes
another dimension (a transpose's column walked down) is left to LLVM's
gathers over the whole dimension, which ran faster than split. Only the
outermost `loop.parallel`s of kernels whose bodies hold no regions are
split (as `split-ranges` does), before the passes that tile, vectorize and
thread them. Every element is computed by the same ops: results are bit
for bit the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xlir.analysis.loop_utils import constant_int, plain_nests
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.loop.memory import LoadOp
from xlir.passes.loop.fold_index import DivideLinear


def _divisors(iv: SSAValue, extent: int) -> list[int]:
    """The constants (ascending) `iv` is divided by, where each divides the
    next and `extent`, and the remainder by the least is a load's last
    index (so that the innermost new dimension reads with unit stride);
    none otherwise."""
    found: set[int] = set()
    unit = set()
    for use in iv.uses:
        op = use.operation
        if isinstance(op, arith.DivUIOp | arith.RemUIOp) and use.index == 0:
            divisor = constant_int(op.rhs)
            if divisor is not None and 1 < divisor < extent:
                found.add(divisor)
                if isinstance(op, arith.RemUIOp) and _last_load_index(op.result):
                    unit.add(divisor)
    chain = sorted(found)
    if not chain or chain[0] not in unit:
        return []
    if any(outer % inner for inner, outer in pairwise([*chain, extent])):
        return []
    return chain


def _last_load_index(value: SSAValue) -> bool:
    """Whether `value` is the last index of some `loop.load`."""
    return any(
        isinstance(use.operation, LoadOp)
        and use.operation.indices
        and use.operation.indices[-1] == value
        for use in value.uses
    )


def _split(nest: ParallelOp) -> ParallelOp | None:
    """`nest` with the first dimension its body divides split (module
    docstring), in its place; None where there is none."""
    lower, upper, step = nest.lower_bounds, nest.upper_bounds, nest.steps
    for dim, iv in enumerate(nest.induction_vars):
        extent = upper[dim]
        if lower[dim] != 0 or step[dim] != 1 or not isinstance(extent, int):
            continue
        chain = _divisors(iv, extent)
        if chain:
            break
    else:
        return None
    strides = [*reversed(chain), 1]
    sizes = [extent // strides[0]] + [a // b for a, b in pairwise(strides)]
    count = len(sizes)
    new = ParallelOp(
        [*lower[:dim], *[0] * count, *lower[dim + 1 :]],
        [*upper[:dim], *sizes, *upper[dim + 1 :]],
        [*step[:dim], *[1] * count, *step[dim + 1 :]],
        nest.detach_region(nest.body),
    )
    new.attributes |= nest.attributes
    block = new.body.block
    parts = [block.insert_arg(IndexType(), dim + n) for n in range(count)]
    ops = _linear(parts, strides)
    first = block.first_op
    assert first is not None
    block.insert_ops_before(ops, first)
    iv.replace_all_uses_with(ops[-1].results[0])
    assert isinstance(iv, BlockArgument)
    block.erase_arg(iv)
    parent = nest.parent_block()
    assert parent is not None
    parent.insert_op_before(new, nest)
    nest.detach()
    nest.erase()
    fold = DivideLinear()
    for op in list(block.ops):  # in order: a quotient folds before its users
        if isinstance(op, arith.DivUIOp | arith.RemUIOp):
            fold.match_and_rewrite(op, PatternRewriter(op))
    for op in reversed(ops):
        if not op.results[0].uses:
            op.detach()
            op.erase()
    return new


def _linear(parts: Sequence[SSAValue], strides: list[int]) -> list[Operation]:
    """The ops computing `sum(part * stride)`, the sum last."""
    ops: list[Operation] = []
    total: SSAValue | None = None
    for part, stride in zip(parts, strides, strict=True):
        term = part
        if stride != 1:
            ops += [factor := _index(stride), product := arith.MuliOp(part, factor)]
            term = product.result
        if total is not None:
            ops.append(sum_ := arith.AddiOp(total, term))
            term = sum_.result
        total = term
    return ops


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


@dataclass(frozen=True)
class SplitDividedPass(ModulePass):
    """Split dimensions that kernels' nests divide (module docstring)."""

    name = "split-divided"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for nest in plain_nests(op):
            split: ParallelOp | None = nest
            while split is not None:
                split = _split(split)
