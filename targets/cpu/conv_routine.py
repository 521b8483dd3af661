"""The prebuilt GEMM routine's convolution entries, in LLVM IR.

A convolution is a GEMM whose A is gathered from the input: output pixel
`i` (a row of C) and reduction term `kk` (an input channel and a kernel
tap) read the input at `row(i) + tap(kk)`, each a sum of strides, where a
dot reads `i * a_row + kk * a_k`. Inlined, each convolution cost every
compile `register-tile`, `pack-panels`, `block-sums` and then LLVM on
hundreds of lines of IR; these entries take the strides as arguments and
are compiled once per host, in the object of the dot routine
(`gemm_runtime.py`). A term `kk` is split as `(k2, k1, k0)` over sizes
`(*, k1, k0)` (a convolution's input channel and kernel row and column, in
the order the inline kernel sums them); a row `i` as `(i2, i1, i0)` over
`(*, m1, m0)` (an NHWC image, output row and column).

`xlir.gemm_f32_{mr}x{lanes}.conv_pack(B, P, N, K, k1, k0, a_k2, a_k1, a_k0,
b_k2, b_k1, b_k0, b_col)` fills the scratch `P` once per convolution: the
`K` taps `tap(kk) = k2 a_k2 + k1 a_k1 + k0 a_k0` as i64, then every panel
of `nr = 2 * lanes` columns of B packed (`pack-panels`' layout,
`[panel, kk, 0 : nr]`, zero past column N), B's term `kk` at
`k2 b_k2 + k1 b_k1 + k0 b_k0 + j * b_col`.

`xlir.gemm_f32_{mr}x{lanes}.conv(A, C, P, first, count, slot, m1, m0, a_m2,
a_m1, a_m0, c_row, N, K, chunk, window, o1, o2, o3, i0, i1, i2, i3, l0, l1,
l2, l3)` then computes, panel by panel of `nr` columns, the rows
`first : first + count` (whole lines of `m0`),

    C[i * c_row + j] = sum_kk A[i2 a_m2 + i1 a_m1 + i0 a_m0 + tap(kk)] * B[kk, j],

in `register-tile`'s tiles along each line: `mr` rows (fewer where a
number above `mr / 2` divides `m0`, as the dot routine picks them) by
`nr`, each element one FMA chain in term order; `chunk` (0: none) is
`block-sums`' split of it: chunks of `chunk` terms summed from -0.0 and
added to the running sum, the terms left added to it directly, so a call
gives the inline kernel's bits.

`window` 0: A is read as it is (the last eleven arguments unused). Else A
is the unpadded input of a convolution whose padding is zeros, the strides
above those of the padded array, which the pad entry's sizes describe
(pad_routine.py: `o*` its shape past the first dimension, `i*` A's, `l*`
the padding before, merged into rows of `o3`): the call first writes the
rows of the padded array its lines read (from that of its first tap to
that of its last) into its window, `window` floats of P past the taps and
panels at `slot * window` (the caller's group index, so threads write
apart), with the pad entry's row code (`pad_rows`), and its tiles read
the window. That copy was the `conv-padding` kernel's, a pass over the
activations and a kernel to compile; here it is a few rows at a time, in
cache where the tiles read it, and the padded zeros are the same +0.0.
"""

from __future__ import annotations

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function
from xlir.targets.cpu.gemm_routine import define_tile, routine_name, tile_rows
from xlir.targets.cpu.pad_routine import pad_rows
from xlir.targets.cpu.routine_ir import F32, I64, PTR, loop, value

PACK_ARGUMENTS = 13
"""B, P; N, K, k1, k0, a_k2, a_k1, a_k0, b_k2, b_k1, b_k0, b_col."""

ARGUMENTS = 27
"""A, C, P; first, count, slot, m1, m0, a_m2, a_m1, a_m0, c_row, N, K, chunk,
window, then the padding's o1, o2, o3, i0, i1, i2, i3, l0, l1, l2, l3."""

PADDING = 11
"""The last arguments: the padded input's sizes (pad_routine.py's)."""


def conv_routine_name(mr: int, lanes: int) -> str:
    """The convolution entry beside the dot routine of `mr` x `2 * lanes`
    tiles (its name extends the dot routine's, so `called_variants` finds
    the object that holds both)."""
    return routine_name(mr, lanes) + ".conv"


def pack_routine_name(mr: int, lanes: int) -> str:
    """The entry that fills a convolution's scratch for `conv_routine_name`."""
    return routine_name(mr, lanes) + ".conv_pack"


def scratch_floats(n: int, k: int, lanes: int) -> int:
    """The f32 elements of a convolution's scratch: its taps (two each)
    and its packed panels."""
    nr = 2 * lanes
    return 2 * k + -(-n // nr) * k * nr


def define_conv(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define both entries (module docstring) in `module`, or complete their
    declarations there."""
    _define_pack(module, mr, lanes, linkage)
    name = conv_routine_name(mr, lanes)
    function = module_function(
        module,
        name,
        ir.FunctionType(ir.VoidType(), [PTR] * 3 + [I64] * (ARGUMENTS - 3)),
    )
    function.linkage = linkage
    tiles = {
        rows: define_tile(
            module, f"{name}.tile{rows}", lanes, rows, taps=True, chunk=None
        )
        for rows in range(1, mr + 1)
    }
    a, c, p = function.args[:3]
    first, count, slot, m1, m0, a_m2, a_m1, a_m0, c_row, n, k, chunk, window = (
        function.args[3 : ARGUMENTS - PADDING]
    )
    padding = function.args[ARGUMENTS - PADDING :]
    for pointer in (a, c, p):
        pointer.add_attribute("noalias")
    b = ir.IRBuilder(function.append_basic_block("entry"))
    nr = 2 * lanes
    taps = p
    panels = b.gep(p, [b.mul(k, I64(2))], inbounds=True, source_etype=F32)

    def line_offset(at: ir.Value) -> ir.Value:
        """A's offset of the first term of row `at` (the start of a line)."""
        rest = b.udiv(at, m0)
        return value(
            b.add(b.mul(b.udiv(rest, m1), a_m2), b.mul(b.urem(rest, m1), a_m1))
        )

    # Padded (`window` > 0): the rows of the padded input the group reads,
    # into its window; the tiles read the window at `offset - origin`.
    read, origin = b.alloca(PTR), b.alloca(I64)
    b.store(a, read)
    b.store(I64(0), origin)
    with b.if_then(b.icmp_signed(">", window, I64(0))):
        o3 = padding[2]
        last = value(b.sub(b.add(first, count), m0))
        last_tap = b.load(b.gep(taps, [b.sub(k, I64(1))], source_etype=I64), typ=I64)
        end = b.add(b.add(line_offset(last), b.mul(b.sub(m0, I64(1)), a_m0)), last_tap)
        low = value(b.udiv(line_offset(first), o3))
        high = b.add(b.udiv(end, o3), I64(1))
        filled = b.gep(
            panels, [b.mul(_panels(b, n, nr), b.mul(k, I64(nr)))], source_etype=F32
        )
        at = b.gep(filled, [b.mul(slot, window)], inbounds=True, source_etype=F32)
        pad_rows(module, b, a, at, low, value(b.sub(high, low)), padding)
        b.store(at, read)
        b.store(b.mul(low, o3), origin)
    source, base = b.load(read, typ=PTR), b.load(origin, typ=I64)
    tiles_of_line = tile_rows(b, m0, mr)

    def panel(j0: ir.Value) -> None:
        width = b.select(
            b.icmp_signed("<", b.sub(n, j0), I64(nr)), b.sub(n, j0), I64(nr)
        )
        packed = b.gep(panels, [b.mul(j0, k)], inbounds=True, source_etype=F32)
        output = b.gep(c, [j0], inbounds=True, source_etype=F32)

        def line(start: ir.Value) -> None:
            at = value(b.add(first, start))
            offset = b.sub(line_offset(at), base)
            a_line = b.gep(source, [offset], inbounds=True, source_etype=F32)
            c_line = b.gep(output, [b.mul(at, c_row)], inbounds=True, source_etype=F32)

            def tile(rows: int, row: ir.Value) -> None:
                a_at = b.gep(
                    a_line, [b.mul(row, a_m0)], inbounds=True, source_etype=F32
                )
                c_at = b.gep(
                    c_line, [b.mul(row, c_row)], inbounds=True, source_etype=F32
                )
                arguments = [a_at, packed, c_at, k, a_m0, taps, c_row, width, chunk]
                b.call(tiles[rows], arguments)

            tiles_of_line(tile)

        loop(b, I64(0), count, m0, line)

    loop(b, I64(0), n, I64(nr), panel)
    b.ret_void()


def _panels(b: ir.IRBuilder, n: ir.Value, nr: int) -> ir.Value:
    """The panels of `nr` columns that cover `n`."""
    return value(b.udiv(b.add(n, I64(nr - 1)), I64(nr)))


def _define_pack(module: ir.Module, mr: int, lanes: int, linkage: str) -> None:
    """The entry that fills the scratch (module docstring): per term its
    tap, then its row of each panel, whole vectors where B's columns are
    contiguous and the panel whole, else element by element."""
    function = module_function(
        module,
        pack_routine_name(mr, lanes),
        ir.FunctionType(ir.VoidType(), [PTR] * 2 + [I64] * (PACK_ARGUMENTS - 2)),
    )
    function.linkage = linkage
    b_, p = function.args[:2]
    n, k, k1, k0, a_k2, a_k1, a_k0, b_k2, b_k1, b_k0, b_col = function.args[2:]
    for pointer in (b_, p):
        pointer.add_attribute("noalias")
    b = ir.IRBuilder(function.append_basic_block("entry"))
    nr = 2 * lanes
    wide = ir.VectorType(F32, nr)
    panels = b.gep(p, [b.mul(k, I64(2))], inbounds=True, source_etype=F32)
    term = b.alloca(I64)  # kk, counted up through (k2, k1, k0)
    b.store(I64(0), term)

    def pack(kk: ir.Value, weight: ir.Value, j0: ir.Value) -> None:
        source = b.gep(b_, [b.add(weight, b.mul(j0, b_col))], source_etype=F32)
        at = b.add(b.mul(j0, k), b.mul(kk, I64(nr)))
        target = b.gep(panels, [at], inbounds=True, source_etype=F32)
        width = b.sub(n, j0)
        whole = b.and_(
            b.icmp_signed("==", b_col, I64(1)), b.icmp_signed(">=", width, I64(nr))
        )
        with b.if_else(whole) as (then, otherwise):
            with then:
                b.store(b.load(source, typ=wide, align=4), target, align=4)
            with otherwise:

                def column(c: ir.Value) -> None:
                    inside = b.icmp_signed("<", c, width)
                    safe = b.select(inside, c, I64(0))
                    at = b.gep(source, [b.mul(safe, b_col)], source_etype=F32)
                    value = b.select(inside, b.load(at, typ=F32), ir.Constant(F32, 0.0))
                    b.store(value, b.gep(target, [c], inbounds=True, source_etype=F32))

                loop(b, I64(0), I64(nr), I64(1), column)

    def row(i2: ir.Value, i1: ir.Value, i0: ir.Value) -> None:
        kk = b.load(term, typ=I64)
        tap = b.add(b.add(b.mul(i2, a_k2), b.mul(i1, a_k1)), b.mul(i0, a_k0))
        b.store(tap, b.gep(p, [kk], inbounds=True, source_etype=I64))
        weight = value(b.add(b.add(b.mul(i2, b_k2), b.mul(i1, b_k1)), b.mul(i0, b_k0)))
        loop(b, I64(0), n, I64(nr), lambda j0: pack(kk, weight, j0))
        b.store(b.add(kk, I64(1)), term)

    def levels(i2: ir.Value) -> None:
        loop(
            b,
            I64(0),
            k1,
            I64(1),
            lambda i1: loop(b, I64(0), k0, I64(1), lambda i0: row(i2, i1, i0)),
        )

    loop(b, I64(0), value(b.udiv(k, b.mul(k1, k0))), I64(1), levels)
    b.ret_void()
