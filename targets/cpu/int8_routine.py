"""The prebuilt int8 GEMM routine the CPU's byte-quad dot kernels call, in
LLVM IR.

An int8 dot on a machine with VNNI (`int-dot-quads`, `dot-quads`) compiles
inline to `register-tile`'s tile of `vpdpbusd`s over a packed panel: 300
lines of IR that cost LLVM 25-30 ms a compile. This routine is that kernel
with its sizes and strides as arguments, compiled once per host (beside
the f32 routine: gemm_runtime.py) and called (int8_calls.py):

`xlir.gemm_i8_{mr}x{lanes}(A, B, C, P, first, count, N, Kq, a_row, b_k,
c_row, c_at, slot, j0, rows_unsigned)` computes the rows `first : first +
count` of the panel of columns `j0 : j0 + 2 * lanes` of `C[i, j] = sum_kq
dot_quads(A[i, kq], B[kq, j])` on i32 words that each hold four bytes of
k (A's rows `a_row` words apart, B's rows `b_k`; A's words along kq and
B's columns unit stride), the bytes of B unsigned and A's signed
(`vpdpbusd`'s operands), or the other way round where `rows_unsigned` is
1; C's element (i, j0 + c) is word `c_at + (i - first) * c_row + c` of C
(C itself, or a block of sums its caller's epilogue reads back while they
are in L1: int8_calls.py). The call whose `first` is 0 copies the panel
of B into the slice `slot` of the scratch `P` (`[slot, Kq, 0 : nr]`, zero
words past column N: they add nothing), the calls for the panel's other
rows, made after it, read it there. The rows run in `mr` x `nr` register
tiles as `register-tile` picks them (`tile_rows`), each row's word
broadcast against the panel's two vectors. i32 sums wrap, in any order:
the inline kernel's bits.
"""

from __future__ import annotations

import re

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function
from xlir.targets.cpu.gemm_routine import store_tile, tile_rows
from xlir.targets.cpu.routine_ir import I32, I64, PTR, declare_entry, loop, value

PREFIX = "xlir.gemm_i8_"

SIZES = 11
"""first, count, N, Kq; a_row, b_k, c_row, c_at; slot, j0, rows_unsigned."""


def int8_routine_name(mr: int, lanes: int) -> str:
    """The routine of `mr` x `2 * lanes` tiles of `lanes`-wide i32 vectors."""
    return f"{PREFIX}{mr}x{lanes}"


_NAME = re.compile(rb"xlir\.gemm_i8_(\d+)x(\d+)")


def called_int8_variants(code: bytes) -> set[tuple[int, int]]:
    """(mr, lanes) of each int8 routine an object or module text names."""
    return {(int(m), int(lanes)) for m, lanes in _NAME.findall(code)}


def define_int8_gemm(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define the routine (module docstring) in `module`, or complete its
    declaration there."""
    name = int8_routine_name(mr, lanes)
    function, b = declare_entry(module, name, 4, SIZES, linkage)
    tiles = {
        (rows, swapped): _define_tile(
            module,
            f"{name}.tile{rows}{'.swapped' if swapped else ''}",
            lanes,
            rows,
            swapped,
        )
        for rows in range(1, mr + 1)
        for swapped in (False, True)
    }
    (a, b_, c, p, first, count, n, kq, a_row, b_k, c_row, c_at, slot, j0) = (
        function.args[:14]
    )
    nr = 2 * lanes
    left = b.sub(n, j0)
    width = value(b.select(b.icmp_signed("<", left, I64(nr)), left, I64(nr)))
    panel = b.gep(p, [b.mul(slot, b.mul(kq, I64(nr)))], inbounds=True, source_etype=I32)
    with b.if_then(b.icmp_signed("==", first, I64(0))):
        columns = b.gep(b_, [j0], inbounds=True, source_etype=I32)
        _pack(b, columns, value(panel), kq, b_k, width, nr)
    a = b.gep(a, [b.mul(first, a_row)], inbounds=True, source_etype=I32)
    output = b.gep(c, [c_at], inbounds=True, source_etype=I32)
    swapped = b.icmp_unsigned("!=", function.args[14], I64(0))

    def tile(rows: int, row: ir.Value) -> None:
        a_at = b.gep(a, [b.mul(row, a_row)], inbounds=True, source_etype=I32)
        c_at = b.gep(output, [b.mul(row, c_row)], inbounds=True, source_etype=I32)
        arguments = [a_at, panel, c_at, kq, a_row, c_row, width]
        with b.if_else(swapped) as (rows_first, columns_first):
            with rows_first:
                b.call(tiles[rows, True], arguments)
            with columns_first:
                b.call(tiles[rows, False], arguments)

    tile_rows(b, count, mr)(tile)
    b.ret_void()


def _pack(
    b: ir.IRBuilder,
    columns: ir.Value,
    panel: ir.Value,
    kq: ir.Value,
    b_k: ir.Value,
    width: ir.Value,
    nr: int,
) -> None:
    """`panel[q, c] = B[q, j0 + c]` for c < width, 0 past it: rows of whole
    vectors where the panel is whole, else word by word."""
    wide = ir.VectorType(I32, nr)

    def rows(q: ir.Value) -> tuple[ir.Value, ir.Value]:
        source = b.gep(columns, [b.mul(q, b_k)], inbounds=True, source_etype=I32)
        target = b.gep(panel, [b.mul(q, I64(nr))], inbounds=True, source_etype=I32)
        return source, target

    def vectors(q: ir.Value) -> None:
        source, target = rows(q)
        b.store(b.load(source, typ=wide, align=4), target, align=4)

    def words(q: ir.Value) -> None:
        source, target = rows(q)

        def word(column: ir.Value) -> None:
            inside = b.icmp_signed("<", column, width)
            at = b.gep(source, [b.select(inside, column, I64(0))], source_etype=I32)
            read = b.select(inside, b.load(at, typ=I32), I32(0))
            b.store(read, b.gep(target, [column], inbounds=True, source_etype=I32))

        loop(b, I64(0), I64(nr), I64(1), word)

    with b.if_else(b.icmp_signed("==", width, I64(nr))) as (whole, part):
        with whole:
            loop(b, I64(0), kq, I64(1), vectors)
        with part:
            loop(b, I64(0), kq, I64(1), words)


def _define_tile(
    module: ir.Module, name: str, lanes: int, rows: int, swapped: bool
) -> ir.Function:
    """`rows` x `2 * lanes` of C from A's rows and the packed panel:
    `tile(A_row0, panel, C_row0, Kq, a_row, c_row, width)`, word `q` of
    row r at `A_row0 + r * a_row + q`; `swapped`: A's bytes are the
    unsigned operand, else the panel's."""
    vector = ir.VectorType(I32, lanes)
    types = [PTR, PTR, PTR, I64, I64, I64, I64]
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), types), name)
    function.linkage = "internal"
    a, panel, c, kq, a_row, c_row, width = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    dot = module_function(
        module,
        f"llvm.x86.avx512.vpdpbusd.{32 * lanes}",
        ir.FunctionType(vector, [vector] * 3),
    )
    sums = [b.alloca(vector) for _ in range(2 * rows)]
    for s in sums:
        b.store(ir.Constant(vector, [0] * lanes), s)
    offsets = [b.mul(I64(r), a_row) for r in range(rows)]

    def step(q: ir.Value) -> None:
        row = b.gep(panel, [b.mul(q, I64(2 * lanes))], inbounds=True, source_etype=I32)
        halves = [
            b.load(
                b.gep(row, [I64(h * lanes)], inbounds=True, source_etype=I32),
                typ=vector,
                align=4,
            )
            for h in range(2)
        ]
        for r in range(rows):
            at = b.gep(a, [b.add(offsets[r], q)], inbounds=True, source_etype=I32)
            word = b.load(at, typ=I32)
            splat = b.shuffle_vector(
                b.insert_element(ir.Constant(vector, ir.Undefined), word, I64(0)),
                ir.Constant(vector, ir.Undefined),
                ir.Constant(ir.VectorType(I32, lanes), [0] * lanes),
            )
            for h in range(2):
                slot = sums[2 * r + h]
                pair = [splat, halves[h]] if swapped else [halves[h], splat]
                b.store(b.call(dot, [b.load(slot, typ=vector), *pair]), slot)

    loop(b, I64(0), kq, I64(1), step)
    store_tile(b, c, c_row, width, sums, rows, lanes, I32)
    b.ret_void()
    return function
