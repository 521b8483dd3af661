"""The prebuilt transpose entry, in LLVM IR, beside the GEMM routine's
other entries (`transpose-calls`, transpose_calls.py, calls it).

A transpose kernel compiled inline is a scalar nest that LLVM turns into
gathers, costing each compile its lowering and LLVM's time on it, and it
ran its columns untiled; this entry is compiled once per host, in the
object of the dot routine (`gemm_runtime.py`, found by the same name
prefix), and walks the array in square blocks of `lanes` rows by `lanes`
columns (a vector register of f32 each way), whose lines stay in L1 while
a block is moved. A whole block whose rows are one after another in `S`
(`s2` one, no wrap of the row index within the block) is moved as vectors:
a vector per column read from `S`, transposed in registers (`transposed`),
a vector per row stored to `D`; the other blocks element by element.

`xlir.gemm_f32_{mr}x{lanes}.transpose(S, D, first, count, o1, o2, o3, s0,
s1, s2, s3)` writes the rows `first : first + count` of the array `D` of
32-bit elements, shape `(*, o1, o2, o3)` (a row: its last dimension), the
element at `(i0, i1, i2, j)` being `S`'s element at `i0 s0 + i1 s1 + i2 s2
+ j s3` (strides in elements). Elements are loaded and stored as they are
(f32 loads and stores move bits), so every bit is kept.
"""

from __future__ import annotations

from llvmlite import ir
from xlir.targets.cpu.gemm_routine import routine_name
from xlir.targets.cpu.routine_ir import (
    F32,
    I64,
    declare_entry,
    load_at,
    loop,
    stack_slot,
    store_at,
    value,
)

ARGUMENTS = 11
"""S, D; first, count, o1, o2, o3, s0, s1, s2, s3."""


def transpose_routine_name(mr: int, lanes: int) -> str:
    """The transpose entry in the object of the dot routine of `mr` x
    `2 * lanes` tiles (its name extends the dot routine's, so
    `called_variants` finds that object)."""
    return routine_name(mr, lanes) + ".transpose"


def transposed(b: ir.IRBuilder, rows: list[ir.Value]) -> list[ir.Value]:
    """The columns of the square matrix whose rows are the vectors `rows`
    (a power of two of them): for each bit `h` of an index, the blocks of
    `h` x `h` off the diagonal swapped (an element at `(r, c)` whose
    indices differ in that bit moves to the row and column with it
    swapped), which after every bit puts `(r, c)` at `(c, r)`; a shuffle
    of two vectors per row and bit."""
    n = len(rows)
    h = n // 2
    while h:
        low = [c if c & h == 0 else n + c - h for c in range(n)]
        high = [c + h if c & h == 0 else n + c for c in range(n)]
        swapped = list(rows)
        for i in (i for i in range(n) if i & h == 0):
            a, c = rows[i], rows[i + h]
            swapped[i] = value(b.shuffle_vector(a, c, _mask(low)))
            swapped[i + h] = value(b.shuffle_vector(a, c, _mask(high)))
        rows = swapped
        h //= 2
    return rows


def _mask(indices: list[int]) -> ir.Constant:
    return ir.Constant(ir.VectorType(ir.IntType(32), len(indices)), indices)


def define_transpose(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define the entry (module docstring) in `module`, or complete its
    declaration there; its blocks are `lanes` x `lanes`."""
    function, b = declare_entry(
        module, transpose_routine_name(mr, lanes), 2, ARGUMENTS - 2, linkage
    )
    s, d = function.args[:2]
    first, count, o1, o2, o3, s0, s1, s2, s3 = function.args[2:]
    offsets = stack_slot(b, I64, lanes)
    block = I64(lanes)
    vector = ir.VectorType(F32, lanes)

    def smaller(x: ir.Value, y: ir.Value) -> ir.Value:
        return value(b.select(b.icmp_unsigned("<", x, y), x, y))

    def row_block(start: ir.Value) -> None:
        rows = smaller(value(b.sub(count, start)), block)
        top = value(b.add(first, start))

        def offset(k: ir.Value) -> None:
            r = b.add(top, k)
            r2, rest = b.urem(r, o2), b.udiv(r, o2)
            r1, r0 = b.urem(rest, o1), b.udiv(rest, o1)
            at = b.add(b.add(b.mul(r0, s0), b.mul(r1, s1)), b.mul(r2, s2))
            store_at(b, at, offsets, k, I64)

        loop(b, I64(0), rows, I64(1), offset)
        # whole blocks whose rows are one after another in S: vectors
        contiguous = b.and_(
            b.and_(
                b.icmp_unsigned("==", rows, block), b.icmp_unsigned("==", s2, I64(1))
            ),
            b.icmp_unsigned("<=", b.add(b.urem(top, o2), block), o2),
        )
        whole = value(b.select(contiguous, b.mul(b.udiv(o3, block), block), I64(0)))
        base = load_at(b, offsets, I64(0), I64)

        def vector_block(j0: ir.Value) -> None:
            columns = []
            for j in range(lanes):
                read = b.add(base, b.mul(b.add(j0, I64(j)), s3))
                at = b.gep(s, [read], inbounds=True, source_etype=F32)
                columns.append(value(b.load(at, typ=vector, align=4)))
            for k, row in enumerate(transposed(b, columns)):
                written = b.add(b.mul(b.add(top, I64(k)), o3), j0)
                at = b.gep(d, [written], inbounds=True, source_etype=F32)
                b.store(row, at, align=4)

        loop(b, I64(0), whole, block, vector_block)

        def column_block(j0: ir.Value) -> None:
            columns = smaller(value(b.sub(o3, j0)), block)

            def row(k: ir.Value) -> None:
                written = b.add(b.mul(b.add(top, k), o3), j0)
                target = b.gep(d, [written], inbounds=True, source_etype=F32)
                read = b.add(load_at(b, offsets, k, I64), b.mul(j0, s3))
                source = b.gep(s, [read], inbounds=True, source_etype=F32)

                def element(j: ir.Value) -> None:
                    x = load_at(b, source, b.mul(j, s3), F32)
                    store_at(b, x, target, j, F32)

                loop(b, I64(0), columns, I64(1), element)

            loop(b, I64(0), rows, I64(1), row)

        loop(b, whole, o3, block, column_block)

    loop(b, I64(0), count, block, row_block)
    b.ret_void()
