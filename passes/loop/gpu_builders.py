"""IR builders `map-to-gpu` and its row reductions share: thread numbers of
xDSL's gpu dialect and guarded regions (a loop nest's indices from one
number: `analysis.loop_utils.delinearize`)."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, gpu, scf
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

X = gpu.DimensionAttr(gpu.DimensionEnum.X)
"""The one grid and block dimension xlir's GPU kernels use."""


def global_thread(builder: Builder) -> SSAValue:
    """`block_id * block_dim + thread_id` along x."""
    block = builder.insert(gpu.BlockIdOp(X)).result
    size = builder.insert(gpu.BlockDimOp(X)).result
    thread = builder.insert(gpu.ThreadIdOp(X)).result
    first = builder.insert(arith.MuliOp(block, size)).result
    return builder.insert(arith.AddiOp(first, thread)).result


def guarded(builder: Builder, condition: SSAValue) -> Builder:
    """A builder inside a new `scf.if condition` (no results) at `builder`."""
    body = Block([scf.YieldOp()])
    builder.insert(scf.IfOp(condition, [], Region(body)))
    terminator = body.last_op
    assert terminator is not None
    return Builder(InsertPoint.before(terminator))
