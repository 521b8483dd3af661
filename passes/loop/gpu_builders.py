"""IR builders `map-to-gpu` and its row reductions share: thread numbers of
xDSL's gpu dialect, a loop nest's indices from one number, guarded regions."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, scf
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import index_constant

X = gpu.DimensionAttr(gpu.DimensionEnum.X)
"""The one grid and block dimension xlir's GPU kernels use."""


def global_thread(builder: Builder) -> SSAValue:
    """`block_id * block_dim + thread_id` along x."""
    block = builder.insert(gpu.BlockIdOp(X)).result
    size = builder.insert(gpu.BlockDimOp(X)).result
    thread = builder.insert(gpu.ThreadIdOp(X)).result
    first = builder.insert(arith.MuliOp(block, size)).result
    return builder.insert(arith.AddiOp(first, thread)).result


def delinearize(
    builder: Builder,
    lowers: Sequence[int],
    steps: Sequence[int],
    counts: Sequence[int],
    linear: SSAValue,
) -> list[SSAValue]:
    """The indices of iteration `linear` of a loop nest of `counts`
    iterations per dimension (row-major), from `lowers` by `steps`."""
    indices: list[SSAValue] = []
    for dim, count in enumerate(counts):
        stride = prod(counts[dim + 1 :])
        value = linear
        if stride != 1:
            value = builder.insert(
                arith.DivUIOp(value, index_constant(builder, stride))
            ).result
        if dim > 0:
            value = builder.insert(
                arith.RemUIOp(value, index_constant(builder, count))
            ).result
        if steps[dim] != 1:
            value = builder.insert(
                arith.MuliOp(value, index_constant(builder, steps[dim]))
            ).result
        if lowers[dim] != 0:
            value = builder.insert(
                arith.AddiOp(value, index_constant(builder, lowers[dim]))
            ).result
        indices.append(value)
    return indices


def guarded(builder: Builder, condition: SSAValue) -> Builder:
    """A builder inside a new `scf.if condition` (no results) at `builder`."""
    body = Block([scf.YieldOp()])
    builder.insert(scf.IfOp(condition, [], Region(body)))
    terminator = body.last_op
    assert terminator is not None
    return Builder(InsertPoint.before(terminator))
