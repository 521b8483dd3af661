"""`register-tile{mr=M nr=N lanes=L contract=true}`: register tiles for
contractions.

A dot, a batched dot or a convolution lowers to a `loop.parallel` over the
output around a `loop.for` reduction: one multiply-add per loaded pair, and
one loop-carried add chain per output element, so the CPU waits on the add
latency and reloads both operands every time. Register tiling jams (see
`passes/loop/jam.py`) two parallel dimensions into the reduction: `nr` along the
dimension some operand is read with unit stride (the vector dimension, `j`
of `B[k, j]`) and `mr` along a dimension that an operand not depending on
`j` is read by (`i` of `A[i, k]`; the innermost such dimension with at
least `mr` iterations, where there is one). Per reduction step the tile then loads
`nr` contiguous elements of B (vector loads), `mr` elements of A (broadcasts)
and does `mr * nr` independent multiply-adds on accumulators that stay in
registers. The `nr` columns are vector copies of `lanes` elements
(`passes/loop/jam_vector.py`): each row of the tile loads `nr / lanes` vectors of
B, broadcasts its element of A and does `nr / lanes` vector FMAs, so the IR
is as small as the code LLVM makes of it (`lanes=1` jams scalar copies, for
LLVM's SLP vectorizer to pack again, at two to three times the compile time).
After the loop comes the epilogue (bias, activation, store): a cheap
one is cloned per accumulator; a costlier one (a GELU is hundreds of ops
once `expand-math` has written out its tanh) runs once per tile, in a
nest over the tile's elements, on the accumulators stored to the output
and loaded back (`passes/loop/jam.py`). When the output cannot hold them (the
reductions carry more than one value, no store of the accumulator's type
at the nest's indices, an output the nest also reads), the tile gets as
few rows as keep the cloned epilogues (one per vector copy: `mr` times
`nr / lanes`) within `CLONED_EPILOGUE_BUDGET`,
down to one row of `nr`: still vector FMAs, B reloaded per row, instead
of leaving the contraction scalar or paying seconds of compile time.
Whole tiles only: the tile takes fewer rows than `mr` where a number above
half of it divides the rows (64 rows: 8 x 8 tiles, where 12 left five
tiles, split 3 to 2 between two threads, and four single-row tiles at a
third of the speed: mlp_fwd ~15% faster), or all of them when there are
fewer than `mr`. Remainder columns get `mr` x (what is left) tiles and
remainder rows 1 x `nr` tiles (a few rows are not worth the code of
another full tile), so no element runs the slow scalar form.

`mr`, `nr` and `lanes` count f32 elements; 0 (the default) picks them from
the options `vector-bits` and `vector-registers`, which the target's
pipeline sets (`passes/loop/vector_sizes.py`): `lanes` as many as one vector
register LLVM uses holds, `nr` two vectors of the width LLVM vectorizes
at, `mr` 12 with 32 vector registers (AVX-512), 6 with 16 (AVX2, SSE), so
that the `2 * mr` accumulators, two vectors of B and one broadcast fit in
the registers: 12 x 32 where LLVM uses 512-bit vectors, 12 x 16 where it
prefers 256 bits on an AVX-512 CPU (LLVM's default tuning for Intel's), 6 x
16 with AVX2. A nest carrying several values per element, or wider ones,
gets proportionally fewer rows; its vector copies are a register of its
widest carried type (8 f64 lanes where `lanes` is 16), however many values
it carries (an LSTM cell's four gate sums are four full vectors).

`contract` (on by default) makes each `acc + a * b` of a reduction one
`math.fma`: the sum runs in the same order (k ascending) as before, but each
step rounds once instead of twice (as XLA:CPU's and BLAS's kernels do); with
`contract=false` the results are bit for bit those of the untiled nest.

First the clamps and comparisons of indices that the nest's bounds decide
are folded (`fold_index.fold_decided`): a convolution fused with its
padding clamps and compares the output channel, which never leaves its
range, and a clamped index is no unit-stride column for vector copies.

The nest is left alone when it is not a reduction, has no unit-stride
operand or no second operand to reuse (that is `vectorize`'s case), has
dynamic bounds on those dimensions, or holds ops with regions other than
`loop.for` (see `jam_blocker`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.dependence import dependents
from xlir.analysis.loop_utils import bounds_of, static_trip_count
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.fold_index import fold_decided
from xlir.passes.loop.jam import (
    epilogue_copies,
    is_jammed,
    jam,
    jam_blocker,
    loads_in,
    reduction_loops,
    unit_stride_dim,
)
from xlir.passes.loop.vector_sizes import (
    DEFAULT_VECTOR_BITS,
    DEFAULT_VECTOR_REGISTERS,
    check_vector_bits,
    lanes,
)

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width
from xlir.walk import walk


def default_tile(vector_bits: int, vector_registers: int) -> tuple[int, int]:
    """(mr, nr) in f32 elements for these registers (module docstring)."""
    return (12 if vector_registers >= 32 else 6), 2 * lanes(vector_bits, 32)


def _unit_stride_dims(
    accesses: Sequence[LoadOp | StoreOp],
    ivs: Sequence[SSAValue],
    counts: Sequence[int | None],
) -> set[int]:
    return {
        d
        for access in accesses
        if (d := unit_stride_dim(access, ivs)) is not None and (counts[d] or 0) > 1
    }


def contraction_dims(nest: ParallelOp, rows: int = 1) -> tuple[int, int] | None:
    """(the mr dimension, the nr dimension) of a contraction nest, or None.
    The mr dimension is the innermost dimension that reuses a load with at
    least `rows` iterations, else the innermost that reuses one: an image's
    3 channels as the rows made tiles of 3 x `nr` where its 224 rows made
    full ones."""
    ivs = nest.induction_vars
    loops = reduction_loops(nest)
    if not loops:
        return None
    loads = loads_in(loops)
    counts = [static_trip_count(*b) for b in bounds_of(nest)]
    stores = [op for op in nest.body.block.ops if isinstance(op, StoreOp)]
    vector_dims = _unit_stride_dims(loads, ivs, counts) or _unit_stride_dims(
        stores, ivs, counts
    )
    if not vector_dims:
        return None
    nr_dim = max(vector_dims)
    body = nest.body.block.ops
    along_nr = dependents([ivs[nr_dim]], body)
    along = {
        d: dependents([iv], body)
        for d, iv in enumerate(ivs)
        if d != nr_dim and (counts[d] or 0) > 1
    }
    reused = {
        d
        for load in loads
        if not any(v in along_nr for v in load.indices)
        for d, values in along.items()
        if any(v in values for v in load.indices)
    }
    if not reused:
        return None
    return max(reused, key=lambda d: ((counts[d] or 0) >= rows, d)), nr_dim


def contract_multiply_adds(loop: ForOp) -> None:
    """`acc + a * b` (or `a * b + acc`) on a carried `acc`, the product used
    only there, becomes `math.fma a, b, acc` in the loop and those nested."""
    for op in list(walk(loop)):
        if not isinstance(op, arith.AddfOp):
            continue
        for acc, product in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            owner = product.owner
            parent = op.parent_op()
            if (
                isinstance(parent, ForOp)
                and acc in parent.carried
                and isinstance(owner, arith.MulfOp)
                and product.has_one_use()
            ):
                fused = math.FmaOp(owner.lhs, owner.rhs, acc)
                _replace(op, fused)
                owner.detach()
                owner.erase()
                break


def _replace(old: Operation, new: Operation) -> None:
    block = old.parent_block()
    assert block is not None
    block.insert_op_before(new, old)
    old.results[0].replace_all_uses_with(new.results[0])
    old.detach()
    old.erase()


def _f32_multiples(nest: ParallelOp) -> list[int]:
    """How many f32 elements' worth each value the nest's reductions carry
    is (at least one)."""
    return [
        max(1, (byte_width(value.type) or 4) // 4)
        for loop in reduction_loops(nest)
        for value in loop.iter_args
    ]


def _carried_scale(nest: ParallelOp) -> int:
    """How many f32 registers' worth one copy of the nest carries: the
    accumulators of a tile's row, so the rows it can keep in registers."""
    return max(1, sum(_f32_multiples(nest)))


def _widest_carried(nest: ParallelOp) -> int:
    """How many f32 elements' worth its widest carried value is: a vector
    of `lanes` f32 elements holds `lanes` over that of them. Not the sum:
    the sums of an LSTM's four gates are four vectors of full width (on
    quarter-width vectors its sigmoids went back to scalar copies)."""
    return max(_f32_multiples(nest), default=1)


def register_tile(
    nest: ParallelOp, mr: int, nr: int, lanes: int, contract: bool
) -> bool:
    """Tile one contraction nest (and its remainders) with vector copies of
    up to `lanes` f32 elements; whether it changed."""
    if is_jammed(nest) or not reduction_loops(nest):
        return False
    fold_decided(nest)
    dims = contraction_dims(nest, mr)
    if dims is None or jam_blocker(nest, dims) is not None:
        return False
    mr_dim, nr_dim = dims
    lanes = max(1, lanes // _widest_carried(nest))
    mr = max(1, mr // _carried_scale(nest))
    mr = max(1, min(mr, epilogue_copies(nest) // max(1, nr // lanes)))
    mr = _dividing_rows(static_trip_count(*bounds_of(nest)[mr_dim]) or 0, mr)
    if contract:
        for loop in reduction_loops(nest):
            contract_multiply_adds(loop)
    return _tile_with_remainders(nest, mr_dim, mr, nr_dim, nr, lanes)


def _dividing_rows(count: int, mr: int) -> int:
    """The tile's rows for `count` rows: `mr`, or the largest number above
    half of it that divides `count` (64 rows: 8 x 8, not 5 x 12 and four
    single-row tiles at a third of the speed, with a thread split 3 to 2),
    or `count` when it is smaller."""
    if count <= 0 or count % mr == 0:
        return mr
    if count < mr:
        return count
    for rows in range(mr - 1, mr // 2, -1):
        if count % rows == 0:
            return rows
    return mr


def _tile_with_remainders(
    nest: ParallelOp, mr_dim: int, mr: int, nr_dim: int, nr: int, lanes: int
) -> bool:
    """Jam by (mr, nr); the rest of the columns again by (mr, what is left),
    the rest of the rows by (1, nr): a few rows are not worth the code of
    another full tile."""
    jammed = jam(nest, {mr_dim: mr, nr_dim: nr}, (nr_dim, lanes))
    if jammed is None:
        return False
    for dim, rest in jammed.remainders.items():
        rows = 1 if dim == mr_dim else mr
        _tile_with_remainders(rest, mr_dim, rows, nr_dim, nr, lanes)
    return True


@dataclass(frozen=True)
class RegisterTilePass(ModulePass):
    """Register tiles for contraction nests (module docstring)."""

    name = "register-tile"

    mr: int = 0
    nr: int = 0
    lanes: int = 0
    contract: bool = True
    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register, for the sizes left 0."""
    vector_registers: int = DEFAULT_VECTOR_REGISTERS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.mr < 0 or self.nr < 0 or self.lanes < 0:
            raise XlirError(
                f"error: register-tile: mr, nr and lanes must be non-negative "
                f"(0: from the vector registers), got mr={self.mr} nr={self.nr} "
                f"lanes={self.lanes}"
            )
        check_vector_bits(self.name, self.vector_bits)
        default_mr, default_nr = default_tile(self.vector_bits, self.vector_registers)
        mr, nr = self.mr or default_mr, self.nr or default_nr
        f32_lanes = self.lanes or lanes(self.vector_bits, 32)
        for nest in [p for p in walk(op) if type(p) is ParallelOp]:
            register_tile(nest, mr, nr, f32_lanes, self.contract)
