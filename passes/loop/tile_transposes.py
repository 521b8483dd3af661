"""`tile-transposes{vector-bits=N min-bytes=B}`: cache-block nests that transpose.

A transpose (or a fusion that reads an operand transposed) lowers to one
`loop.parallel` whose store runs along one dimension (its last index is
that induction variable) and whose load runs along another:

    loop.parallel (%i, %j) = (0, 0) to (1024, 2048) step (1, 1) {
      %v = loop.load %x[%j, %i] : memref<2048x1024xf32>
      loop.store %v, %y[%i, %j] : memref<1024x2048xf32>

Walked row by row, each row of `y` reads a column of `x`: one cache line
(and, for long rows, one page) per element, reused by the next rows of `y`
only if the whole column's lines are still cached. When the column spans
much memory, or its rows are a power of two of bytes apart (its lines then
fall into a few cache sets and evict each other), every element is a miss.
LLVM makes the inner loop gathers, but cannot reorder the nest. This pass
tiles the two dimensions (the store's and the load's unit-stride ones) and
every other dimension into tiles of 1, with `tile`'s rewrite
(passes/loop/tile.py): the outer `loop.parallel` walks tiles (and the
other dimensions), the inner one the elements of one tile, whose lines
stay in L1 while the tile is written. As in XLA's and IREE's transposes, a
tile is the unit of work; `parallelize` then splits the outer loop's first
dimension across threads as it does for any kernel.

A tile is `G` elements along the store's dimension by `L` along the load's,
sized by the `vector-bits` register (at least `MIN_EDGE` each): `G` is its
64-bit lanes (8 for AVX-512), because LLVM vectorizes the inner loop's
column into gathers of 64-bit addresses, `G` to one register of them, so a
tile row is one gather and one vector store (16 lanes took two gathers and
an insert, and ran slower); `L` is one register of the load's elements (16
f32, 32 bf16, 64 u8 for AVX-512: a 64-byte cache line on x86), so a tile
reads whole lines of the input, where square tiles of `G` read half lines
of f32 and came back for the other half after the lines had left L1.

A column that spans less than `min-bytes` (its extent times the load's
stride along the store's dimension) is left untiled: it stays in the
caches as the rows walk it, and the untiled walk, whose stores are one
sequential stream, ran as fast or faster than tiles there (the default,
1 MiB: on the AVX-512 EPYC it was measured on, columns of 64-128 KiB ran
slower tiled, of 256 KiB as fast, and a kernel of kv_cache_decode whose
columns span 512 KiB ran slower tiled in the program though not alone).

Only nests that are plain element-by-element code are tiled: a kernel's
outermost `loop.parallel` whose body holds no op with regions (no
reduction loop: `register-tile` and `vectorize` own those), whose loads
and stores are scalar, whose stores all run along the same dimension, and
where some load runs along another dimension and indexes by the store's
dimension itself (plus what does not depend on it), so its stride is
known. A nest that does not transpose (copies, broadcasts, elementwise
code, batch transposes that keep the last dimension) is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.index_ranges import most_trips
from xlir.analysis.loop_utils import bounds_of
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.jam import index_dim, unit_stride_dim
from xlir.passes.loop.parallelize import outer_parallels
from xlir.passes.loop.tile import tile
from xlir.passes.loop.vector_sizes import DEFAULT_VECTOR_BITS, check_vector_bits, lanes

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width

MIN_EDGE = 4
"""The smallest tile edge (128-bit registers hold two addresses)."""
DEFAULT_MIN_BYTES = 1 << 20
"""A column's span from which a transpose is tiled (module docstring)."""


def transpose_tiles(
    nest: ParallelOp, vector_bits: int, min_bytes: int
) -> list[int] | None:
    """The tile sizes of each dimension of a nest that transposes a column
    of at least `min_bytes`, or None for any other nest (module docstring)."""
    ivs = list(nest.induction_vars)
    loads: list[LoadOp] = []
    store_dims: set[int | None] = set()
    for op in nest.body.block.ops:
        if op.regions:
            return None
        if isinstance(op, LoadOp):
            if isinstance(op.result.type, VectorType):
                return None
            loads.append(op)
        elif isinstance(op, StoreOp):
            if isinstance(op.value.type, VectorType):
                return None
            store_dims.add(unit_stride_dim(op, ivs))
    if len(store_dims) != 1 or (store_dim := store_dims.pop()) is None:
        return None
    trips = most_trips(*bounds_of(nest)[store_dim])
    for load in loads:
        load_dim = unit_stride_dim(load, ivs)
        if load_dim is None or load_dim == store_dim:
            continue
        stride = _column_stride(load, ivs[store_dim])
        if stride and trips * stride >= min_bytes:
            type_ = load.buffer.type
            assert isinstance(type_, MemRefType)
            size = byte_width(type_.element_type)
            assert size is not None  # the stride is known
            sizes = [1] * len(ivs)
            sizes[store_dim] = max(MIN_EDGE, lanes(vector_bits, 64))
            sizes[load_dim] = max(MIN_EDGE, lanes(vector_bits, 8 * size))
            return sizes
    return None


def _column_stride(load: LoadOp, iv: SSAValue) -> int:
    """Bytes `load` moves by as `iv` steps by one: the row-major stride of
    the index that is `iv` (or `iv` plus something independent of it); 0
    when no index is, or the buffer's shape or element size is not known."""
    type_ = load.buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    size = byte_width(type_.element_type)
    for k, index in enumerate(load.indices):
        if index_dim(index, [iv]) == 0:
            inner = shape[k + 1 :]
            if size is None or any(d < 0 for d in inner):
                return 0
            return size * prod(inner)
    return 0


@dataclass(frozen=True)
class TileTransposesPass(ModulePass):
    """Tile the nests that transpose (module docstring)."""

    name = "tile-transposes"

    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register (the target's): sizes the tiles (module docstring)."""
    min_bytes: int = DEFAULT_MIN_BYTES
    """Bytes a column of the transpose spans below which a nest is left untiled."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_vector_bits(self.name, self.vector_bits)
        if self.min_bytes < 0:
            raise XlirError(
                f"error: tile-transposes: min-bytes must be non-negative, got {self.min_bytes}"
            )
        for kernel in op.body.block.ops:
            if not isinstance(kernel, KernelOp):
                continue
            for nest in outer_parallels(kernel):
                sizes = transpose_tiles(nest, self.vector_bits, self.min_bytes)
                if sizes is not None:
                    tile(nest, sizes)
