"""The prebuilt GEMM routine's convolution entry, in LLVM IR.

A convolution is a GEMM whose A is gathered from the input: output pixel
`i` (a row of C) and reduction term `kk` (an input channel and a kernel
tap) read the input at `row_offset(i) + k_offset(kk)`, each a sum of
strides, where a dot reads `i * a_row + kk * a_k`. Inlined, each
convolution cost every compile `register-tile`, `pack-panels`,
`block-sums` and then LLVM on hundreds of lines of IR; this entry takes
the strides as arguments and is compiled once per host, in the same object
as the dot routine (`gemm_runtime.py`).

`xlir.gemm_f32_{mr}x{lanes}.conv(A, B, C, P, first, count, m1, m0, a_m2,
a_m1, a_m0, c_row, N, K, k1, k0, a_k2, a_k1, a_k0, b_k2, b_k1, b_k0, b_col,
chunk, slot, j0)` computes the panel of columns `j0 : j0 + 2 * lanes` of
the rows `first : first + count` of

    C[i * c_row + j] = sum_kk A[row(i) + tap(kk)] * B[weight(kk) + j * b_col]

a row `i` split as `(i2, i1, i0)` over sizes `(*, m1, m0)` and
`row(i) = i2 a_m2 + i1 a_m1 + i0 a_m0`, a term `kk` as `(k2, k1, k0)` over
`(*, k1, k0)` with `tap` and `weight` the sums of its strides `a_k*` and
`b_k*` (an NHWC image's batch, output row and column; a term's input
channel, kernel row and column, in the order the inline kernel sums them).
Its scratch slice `slot` of `P` holds `K` rows of `nr = 2 * lanes` packed
weights (`pack-panels`' layout, zero past column N) and then the `K` taps
and `K` weight offsets as i64, which the call fills first.
The register tiles are `register-tile`'s, `mr` rows (fewer where a number
above `mr / 2` divides `count`, as the dot routine picks them) by `nr`,
each element one FMA chain in term order; `chunk` (0: none) is
`block-sums`' split of it: chunks of `chunk` terms summed from -0.0 and
added to the running sum, the terms left added to it directly, so a call
gives the inline kernel's bits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function
from xlir.targets.cpu.gemm_routine import (
    F32,
    I64,
    PTR,
    _dividing_rows,
    _loop,
    _store_tile,
    _value,
    routine_name,
)

SUFFIX = ".conv"

ARGUMENTS = 26
"""A, B, C, P; first, count, m1, m0, a_m2, a_m1, a_m0, c_row; N, K, k1, k0,
a_k2, a_k1, a_k0, b_k2, b_k1, b_k0, b_col; chunk, slot, j0."""

TABLE_FLOATS = 4
"""f32 places per term that the scratch slice keeps for its two i64
offsets."""


def conv_routine_name(mr: int, lanes: int) -> str:
    """The convolution entry beside the dot routine of `mr` x `2 * lanes`
    tiles (its name extends the dot routine's, so `called_variants` finds
    the object that holds both)."""
    return routine_name(mr, lanes) + SUFFIX


def define_conv(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define the entry (module docstring) in `module`, or complete its
    declaration there."""
    vector = ir.VectorType(F32, lanes)
    function = module_function(
        module,
        conv_routine_name(mr, lanes),
        ir.FunctionType(ir.VoidType(), [PTR] * 4 + [I64] * (ARGUMENTS - 4)),
    )
    function.linkage = linkage
    tiles = {
        rows: _define_tile(module, mr, lanes, rows, vector) for rows in range(1, mr + 1)
    }
    a, b_, c, p = function.args[:4]
    first, count, m1, m0, a_m2, a_m1, a_m0, c_row = function.args[4:12]
    n, k, k1, k0, a_k2, a_k1, a_k0, b_k2, b_k1, b_k0, b_col = function.args[12:23]
    chunk, slot, j0 = function.args[23:]
    for pointer in (a, b_, c, p):
        pointer.add_attribute("noalias")
    b = ir.IRBuilder(function.append_basic_block("entry"))
    nr = 2 * lanes
    width = b.select(b.icmp_signed("<", b.sub(n, j0), I64(nr)), b.sub(n, j0), I64(nr))
    per_slot = b.mul(k, I64(nr + TABLE_FLOATS))
    panel = b.gep(p, [b.mul(slot, per_slot)], inbounds=True, source_etype=F32)
    taps = b.gep(panel, [b.mul(k, I64(nr))], inbounds=True, source_etype=F32)
    weights = b.gep(taps, [k], inbounds=True, source_etype=I64)

    term = b.alloca(I64)  # the tables' position: (k2, k1, k0) counted up
    b.store(I64(0), term)

    def offsets(digits: Index3) -> None:
        kk = b.load(term, typ=I64)
        for table, strides in (
            (taps, (a_k2, a_k1, a_k0)),
            (weights, (b_k2, b_k1, b_k0)),
        ):
            at = b.gep(table, [kk], inbounds=True, source_etype=I64)
            b.store(_offset(b, digits, strides), at)
        b.store(b.add(kk, I64(1)), term)

    outer = _value(b.udiv(k, b.mul(k1, k0)))
    _loop(
        b,
        I64(0),
        outer,
        I64(1),
        lambda i2: _loop(
            b,
            I64(0),
            k1,
            I64(1),
            lambda i1: _loop(b, I64(0), k0, I64(1), lambda i0: offsets((i2, i1, i0))),
        ),
    )
    columns = b.gep(b_, [b.mul(j0, b_col)], inbounds=True, source_etype=F32)
    _pack(b, columns, panel, weights, k, b_col, width, nr)
    output = b.gep(c, [j0], inbounds=True, source_etype=F32)

    def cases(
        value: ir.Value, counts: Sequence[int], body: Callable[[int], None]
    ) -> None:
        """`body(count)` where `value` is `count`, for each of `counts`."""
        switch = b.switch(value, None)
        after = function.append_basic_block("cases")
        switch.default = after
        for number in counts:
            case = function.append_basic_block(f"case{number}")
            switch.add_case(I64(number), case)
            b.position_at_end(case)
            body(number)
            b.branch(after)
        b.position_at_end(after)

    rows = _dividing_rows(b, m0, mr)
    full = _value(b.mul(b.udiv(m0, rows), rows))

    def line(start: ir.Value) -> None:
        at = _value(b.add(first, start))
        outer, middle, _ = _split(b, at, m1, m0)
        offset = b.add(b.mul(outer, a_m2), b.mul(middle, a_m1))
        a_line = b.gep(a, [offset], inbounds=True, source_etype=F32)
        c_line = b.gep(output, [b.mul(at, c_row)], inbounds=True, source_etype=F32)

        def tile(rows: int, row: ir.Value) -> None:
            a_at = b.gep(a_line, [b.mul(row, a_m0)], inbounds=True, source_etype=F32)
            c_at = b.gep(c_line, [b.mul(row, c_row)], inbounds=True, source_etype=F32)
            arguments = [a_at, panel, taps, c_at, k, chunk, a_m0, c_row, width]
            b.call(tiles[rows], arguments)

        cases(
            rows,
            range(mr // 2 + 1, mr + 1),
            lambda r: _loop(b, I64(0), full, I64(r), lambda row: tile(r, row)),
        )
        cases(_value(b.sub(m0, full)), range(1, mr), lambda r: tile(r, full))

    _loop(b, I64(0), count, m0, line)
    b.ret_void()


Index3 = tuple[ir.Value, ir.Value, ir.Value]


def _split(
    b: ir.IRBuilder, index: ir.Value, middle: ir.Value, inner: ir.Value
) -> Index3:
    """`index` as (outer, middle, inner) digits over sizes (*, `middle`,
    `inner`)."""
    rest = b.udiv(index, inner)
    return (
        _value(b.udiv(rest, middle)),
        _value(b.urem(rest, middle)),
        _value(b.urem(index, inner)),
    )


def _offset(b: ir.IRBuilder, digits: Index3, strides: Sequence[ir.Value]) -> ir.Value:
    """The sum of `digits` times their `strides`."""
    total: ir.Value = I64(0)
    for digit, stride in zip(digits, strides, strict=True):
        total = _value(b.add(total, b.mul(digit, stride)))
    return total


def _pack(
    b: ir.IRBuilder,
    columns: ir.Value,
    panel: ir.Value,
    weights: ir.Value,
    k: ir.Value,
    b_col: ir.Value,
    width: ir.Value,
    nr: int,
) -> None:
    """`panel[kk, c] = B[weights[kk] + c * b_col]` (B from the panel's first
    column) for c < width, 0.0 past it: rows of whole vectors where B's
    columns are contiguous and the panel whole, else element by element."""
    wide = ir.VectorType(F32, nr)

    def rows(kk: ir.Value) -> tuple[ir.Value, ir.Value]:
        offset = b.load(b.gep(weights, [kk], inbounds=True, source_etype=I64), typ=I64)
        source = b.gep(columns, [offset], inbounds=True, source_etype=F32)
        target = b.gep(panel, [b.mul(kk, I64(nr))], inbounds=True, source_etype=F32)
        return source, target

    def vectors(kk: ir.Value) -> None:
        source, target = rows(kk)
        b.store(b.load(source, typ=wide, align=4), target, align=4)

    def elements(kk: ir.Value) -> None:
        source, target = rows(kk)

        def column(c: ir.Value) -> None:
            inside = b.icmp_signed("<", c, width)
            safe = b.select(inside, c, I64(0))
            value = b.load(
                b.gep(source, [b.mul(safe, b_col)], inbounds=True, source_etype=F32),
                typ=F32,
            )
            value = b.select(inside, value, ir.Constant(F32, 0.0))
            b.store(value, b.gep(target, [c], inbounds=True, source_etype=F32))

        _loop(b, I64(0), I64(nr), I64(1), column)

    contiguous = b.and_(
        b.icmp_signed("==", b_col, I64(1)), b.icmp_signed("==", width, I64(nr))
    )
    with b.if_else(contiguous) as (then, otherwise):
        with then:
            _loop(b, I64(0), k, I64(1), vectors)
        with otherwise:
            _loop(b, I64(0), k, I64(1), elements)


def _define_tile(
    module: ir.Module, mr: int, lanes: int, rows: int, vector: ir.VectorType
) -> ir.Function:
    """`rows` x `2 * lanes` of C from A's rows and the packed panel:
    `tile(A_row0, panel, taps, C_row0, K, chunk, a_row, c_row, width)`, term
    `kk` of row r at `A_row0 + r * a_row + taps[kk]`."""
    name = f"{conv_routine_name(mr, lanes)}.tile{rows}"
    function = ir.Function(
        module, ir.FunctionType(ir.VoidType(), [PTR] * 4 + [I64] * 5), name
    )
    function.linkage = "internal"
    a, panel, taps, c, k, chunk, a_row, c_row, width = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    fma = module_function(
        module, f"llvm.fma.v{lanes}f32", ir.FunctionType(vector, [vector] * 3)
    )
    count = 2 * rows
    sums = [b.alloca(vector) for _ in range(count)]
    partials = [b.alloca(vector) for _ in range(count)]
    zero = ir.Constant(vector, [0.0] * lanes)
    negative_zero = ir.Constant(vector, [-0.0] * lanes)
    for s in sums:
        b.store(zero, s)
    offsets = [b.mul(I64(r), a_row) for r in range(rows)]

    def step(kk: ir.Value, into: Sequence[ir.Instruction]) -> None:
        row = b.gep(panel, [b.mul(kk, I64(2 * lanes))], inbounds=True, source_etype=F32)
        halves = [
            b.load(
                b.gep(row, [I64(h * lanes)], inbounds=True, source_etype=F32),
                typ=vector,
                align=4,
            )
            for h in range(2)
        ]
        tap = b.load(b.gep(taps, [kk], inbounds=True, source_etype=I64), typ=I64)
        column = b.gep(a, [tap], inbounds=True, source_etype=F32)
        for r in range(rows):
            x = b.load(
                b.gep(column, [offsets[r]], inbounds=True, source_etype=F32), typ=F32
            )
            splat = b.shuffle_vector(
                b.insert_element(ir.Constant(vector, ir.Undefined), x, I64(0)),
                ir.Constant(vector, ir.Undefined),
                ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes),
            )
            for h in range(2):
                slot = into[2 * r + h]
                b.store(b.call(fma, [splat, halves[h], b.load(slot, typ=vector)]), slot)

    def chunk_at(start: ir.Value) -> None:
        for p in partials:
            b.store(negative_zero, p)
        end = _value(b.add(start, chunk))
        _loop(b, start, end, I64(1), lambda kk: step(kk, partials))
        for s, p in zip(sums, partials, strict=True):
            b.store(b.fadd(b.load(s, typ=vector), b.load(p, typ=vector)), s)

    some = b.icmp_unsigned("!=", chunk, I64(0))
    divisor = _value(b.select(some, chunk, I64(1)))
    split = _value(b.select(some, b.mul(b.udiv(k, divisor), chunk), I64(0)))
    _loop(b, I64(0), split, divisor, chunk_at)
    _loop(b, split, k, I64(1), lambda kk: step(kk, sums))
    _store_tile(b, function, c, c_row, width, sums, rows, lanes, vector)
    return function
