"""The prebuilt GEMM routine's entry for batched dots of short sums, in
LLVM IR.

A batched dot of short sums (attention's `q . k^T`: heads of `[512, 64] x
[64, 512]`) does little work per element of C (`K` FMAs) over matrices
too small for the dot routine's order: a call per matrix and panel, each
sweeping all of A for one panel of C written down the rows, ran slower
than the inline kernel, which keeps a row tile of A in L1 and writes C
along its rows. This entry takes the inline kernel's order with the dot
routine's packing, and one call takes several matrices:

`xlir.gemm_f32_{mr}x{lanes}.batched(A, B, C, P, M, N, K, a_row, a_k, b_k,
b_col, c_row, a_batch, b_batch, c_batch, first, count, slot)` computes the
whole matrices `first : first + count` of `C[i, j] = sum_k A[i, k] * B[k,
j]` (strides as the dot routine's; matrix `m` of A `m * a_batch` elements
on, B and C likewise), one after the other: each packs every panel of its
B (`gemm_routine.pack_panel`, or `pack_transposed` for a B whose columns
lie contiguous, an `A·Bᵀ` that `dot-layout` left in place) into the
slice `slot` of the scratch `P` (`[slot, panel, k, 0 : nr]`: the caller
gives each call that may run at once a slice of its own), then runs `gemm_routine.tile_rows`' row tiles,
each across all the panels. The tiles are the dot routine's without the
chunks' loop (`define_tile`), so it takes sums of at most `BLOCK` terms,
which `block-sums` leaves whole: each element one FMA chain, k ascending,
the inline kernel's bits. `.batched.bf16` takes bf16 A and B, widened as
the bf16 dot routine widens them, and `.batched.bf16.to_bf16` stores C
rounded to bf16 as it does (gemm_routine.py).
"""

from __future__ import annotations

from llvmlite import ir
from xlir.targets.cpu.gemm_routine import (
    ARGUMENTS,
    OPERANDS,
    dot_tile,
    operand_suffix,
    pack_panel,
    rounding_argument,
    routine_name,
    tile_rows,
)
from xlir.targets.cpu.routine_ir import F32, I64, declare_entry, loop, value
from xlir.targets.cpu.transpose_routine import transposed


def batched_routine_name(
    mr: int, lanes: int, operands: str = "f32", result: str = "f32"
) -> str:
    """The batched entry beside the dot routine of `mr` x `2 * lanes`
    tiles, for A and B of element type `operands` and C of `result` (its
    name extends the dot routine's, so `called_variants` finds the object
    that holds both)."""
    return routine_name(mr, lanes) + ".batched" + operand_suffix(operands, result)


def define_batched(
    module: ir.Module,
    mr: int,
    lanes: int,
    linkage: str = "internal",
    operands: str = "f32",
    result: str = "f32",
) -> None:
    """Define the entry of operands `operands` and C of `result` (module
    docstring) in `module`, or complete its declaration there."""
    name = batched_routine_name(mr, lanes, operands, result)
    element = OPERANDS[operands]
    stored = OPERANDS[result]
    function, b = declare_entry(module, name, 4, ARGUMENTS - 4, linkage)
    tiles = {
        rows: dot_tile(module, mr, lanes, rows, operands, False, False)
        for rows in range(1, mr + 1)
    }
    rounds = rounding_argument(operands, result)
    (a, b_, c, p, m, n, k, a_row, a_k, b_k, b_col, c_row) = function.args[:12]
    a_batch, b_batch, c_batch, first, count, slot = function.args[12:]
    nr = 2 * lanes
    padded = b.mul(b.udiv(b.add(n, I64(nr - 1)), I64(nr)), I64(nr))
    panels = b.gep(p, [b.mul(slot, b.mul(padded, k))], inbounds=True, source_etype=F32)
    tiles_of = tile_rows(b, m, mr)

    def width(j0: ir.Value) -> ir.Value:
        rest = b.sub(n, j0)
        return value(b.select(b.icmp_signed("<", rest, I64(nr)), rest, I64(nr)))

    def panel(j0: ir.Value) -> ir.Value:
        return value(b.gep(panels, [b.mul(j0, k)], inbounds=True, source_etype=F32))

    def matrix(index: ir.Value) -> None:
        a_at = b.gep(a, [b.mul(index, a_batch)], inbounds=True, source_etype=element)
        b_at = b.gep(b_, [b.mul(index, b_batch)], inbounds=True, source_etype=element)
        c_at = b.gep(c, [b.mul(index, c_batch)], inbounds=True, source_etype=stored)

        def pack(j0: ir.Value) -> None:
            columns = b.gep(
                b_at, [b.mul(j0, b_col)], inbounds=True, source_etype=element
            )

            def by_elements() -> None:
                pack_panel(b, columns, panel(j0), k, b_k, b_col, width(j0), nr, element)

            if element != F32:  # pack_transposed moves f32 blocks
                by_elements()
                return
            across = b.and_(
                b.icmp_signed("==", b_k, I64(1)),
                b.icmp_signed("==", width(j0), I64(nr)),
            )
            whole = b.icmp_unsigned("==", b.urem(k, I64(lanes)), I64(0))
            with b.if_else(b.and_(across, whole)) as (by_blocks, otherwise):
                with by_blocks:
                    pack_transposed(b, columns, panel(j0), k, b_col, lanes)
                with otherwise:
                    by_elements()

        loop(b, I64(0), n, I64(nr), pack)

        def tile(rows: int, row: ir.Value) -> None:
            a_rows = b.gep(
                a_at, [b.mul(row, a_row)], inbounds=True, source_etype=element
            )
            c_rows = b.gep(
                c_at, [b.mul(row, c_row)], inbounds=True, source_etype=stored
            )

            def across(j0: ir.Value) -> None:
                output = b.gep(c_rows, [j0], inbounds=True, source_etype=stored)
                arguments = [a_rows, panel(j0), output, k, a_row, a_k, c_row, width(j0)]
                arguments += rounds
                b.call(tiles[rows], arguments)

            loop(b, I64(0), n, I64(nr), across)

        tiles_of(tile)

    loop(b, first, value(b.add(first, count)), I64(1), matrix)
    b.ret_void()


def pack_transposed(
    b: ir.IRBuilder,
    columns: ir.Value,
    panel: ir.Value,
    k: ir.Value,
    b_col: ir.Value,
    lanes: int,
) -> None:
    """`panel[kk, c] = B[kk, j0 + c]` for a whole panel of a B whose
    columns each lie contiguous (`b_k` 1: an `A·Bᵀ` whose B `dot-layout`
    left in place) and `k` a multiple of `lanes`: blocks of `lanes` terms
    by `lanes` columns, a vector per column read, transposed in registers
    (`transpose_routine.transposed`), a vector per panel row stored, where
    `pack_panel` would move such a panel an element at a time. The same
    values, so the same bits."""
    vector = ir.VectorType(F32, lanes)
    nr = 2 * lanes

    def block(kk: ir.Value) -> None:
        for half in range(2):
            reads = []
            for c in range(lanes):
                at = b.add(b.mul(I64(half * lanes + c), b_col), kk)
                source = b.gep(columns, [at], inbounds=True, source_etype=F32)
                reads.append(value(b.load(source, typ=vector, align=4)))
            for r, row in enumerate(transposed(b, reads)):
                at = b.add(b.mul(b.add(kk, I64(r)), I64(nr)), I64(half * lanes))
                target = b.gep(panel, [at], inbounds=True, source_etype=F32)
                b.store(row, target, align=4)

    loop(b, I64(0), k, I64(lanes), block)
