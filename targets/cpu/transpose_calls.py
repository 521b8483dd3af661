"""`transpose-calls{mr lanes}`: f32 transposes call the prebuilt transpose
entry (transpose_routine.py) instead of being compiled as loops.

`dot-layout` and programs' own transposes leave kernels that only move
elements to permuted indices,

    loop.parallel (%i0, %i1, %i2, %i3) = (0, ...) to (8, 8, 64, 256) {
      %x = loop.load %S[%i0, %i1, %i3, %i2] : memref<8x8x256x64xf32>
      loop.store %x, %D[%i0, %i1, %i2, %i3] : memref<8x8x64x256xf32>
    }

Compiled inline, LLVM made each a nest of gathers, several milliseconds of
a compile, and the nest ran untiled unless its columns spanned a MiB
(`tile-transposes`). This pass turns such a nest (any rank, each index of
the load an induction variable, each once, the store's the induction
variables in order) into a loop over groups of `GROUP_ELEMENTS` elements'
rows calling the entry, each call marked with the work the inline nest did
(two ops per element: `parallelize` threads the groups where it would have
threaded the inline nest). Dimensions of D that stay together in S (the
next one of D is the next one of S) are merged (`_merged`). Left as loops:
other element types, a nest that does more than move (a fused transpose),
one that keeps the last dimension (its rows are contiguous in both: no
transpose), an empty array, more than four dimensions after the merge. The
pass's `threads` and `min-work` options go unused, as `pad-calls`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.ir import SSAValue
from xlir.dialects.loop.loops import ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    f32_shape,
    row_group_calls,
    static_sizes,
)
from xlir.targets.cpu.transpose_routine import transpose_routine_name

LEVELS = 4
"""Dimensions the entry takes (fewer are padded with leading ones)."""

GROUP_ELEMENTS = 1 << 14
"""Elements of D per call, at least (whole blocks of `lanes` rows, the
entry's: a group of fewer rows would move no block as vectors): the groups
`parallelize` may give threads."""


@dataclass(frozen=True)
class Transpose:
    """A transpose nest: its buffers, D's sizes and, per dimension of D,
    the stride in S (in elements) of its index."""

    nest: ParallelOp
    source: SSAValue
    target: SSAValue
    out: tuple[int, ...]
    strides: tuple[int, ...]


def transpose_of(nest: ParallelOp) -> Transpose | None:
    """The transpose a nest computes (module docstring), else None."""
    sizes = static_sizes(nest)
    ops = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    if sizes is None or len(ops) != 2:
        return None
    load, store = ops
    if not isinstance(load, LoadOp) or not isinstance(store, StoreOp):
        return None
    ivs = list(nest.induction_vars)
    out, into = f32_shape(store.buffer), f32_shape(load.buffer)
    if (
        out is None
        or into is None
        or min(out, default=0) < 1
        or tuple(sizes) != out
        or store.value is not load.result
        or list(store.indices) != ivs
        or load.buffer is store.buffer
        or sorted(map(id, load.indices)) != sorted(map(id, ivs))
    ):
        return None
    # The dimension of S each dimension of D indexes, and S's strides.
    read = [ivs.index(index) for index in load.indices]
    source_dim = [read.index(k) for k in range(len(ivs))]
    stride_of = [prod(into[k + 1 :]) for k in range(len(into))]
    dims = _merged(
        [(size, stride_of[k]) for size, k in zip(out, source_dim, strict=True)]
    )
    if len(dims) > LEVELS or dims[-1][1] == 1:
        return None
    out, strides = (tuple(dim[i] for dim in dims) for i in range(2))
    return Transpose(nest, load.buffer, store.buffer, out, strides)


def _merged(dims: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(D's size, its stride in S) per dimension, each dimension whose
    stride times its size is the stride of the one before merged into that
    one: the two walk S as one dimension does (a batch of heads, or a
    transpose of a reshaped pair)."""
    merged = dims[:1]
    for size, stride in dims[1:]:
        before_size, before_stride = merged[-1]
        if before_stride == size * stride:
            merged[-1] = (before_size * size, stride)
        else:
            merged.append((size, stride))
    return merged


def _call(transpose: Transpose, site: Site) -> None:
    """Replace the nest by a loop over groups of rows calling the entry."""
    fill = LEVELS - len(transpose.out)
    out = (1,) * fill + transpose.out
    strides = (0,) * fill + transpose.strides
    rows, row = prod(out[:-1]), out[-1]
    blocks = -(-GROUP_ELEMENTS // (row * site.lanes))
    group = min(rows, blocks * site.lanes)
    entry = transpose_routine_name(site.mr, site.lanes)
    buffers = (transpose.source, transpose.target)
    sizes = (*out[1:], *strides)
    row_group_calls(transpose.nest, entry, buffers, rows, group, sizes, 2 * group * row)


@dataclass(frozen=True)
class TransposeCallsPass(RoutineCallsPass):
    """f32 transposes call the prebuilt transpose entry (module docstring)."""

    name = "transpose-calls"

    def call(self, nest: ParallelOp, site: Site) -> None:
        transpose = transpose_of(nest)
        if transpose is not None:
            _call(transpose, site)
