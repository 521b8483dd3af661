"""The prebuilt GEMM routine's entry for row dots, in LLVM IR.

A row dot (`einsum('bk,bk->b')`, a batched dot whose matrices are one row
by one column) compiles inline to `row_lanes`' kernel: rows as vector
lanes, each step's `ROW_LANES` x `ROW_LANES` products transposed in
registers, 130 lines of shuffles that cost LLVM 15-18 ms a compile. This
entry is that kernel with its sizes and strides as arguments, compiled
once per host with the dot routine (gemm_runtime.py) and called
(row_dot_calls.py):

`xlir.gemm_f32_{mr}x{lanes}.row_dot(X, Y, C, first, count, K, x_row,
y_row)` computes `C[i] = sum_k X[i, k] * Y[i, k]` for the rows `first :
first + count` (X's rows `x_row` elements apart, Y's `y_row`, both unit
stride along k; C contiguous). Each element is the inline kernel's sum:
each product rounded (`fmul`, no FMA), added in k's order, split as
`block-sums{block=256}` splits it (over `BLOCK` terms: chunks of `BLOCK`
summed from -0.0 and added to the running sum from +0.0, the terms left
over added to it directly), so the same bits. Rows go `ROW_LANES` at a
time (lane r row r, its terms a transposed column at a time), the rows
left over one by one; columns past the last whole vector of a chunk or of
the terms left over are added a column at a time, every lane in order.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir
from xlir.targets.cpu.gemm_routine import BLOCK, routine_name
from xlir.targets.cpu.routine_ir import F32, I64, declare_entry, loop, value

ROW_LANES = 8
"""Rows a step sums at once, as `row_lanes` jams them (`CHEAP_LANES`)."""

SIZES = 5
"""first, count, K, x_row, y_row."""


def row_dot_routine_name(mr: int, lanes: int) -> str:
    """The row-dot entry beside the dot routine of `mr` x `2 * lanes`
    tiles (its name extends the dot routine's, so `called_variants` finds
    the object that holds both)."""
    return routine_name(mr, lanes) + ".row_dot"


def transpose(b: ir.IRBuilder, rows: list[ir.Value]) -> list[ir.Value]:
    """Column c of a square of vectors (`rows[r]` lane c), as vector c
    (lane r): log2(width) rounds that pair each vector with the one half
    the square below it, each pair giving two vectors of alternating
    blocks of half the size before (blocks of width / 2, then width / 4,
    down to 1); the last round leaves the columns in order."""
    width = len(rows)
    half = width // 2
    while half >= 1:
        low: list[int] = []
        high: list[int] = []
        for at in range(0, width, 2 * half):
            low += [*range(at, at + half), *range(width + at, width + at + half)]
            high += [
                *range(at + half, at + 2 * half),
                *range(width + at + half, width + at + 2 * half),
            ]
        paired = []
        for j in range(width // 2):
            first, second = rows[j], rows[j + width // 2]
            for mask in (low, high):
                indices = ir.Constant(ir.VectorType(ir.IntType(32), width), mask)
                paired.append(value(b.shuffle_vector(first, second, indices)))
        rows = paired
        half //= 2
    return rows


def define_row_dot(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define the entry (module docstring) in `module`, or complete its
    declaration there."""
    name = row_dot_routine_name(mr, lanes)
    function, b = declare_entry(module, name, 3, SIZES, linkage)
    x, y, c, first, count, k, x_row, y_row = function.args
    width = ROW_LANES
    vector = ir.VectorType(F32, width)
    chunked = b.icmp_signed(">", k, I64(BLOCK))
    split = value(b.select(chunked, b.mul(b.udiv(k, I64(BLOCK)), I64(BLOCK)), I64(0)))
    end = value(b.add(first, count))
    grouped = value(b.add(first, b.mul(b.udiv(count, I64(width)), I64(width))))

    def element(
        base: ir.Value, row: ir.Value, stride: ir.Value, kk: ir.Value
    ) -> ir.Value:
        """The address of `base[row, kk]`, its rows `stride` apart."""
        at = b.add(b.mul(row, stride), kk)
        return value(b.gep(base, [at], inbounds=True, source_etype=F32))

    total, partial = b.alloca(vector), b.alloca(vector)  # in the entry block
    row_total, row_partial = b.alloca(F32), b.alloca(F32)

    def group(row: ir.Value) -> None:
        b.store(ir.Constant(vector, [0.0] * width), total)

        def products(kk: ir.Value) -> list[ir.Value]:
            out = []
            for r in range(width):
                at = value(b.add(row, I64(r)))
                xs = b.load(element(x, at, x_row, kk), typ=vector, align=4)
                ys = b.load(element(y, at, y_row, kk), typ=vector, align=4)
                out.append(value(b.fmul(xs, ys)))
            return out

        def columns(slot: ir.Value) -> Callable[[ir.Value], None]:
            def step(kk: ir.Value) -> None:
                acc = b.load(slot, typ=vector)
                for column in transpose(b, products(kk)):
                    acc = b.fadd(acc, column)
                b.store(acc, slot)

            return step

        def single(slot: ir.Value) -> Callable[[ir.Value], None]:
            def step(kk: ir.Value) -> None:
                terms: ir.Value = ir.Constant(vector, ir.Undefined)
                for r in range(width):
                    at = value(b.add(row, I64(r)))
                    xs = b.load(element(x, at, x_row, kk), typ=F32)
                    ys = b.load(element(y, at, y_row, kk), typ=F32)
                    terms = b.insert_element(terms, b.fmul(xs, ys), I64(r))
                b.store(b.fadd(b.load(slot, typ=vector), terms), slot)

            return step

        def run(start: ir.Value, stop: ir.Value, slot: ir.Value) -> None:
            span = b.sub(stop, start)
            whole = value(b.add(start, b.mul(b.udiv(span, I64(width)), I64(width))))
            loop(b, start, whole, I64(width), columns(slot))
            loop(b, whole, stop, I64(1), single(slot))

        def chunk(c0: ir.Value) -> None:
            b.store(ir.Constant(vector, [-0.0] * width), partial)
            run(c0, value(b.add(c0, I64(BLOCK))), partial)
            b.store(
                b.fadd(b.load(total, typ=vector), b.load(partial, typ=vector)), total
            )

        loop(b, I64(0), split, I64(BLOCK), chunk)
        run(split, k, total)
        out = b.gep(c, [row], inbounds=True, source_etype=F32)
        b.store(b.load(total, typ=vector), out, align=4)

    def alone(row: ir.Value) -> None:
        b.store(ir.Constant(F32, 0.0), row_total)

        def term(slot: ir.Value) -> Callable[[ir.Value], None]:
            def step(kk: ir.Value) -> None:
                xs = b.load(element(x, row, x_row, kk), typ=F32)
                ys = b.load(element(y, row, y_row, kk), typ=F32)
                b.store(b.fadd(b.load(slot, typ=F32), b.fmul(xs, ys)), slot)

            return step

        def chunk(c0: ir.Value) -> None:
            b.store(ir.Constant(F32, -0.0), row_partial)
            loop(b, c0, value(b.add(c0, I64(BLOCK))), I64(1), term(row_partial))
            summed = b.fadd(b.load(row_total, typ=F32), b.load(row_partial, typ=F32))
            b.store(summed, row_total)

        loop(b, I64(0), split, I64(BLOCK), chunk)
        loop(b, split, k, I64(1), term(row_total))
        out = b.gep(c, [row], inbounds=True, source_etype=F32)
        b.store(b.load(row_total, typ=F32), out)

    loop(b, first, grouped, I64(width), group)
    loop(b, grouped, end, I64(1), alone)
    b.ret_void()
