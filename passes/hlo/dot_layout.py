"""`dot-layout`: give a dot_general's right operand a unit-stride free dim,
a layout choice for dot operands in the spirit of XLA's layout assignment.

The CPU's dot kernels (`register-tile`) vectorize along the rhs's free
dims, which needs the rhs read with unit stride along its last dim. A
dot_general whose rhs contracts its last dim (`A·Bᵀ`, `contracting_dims =
[1] x [1]`) would load B with a gather per vector lane, many times slower.
This pass reads such an rhs through a `stablehlo.transpose` that puts its
batch dims first (in the order of the batching list), then its contracting
dims (in the order of the contracting list), then its free dims in their
order, and renames the dot's rhs dims to match: the result and its dim
order are unchanged, and the transpose is one pass over B against the dot's
many reads of each element.

An unbatched rhs with a free dim before a contracting dim (an image batch
`[b, k, w, c]` contracted along k) is read through the same transpose
(`[k, b, w, c]`) when the lhs has at least `MIN_LHS_ROWS` rows: the free
dims then lie together after k, merge into one (below), and B is a plain
`[k, n]` matrix whose column panels `pack-panels` copies once per call;
read at `[b, k, ...]`, the panels would depend on the parallel dim b and
every row tile would stream all of B from memory again.

A rhs with fewer than `min-elements` elements, or whose free dims hold one
element (nothing to vectorize along), is left alone; so is one whose lhs
has one row (its free dims hold one element): the dot then reads each
element of B once, and a transpose would read and write each once more
(kv_cache_decode's scores, a query row against each head's cached keys
`[b, t, h, d]`: 8 transposes of 4 MiB a call, half its run time).

Where the target calls a GEMM routine that reads B at any stride
(`routine-panel`, the width of its panels; 0: none), an unbatched f32
`A·Bᵀ` that the routine will compute keeps B in place (its free dims,
lying together before k, merged into one by a reshape): the routine copies
each panel of B into a scratch anyway, and reads the transposed panel
straight from B in that copy (einsum_permuted_output, `[k, m] x [b, n, k]`:
no 8 MiB transpose kernel). "Will compute": a shape
`gemm_panels.panels_cover` gives the routine, sums of at most
`routine-max-k` terms, and no epilogue fused later (`_routine_reads_in_place`);
an inline kernel given such a B would load it a gather per vector lane.
A batched `A·Bᵀ` keeps B in place where the routine's batched entry
computes it (`routine-batched-min`, the least rows and columns of its
matrices, and `routine-batched-max-k`: einsum_batch_heads' heads, `[b, h,
s, d] x [b, h, t, d]`, with no 4 MiB transpose kernel).

Where another dot makes the rhs, or dots read the result, swapping a
dot's operands can stand for a transpose: `dot_general(b, a)` is
`dot_general(a, b)`'s result with the two operands' free dims the other way
round, each element the same products (`a * b == b * a`) summed in the
same order, so the same bits. A transpose is a loop nest of its own for
LLVM and, at run time, a strided copy of B before `pack-panels` copies it
into panels again. So, where the swapped dot's rhs (the old lhs) needs no
transpose:

* a rhs that a dot makes, used only here, is made by that dot swapped
  when that is the wanted permutation (`x·(W·V)ᵀ`, an einsum chain);
* a dot whose rhs needs a transpose is swapped instead when only dots
  read its result, each as its rhs, and each, its dims renamed, then
  needs no transpose and keeps its free dims in order (its result's
  order): `(A·Bᵀ)` read by a batched row dot.

Consumers are visited first, so that a swapped dot's old rhs, now its lhs,
is not transposed for it before.

A rhs whose last dims are several free dims (an image's width and its 3
channels, `[b, k, w, c]`) is read through a `stablehlo.reshape` that merges
them into one dim (`[b, k, w * c]`), and the result is reshaped back: those
dims are the result's last ones too, in the same order, so the merged dim
is the rhs's and the result's unit-stride dim. The register tile then runs
along all `w * c` elements instead of 3 (a uint8 image resize's first dot,
`[256, 224] x [8, 256, 256, 3]`: scalar code over columns of 3, about
0.5 s against XLA's 0.06 s for the whole program). Same products, same
order, same bits. Contracting dims that lie together in both operands are
merged into one as well (`merge_contracting.py`). `simplify` folds such a
transpose back into the dot (`simplify_patterns/dot.py`), so this pass runs
after it; `fuse` keeps the transpose out of the dot's fusion (a contraction's
operands are materialized, `contraction-operand` in `fusion/rules.py`), so it
becomes its own kernel, fused with the elementwise ops that produce B.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    Float32Type,
    ModuleOp,
    TensorType,
)
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.analysis.gemm_panels import panels_cover
from xlir.dialects.stablehlo.attributes import (
    DotDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.data_movement import ReshapeOp, TransposeOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.fusion.rules import is_elementwise
from xlir.passes.hlo.int_dot_quads import is_byte_quad_dot
from xlir.passes.hlo.merge_contracting import MergeContractingDims

from xlir.rewriting import PatternRewriteWalker

MIN_LHS_ROWS = 16
"""The fewest lhs rows (its free extent) for which an rhs with a free dim
before a contracting dim is transposed: two register tiles of rows, so B's
packed panels are read at least twice for the one transpose."""


def rhs_permutation(
    rank: int, batch: tuple[int, ...], contract: tuple[int, ...], lhs_rows: int
) -> tuple[int, ...] | None:
    """The transpose that moves the rhs's free dims last, or None when its
    last dim is already free and no free dim comes before a contracting dim
    of an unbatched rhs with `lhs_rows` of at least `MIN_LHS_ROWS` (or it
    has no free dim, or the lhs has one row: each rhs element is read
    once)."""
    if rank == 0 or lhs_rows < 2:
        return None
    bound = set(batch) | set(contract)
    free = [d for d in range(rank) if d not in bound]
    if not free:
        return None
    free_first = not batch and free[0] < max(contract, default=-1)
    if rank - 1 not in contract and not (free_first and lhs_rows >= MIN_LHS_ROWS):
        return None
    return (*batch, *contract, *free)


class TransposeContractedRhs(RewritePattern):
    """dot_general(a, b) with b's last dim contracted (or a free dim before
    a contracted one) → dot_general(a, transpose(b)) with b's free dims
    last, or a dot's operands swapped where that stands for the transpose,
    or b left in place for the target's GEMM routine (module docstring)."""

    def __init__(
        self,
        min_elements: int,
        routine_panel: int,
        routine_max_k: int,
        routine_batched: tuple[int, int] = (0, 0),
    ):
        super().__init__()
        self.min_elements = min_elements
        self.routine_panel = routine_panel
        self.routine_max_k = routine_max_k
        self.routine_batched = routine_batched

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        dims = op.dot_dimension_numbers
        batch = dims.rhs_batching_dimensions.data
        contract = dims.rhs_contracting_dimensions.data
        rhs_shape = shape(op.rhs.type)
        lhs_shape = shape(op.lhs.type)
        lhs_bound = {
            *dims.lhs_batching_dimensions.data,
            *dims.lhs_contracting_dimensions.data,
        }
        lhs_rows = math.prod(n for d, n in enumerate(lhs_shape) if d not in lhs_bound)
        permutation = rhs_permutation(len(rhs_shape), batch, contract, lhs_rows)
        if permutation is None or math.prod(rhs_shape) < self.min_elements:
            return
        if is_byte_quad_dot(op):  # its rhs's trailing quads are its layout
            return
        free = permutation[len(batch) + len(contract) :]
        free_extent = math.prod(rhs_shape[d] for d in free)
        if free_extent < 2:
            return
        if self._swapped_for_readers(op, rewriter):
            return
        producer = op.rhs.owner
        if (
            isinstance(producer, DotGeneralOp)
            and op.rhs.has_one_use()
            and operand_swap(producer) == permutation
        ):
            swapped = swapped_dot(producer, permutation)
            rewriter.replace(producer, swapped)
            before, transposed = [], swapped.result
        elif self._routine_reads_in_place(op, lhs_rows):
            if len(free) > 1:  # [f1, ..., fr, k] as [f1 * ... * fr, k]
                merge_free_dims(op, 0, len(rhs_shape) - 1, rewriter)
            return
        else:
            transpose = TransposeOp(op.rhs, permutation)
            transpose.location = op.location
            before, transposed = [transpose], transpose.result
        numbers = DotDimensionNumbersAttr.get(
            dims.lhs_batching_dimensions.data,
            tuple(range(len(batch))),
            dims.lhs_contracting_dimensions.data,
            tuple(range(len(batch), len(batch) + len(contract))),
        )
        dot = DotGeneralOp(
            op.lhs,
            transposed,
            numbers,
            op.precision_config,
            op.result.type,
            op.algorithm,
        )
        dot.location = op.location
        rewriter.replace(op, [*before, dot], [dot.result])

    def _routine_reads_in_place(self, op: DotGeneralOp, rows: int) -> bool:
        """Whether the target's GEMM routine computes `op`, an `A·Bᵀ` of
        `rows` lhs rows, with B read in place (module docstring): f32
        operands and result, one contracting dim, the rhs's last (its free
        dims before it) and the lhs's first or last after the batch dims,
        a shape the routine covers, and no epilogue: a reader of the result
        that is not elementwise (the reshape back of merged free dims, or
        another) keeps `fuse` from giving the dot one (`output-fusion`),
        whose ops the routine's caller might not run (a conversion to bf16
        stores no f32 sums: the inline kernel then gathers B). Batched,
        only where the routine's batched entry takes the dot
        (`routine-batched`: the batch dims leading in both operands, one
        free dim, matrices at least that square, sums at most that long)."""
        if not self.routine_panel or op.algorithm is not None:
            return False
        if any(
            not isinstance(element_type(value.type), Float32Type)
            for value in (op.lhs, op.rhs, op.result)
        ):
            return False
        dims = op.dot_dimension_numbers
        lhs_contract = dims.lhs_contracting_dimensions.data
        rhs_rank = len(shape(op.rhs.type))
        lhs_rank = len(shape(op.lhs.type))
        batch = len(dims.rhs_batching_dimensions.data)
        leading = tuple(range(batch))
        if (
            dims.rhs_batching_dimensions.data != leading
            or dims.lhs_batching_dimensions.data != leading
            or dims.rhs_contracting_dimensions.data != (rhs_rank - 1,)
            or lhs_contract not in ((batch,), (lhs_rank - 1,))
        ):
            return False
        *free, k = shape(op.rhs.type)[batch:]
        if len(free) == 1 and all(
            is_elementwise(use.operation) for use in op.result.uses
        ):
            return False
        columns = math.prod(free)
        if not panels_cover(rows, columns, self.routine_panel):
            return False
        if not batch:
            return 1 <= k <= self.routine_max_k
        least, max_k = self.routine_batched
        return (
            least > 0 and len(free) == 1 and min(rows, columns) >= least
            and 1 <= k <= max_k
        )  # fmt: skip

    @staticmethod
    def _swapped_for_readers(op: DotGeneralOp, rewriter: PatternRewriter) -> bool:
        """`op` replaced by its swapped form, and the dots that read its
        result as their rhs renamed to read that, where each needs no
        transpose then; whether it was."""
        swap = operand_swap(op)
        readers = [use.operation for use in op.result.uses]
        if swap is None or not readers:
            return False
        renamed: list[tuple[DotGeneralOp, DotDimensionNumbersAttr]] = []
        for reader in readers:
            if not isinstance(reader, DotGeneralOp):
                return False
            numbers = renamed_rhs_dims(reader, op.result, swap)
            if numbers is None:
                return False
            renamed.append((reader, numbers))
        dot = swapped_dot(op, swap)
        rewriter.replace(op, dot)
        for reader, numbers in renamed:
            new = DotGeneralOp(
                reader.lhs,
                dot.result,
                numbers,
                reader.precision_config,
                reader.result.type,
                reader.algorithm,
            )
            new.location = reader.location
            rewriter.replace(reader, new)
        return True


def operand_swap(dot: DotGeneralOp) -> tuple[int, ...] | None:
    """Where `dot_general(b, a)` puts the result dims of `dot` =
    `dot_general(a, b)` (its dim i is the old dim `swap[i]`: the batch
    dims, then b's free dims, then a's), when `a`, its rhs then, needs no
    transpose; else None. Not for complex operands: the imaginary part's
    two products would be added the other way round, and with multiply-adds
    contracted each rounds differently."""
    if dot.algorithm is not None or is_byte_quad_dot(dot):
        return None
    if any(
        isinstance(element_type(value.type), ComplexType)
        for value in (dot.lhs, dot.rhs)
    ):
        return None
    dims = dot.dot_dimension_numbers
    lhs_batch = dims.lhs_batching_dimensions.data
    lhs_contract = dims.lhs_contracting_dimensions.data
    rhs_shape = shape(dot.rhs.type)
    lhs_rank = len(shape(dot.lhs.type))
    batch = len(lhs_batch)
    lhs_free = lhs_rank - batch - len(lhs_contract)
    rhs_free = len(rhs_shape) - batch - len(dims.rhs_contracting_dimensions.data)
    rhs_bound = {
        *dims.rhs_batching_dimensions.data,
        *dims.rhs_contracting_dimensions.data,
    }
    rows = math.prod(n for d, n in enumerate(rhs_shape) if d not in rhs_bound)
    if rhs_permutation(lhs_rank, lhs_batch, lhs_contract, rows) is not None:
        return None
    return (
        *range(batch),
        *range(batch + lhs_free, batch + lhs_free + rhs_free),
        *range(batch, batch + lhs_free),
    )


def swapped_dot(dot: DotGeneralOp, swap: tuple[int, ...]) -> DotGeneralOp:
    """`dot_general(b, a)` for `dot` = `dot_general(a, b)`, its result dims
    `swap` (`operand_swap`) of the old ones."""
    dims = dot.dot_dimension_numbers
    out_type = dot.result.type
    assert isinstance(out_type, TensorType)
    out_shape = shape(out_type)
    precision = dot.precision_config
    swapped = DotGeneralOp(
        dot.rhs,
        dot.lhs,
        DotDimensionNumbersAttr.get(
            dims.rhs_batching_dimensions.data,
            dims.lhs_batching_dimensions.data,
            dims.rhs_contracting_dimensions.data,
            dims.lhs_contracting_dimensions.data,
        ),
        None if precision is None else ArrayAttr(tuple(reversed(precision.data))),
        TensorType(out_type.element_type, [out_shape[d] for d in swap]),
    )
    swapped.location = dot.location
    return swapped


def renamed_rhs_dims(
    reader: DotGeneralOp, rhs: SSAValue, swap: tuple[int, ...]
) -> DotDimensionNumbersAttr | None:
    """`reader`'s dimension numbers for its rhs, `rhs`, permuted by `swap`,
    when it reads `rhs` only as its rhs, its free dims stay in their order
    (the order of its result's dims) and it needs no transpose then; else
    None."""
    if reader.rhs is not rhs or reader.lhs is rhs or is_byte_quad_dot(reader):
        return None
    dims = reader.dot_dimension_numbers
    where = {old: new for new, old in enumerate(swap)}
    batch = tuple(where[d] for d in dims.rhs_batching_dimensions.data)
    contract = tuple(where[d] for d in dims.rhs_contracting_dimensions.data)
    bound = {*dims.rhs_batching_dimensions.data, *dims.rhs_contracting_dimensions.data}
    free = [where[d] for d in range(len(swap)) if d not in bound]
    if free != sorted(free):
        return None
    lhs_shape = shape(reader.lhs.type)
    lhs_bound = {
        *dims.lhs_batching_dimensions.data,
        *dims.lhs_contracting_dimensions.data,
    }
    lhs_rows = math.prod(n for d, n in enumerate(lhs_shape) if d not in lhs_bound)
    if rhs_permutation(len(swap), batch, contract, lhs_rows) is not None:
        return None
    return DotDimensionNumbersAttr.get(
        dims.lhs_batching_dimensions.data,
        batch,
        dims.lhs_contracting_dimensions.data,
        contract,
    )


def trailing_free_run(
    rank: int, batch: tuple[int, ...], contract: tuple[int, ...]
) -> int:
    """How many of the rhs's last dims are free dims, all in a row."""
    bound = set(batch) | set(contract)
    count = 0
    while count < rank and rank - 1 - count not in bound:
        count += 1
    return count


class MergeTrailingFreeDims(RewritePattern):
    """dot_general(a, b) with b's last dims free → reshape(dot_general(a,
    reshape(b)) with those dims merged into one)."""

    def __init__(self, min_elements: int):
        super().__init__()
        self.min_elements = min_elements

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        dims = op.dot_dimension_numbers
        rhs_shape = shape(op.rhs.type)
        rank = len(rhs_shape)
        run = trailing_free_run(
            rank,
            dims.rhs_batching_dimensions.data,
            dims.rhs_contracting_dimensions.data,
        )
        if run < 2 or math.prod(rhs_shape) < self.min_elements:
            return
        merge_free_dims(op, rank - run, run, rewriter)


def merge_free_dims(
    op: DotGeneralOp, first: int, run: int, rewriter: PatternRewriter
) -> None:
    """`op` replaced by the dot of its rhs reshaped with its `run` dims
    from `first` merged into one, and its result reshaped back: they are
    its last free dims, lying together, so the result's last `run` dims in
    the same order (the rhs's dims after them renumbered)."""
    rhs_shape = shape(op.rhs.type)
    merged = math.prod(rhs_shape[first : first + run])
    rhs_type = op.rhs.type
    out_type = op.result.type
    assert isinstance(rhs_type, TensorType) and isinstance(out_type, TensorType)
    out_shape = shape(out_type)
    reshape = ReshapeOp(
        op.rhs,
        TensorType(
            rhs_type.element_type,
            [*rhs_shape[:first], merged, *rhs_shape[first + run :]],
        ),
    )
    reshape.location = op.location
    dims = op.dot_dimension_numbers

    def renumbered(rhs_dims: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(d - run + 1 if d > first else d for d in rhs_dims)

    numbers = DotDimensionNumbersAttr.get(
        dims.lhs_batching_dimensions.data,
        renumbered(dims.rhs_batching_dimensions.data),
        dims.lhs_contracting_dimensions.data,
        renumbered(dims.rhs_contracting_dimensions.data),
    )
    dot = DotGeneralOp(
        op.lhs,
        reshape.result,
        numbers,
        op.precision_config,
        TensorType(out_type.element_type, [*out_shape[: len(out_shape) - run], merged]),
        op.algorithm,
    )
    dot.location = op.location
    back = ReshapeOp(dot.result, out_type)
    back.location = op.location
    rewriter.replace(op, [reshape, dot, back], [back.result])


@dataclass(frozen=True)
class DotLayoutPass(ModulePass):
    name = "dot-layout"

    min_elements: int = 4096
    """The smallest rhs worth a transpose kernel of its own."""
    routine_panel: int = 0
    """The panel width of the target's GEMM routine, which reads an f32 rhs
    in place at any stride; 0: the target calls none."""
    routine_max_k: int = 0
    """The longest sum that routine computes."""
    routine_batched_min: int = 0
    """The least rows and columns of the matrices of a batched dot that
    routine computes with its rhs read in place; 0: none."""
    routine_batched_max_k: int = 0
    """The longest sum of such a batched dot."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            TransposeContractedRhs(
                self.min_elements,
                self.routine_panel,
                self.routine_max_k,
                (self.routine_batched_min, self.routine_batched_max_k),
            ),
            apply_recursively=False,
            walk_reverse=True,
        ).rewrite_module(op)
        PatternRewriteWalker(
            MergeContractingDims(), apply_recursively=False
        ).rewrite_module(op)
        PatternRewriteWalker(
            MergeTrailingFreeDims(self.min_elements), apply_recursively=False
        ).rewrite_module(op)
