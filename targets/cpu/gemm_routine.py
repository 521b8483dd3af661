"""The prebuilt f32 GEMM routine the CPU's dot kernels call, in LLVM IR.

A dot kernel inlined as a register-tiled, panel-packed loop nest costs
every compile ~15 ms of xDSL passes and 20-30 ms of LLVM per dot; the same
kernel with its sizes and strides as arguments is compiled once per host
instead (`thread_runtime.load_gemm`, kept beside the compilation cache) and
called (`gemm_calls.py` rewrites the dot nests into calls), as XLA:CPU
calls Eigen and IREE its mmt4d micro-kernels.

`xlir.gemm_f32_{mr}x{lanes}(A, B, C, P, M, N, K, a_row, a_k, b_k, b_col,
c_row, a_batch, b_batch, c_batch, batch, slot, j0)` computes the panel of
columns `j0 : j0 + 2 * lanes` of `C[i, j] = sum_k A[i, k] * B[k, j]`
(element strides `a_row`, `a_k`, `b_k`, `b_col`, `c_row`; C's columns unit
stride) of the matrices `batch` of a batched dot (each A `a_batch`
elements after the one before, B and C likewise; 0 for a plain dot): it
copies the panel of B into the slice `slot` of the scratch `P` (`[slot, k,
0 : nr]`, zero past column N; the caller gives each panel that may run at
once a slice of its own) or, for a call of few rows, reads it in place
(`DIRECT_ROWS`), then runs `mr` x `nr` register tiles down the rows (`mr`
vector accumulators of two `lanes`-wide vectors), the rows left over in
one tile of as many rows. That is `pack-panels`' layout and `register-tile`'s tile,
and the same sums in the same order: per element an FMA chain with k
ascending, split as `block-sums{block=256}` splits it (over 256 terms:
chunks of 256 summed from -0.0 and added to the running sum, the terms
left over added to it directly), so a call gives the inline kernel's bits.
Each tile has two versions, one with the chunks' loop for sums of more
than 256 terms and one without for the others (`define_tile`). Sums of
more than 256 chunks (K >= 65792) would take a second level of
chunks, which the routine does not do (`MAX_K`).

`xlir.gemm_f32_{mr}x{lanes}.bf16` takes bf16 A and B (strides and offsets
in their elements) and widens each element as it reads it, exactly (its
bits the top half of an f32, as `widen-floats` widens it): A's in the
tiles, B's as it packs the panel, which it then always does (the tiles
read f32 vectors). The sums are of the same f32 values in the same order
as the f32 routine's on the operands widened beforehand: the same bits,
with no widened copy of either operand written or read.
`xlir.gemm_f32_{mr}x{lanes}.bf16.to_bf16` stores C as bf16, each sum
rounded to nearest, ties to even, a NaN quieted (`rounded`: as
`float_formats.encode` rounds an f32, the inline kernel's `arith.truncf`),
so a bf16 dot whose epilogue only rounds needs no f32 sums buffer. The two
bf16 entries share their tiles, which take the rounding as an argument.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import cast

from llvmlite import ir
from xlir.lowering.llvm.half_conversions import module_function
from xlir.passes.loop.block_sums import DEFAULT_BLOCK
from xlir.targets.cpu.routine_ir import (
    BIT,
    F32,
    I32,
    I64,
    PTR,
    cases,
    declare_entry,
    loop,
    value,
)

BLOCK = DEFAULT_BLOCK
"""The terms per chunk of a long sum: `block-sums`' block, whose order
the routine keeps."""

MAX_K = BLOCK * BLOCK
"""The longest sum the routine splits as `block-sums` does (one level of
chunks)."""

DIRECT_ROWS = 96
"""The most rows of a call that reads B in place rather than packed (where
B's panel is whole, its columns contiguous and its sum at most `BLOCK`
terms): with few row tiles to share it, the copy cost more than it saved
(an RNN step's 16 x 256 x 768 dot ran 0.75-0.85x the time unpacked, 96
rows 0.93x, 128 the same, 256 rows 1.15x). A longer sum's panel outgrows
L1 and, where B's rows lie 4 KiB apart (in the same cache sets), L2: the
tiles' re-reads then cost more than the copy (96 x 1024 x 1024 ran 1.16x
unpacked, 8 x 1024 x 4096 1.1x)."""

ALIASED_COLUMNS = 1024
"""Elements (4 KiB) from one column of B to the next from which a panel
whose columns are contiguous is copied column by column: row by row, the
`nr` columns' cache lines in use at once then lie in one L1 set (a 128 x
1024 x 1024 dot ran 1.16x the time); closer, row by row was faster (the
panel's rows stay whole in L1: 16 x 768 x 256 ran 0.85x the time, 128 x
8192 x 256 0.97x)."""

PREFIX = "xlir.gemm_f32_"

BF16 = ir.IntType(16)
"""A bf16 element as the routine reads it: its bits."""

MASKED_SUFFIX: dict[ir.Type, str] = {F32: "f32", BF16: "i16", I32: "i32"}
"""The element-type part of a masked store's intrinsic name, by C's element
type (`store_tile`)."""

OPERANDS: dict[str, ir.Type] = {"f32": F32, "bf16": BF16}
"""The element types of A and B a routine reads, by name, as it reads
them (`widened` makes f32 of them)."""

RESULTS: dict[str, tuple[str, ...]] = {"f32": ("f32",), "bf16": ("f32", "bf16")}
"""The element types of C the routine of each of `OPERANDS` stores (bf16:
`rounded`)."""

ARGUMENTS = 18
"""A, B, C, P; M, N, K; a_row, a_k, b_k, b_col, c_row; a_batch, b_batch,
c_batch, batch; slot, j0."""


def routine_name(
    mr: int, lanes: int, operands: str = "f32", result: str = "f32"
) -> str:
    """The routine of `mr` x `2 * lanes` tiles of `lanes`-wide vectors whose
    A and B are of element type `operands` (`OPERANDS`) and C of `result`
    (`RESULTS`)."""
    return f"{PREFIX}{mr}x{lanes}" + operand_suffix(operands, result)


def operand_suffix(operands: str, result: str = "f32") -> str:
    """What an entry's name adds for operands of element type `operands`
    and a C of `result`: nothing for f32 ones."""
    assert result in RESULTS[operands]
    return ("" if operands == "f32" else f".{operands}") + (
        "" if result == "f32" else f".to_{result}"
    )


def widened(
    b: ir.IRBuilder, loaded: ir.Value, element: ir.Type, lanes: int = 0
) -> ir.Value:
    """`loaded`, an `element` (`OPERANDS`) or a vector of `lanes` of them,
    as f32: itself for f32, else each bf16's bits shifted to the top half of
    an f32's (exact)."""
    if element == F32:
        return loaded

    def of(type_: ir.Type) -> ir.Type:
        return ir.VectorType(type_, lanes) if lanes else type_

    bits = of(ir.IntType(32))
    shift = ir.Constant(bits, [16] * lanes if lanes else 16)
    return value(b.bitcast(b.shl(b.zext(loaded, bits), shift), of(F32)))


_NAME = re.compile(rb"xlir\.gemm_f32_(\d+)x(\d+)((?:\.\w+)*)")


def called_variants(code: bytes) -> set[tuple[int, int, str]]:
    """(mr, lanes, operands) of each routine an object or module text names
    (an entry's name is the routine's, then its own parts: `.batched`,
    `.conv`, ..., and its operands' suffix, `operand_suffix`)."""
    found = set()
    for mr, lanes, suffix in _NAME.findall(code):
        parts = suffix.decode().split(".")
        operands = next((part for part in parts if part in OPERANDS), "f32")
        found.add((int(mr), int(lanes), operands))
    return found


def define_gemm(
    module: ir.Module,
    mr: int,
    lanes: int,
    linkage: str = "internal",
    operands: str = "f32",
    result: str = "f32",
) -> None:
    """Define the routine of operands `operands` and C of `result` (module
    docstring) in `module`, or complete its declaration there."""
    name = routine_name(mr, lanes, operands, result)
    element = OPERANDS[operands]
    function, b = declare_entry(module, name, 4, ARGUMENTS - 4, linkage)
    # B is read in place for short sums of f32 only (`_panel`)
    strided = element == F32
    tiles = {
        (rows, chunked): dot_tile(
            module, mr, lanes, rows, operands, chunked, strided and not chunked
        )
        for rows in range(1, mr + 1)
        for chunked in (False, True)
    }
    rounds = rounding_argument(operands, result)
    (a, b_, c, p, m, n, k, a_row, a_k, b_k, b_col, c_row) = function.args[:12]
    a_batch, b_batch, c_batch, batch, slot, j0 = function.args[12:]
    a = b.gep(a, [b.mul(batch, a_batch)], inbounds=True, source_etype=element)
    b_ = b.gep(b_, [b.mul(batch, b_batch)], inbounds=True, source_etype=element)
    stored = OPERANDS[result]
    c = b.gep(c, [b.mul(batch, c_batch)], inbounds=True, source_etype=stored)
    nr = 2 * lanes
    width = b.select(b.icmp_signed("<", b.sub(n, j0), I64(nr)), b.sub(n, j0), I64(nr))
    packed = b.gep(p, [b.mul(slot, b.mul(k, I64(nr)))], inbounds=True, source_etype=F32)
    columns = b.gep(b_, [b.mul(j0, b_col)], inbounds=True, source_etype=element)
    panel, panel_row = _panel(b, columns, packed, m, k, b_k, b_col, width, nr, element)
    output = b.gep(c, [j0], inbounds=True, source_etype=stored)

    def tile(rows: int, row: ir.Value) -> None:
        a_at = b.gep(a, [b.mul(row, a_row)], inbounds=True, source_etype=element)
        c_at = b.gep(output, [b.mul(row, c_row)], inbounds=True, source_etype=stored)
        arguments = [a_at, panel, c_at, k, a_row, a_k, c_row, width, *rounds]
        with b.if_else(b.icmp_signed(">", k, I64(BLOCK))) as (long, short):
            with long:
                b.call(tiles[rows, True], arguments)
            with short:
                read = [*arguments, panel_row] if strided else arguments
                b.call(tiles[rows, False], read)

    tile_rows(b, m, mr)(tile)
    b.ret_void()


def dot_tile(
    module: ir.Module,
    mr: int,
    lanes: int,
    rows: int,
    operands: str,
    chunked: bool,
    strided: bool,
) -> ir.Function:
    """The tile of `rows` rows of a dot of `operands` (`define_tile`): with
    the chunks' loop of `BLOCK` terms or none, B's panel `strided` or
    packed, C's element type `tile_result`'s. One per module: the entries
    that take the same tile call the same function."""
    name = f"{routine_name(mr, lanes, operands)}.tile{rows}"
    name += (".chunked" if chunked else "") + (".strided" if strided else "")
    return define_tile(
        module,
        name,
        lanes,
        rows,
        taps=False,
        chunk=BLOCK if chunked else 0,
        strided=strided,
        element=OPERANDS[operands],
        result=tile_result(operands),
    )


def tile_result(operands: str) -> ir.Type | None:
    """The `result` of the tiles of the routine of `operands`: f32, or for
    several `RESULTS` an argument that says it (`define_tile`)."""
    return F32 if RESULTS[operands] == ("f32",) else None


def rounding_argument(operands: str, result: str) -> list[ir.Value]:
    """What an entry whose C is of `result` passes its tiles after their
    width (`tile_result`): nothing, or whether they round to bf16."""
    if tile_result(operands) is not None:
        return []
    return [I64(int(result == "bf16"))]


def tile_rows(
    b: ir.IRBuilder, m: ir.Value, mr: int
) -> Callable[[Callable[[int, ir.Value], None]], None]:
    """What runs `tile(rows, row)` over `m` rows as `register-tile` tiles
    them: tiles of as many rows as `_dividing_rows` picks, then one tile of
    the rows left over. The picks are made here, where `b` is (before a
    loop whose iterations each tile `m` rows, as the convolution entry's
    lines), the tiles where what this returns is called."""
    rows = _dividing_rows(b, m, mr)
    full = value(b.mul(b.udiv(m, rows), rows))

    def run(tile: Callable[[int, ir.Value], None]) -> None:
        cases(
            b,
            rows,
            range(mr // 2 + 1, mr + 1),
            lambda r: loop(b, I64(0), full, I64(r), lambda row: tile(r, row)),
        )
        cases(b, value(b.sub(m, full)), range(1, mr), lambda r: tile(r, full))

    return run


def _dividing_rows(b: ir.IRBuilder, m: ir.Value, mr: int) -> ir.Value:
    """The rows of a tile, as `register-tile` picks them: `mr`, or the
    largest number above half of it that divides `m` (rows of A 4 KiB
    apart share cache sets: 256 rows of 1024 took 0.89x the time in
    tiles of 8 as of 12)."""
    rows: ir.Value = I64(mr)
    for count in range(mr // 2 + 1, mr):
        divides = b.icmp_unsigned("==", b.urem(m, I64(count)), I64(0))
        rows = value(b.select(divides, I64(count), rows))
    whole = b.icmp_unsigned("==", b.urem(m, I64(mr)), I64(0))
    return value(b.select(whole, I64(mr), rows))


def define_tile(
    module: ir.Module,
    name: str,
    lanes: int,
    rows: int,
    *,
    taps: bool,
    chunk: int | None,
    strided: bool = False,
    element: ir.Type = F32,
    result: ir.Type | None = F32,
) -> ir.Function:
    """`rows` x `2 * lanes` of C from A's rows and the packed panel:
    `tile(A_row0, panel, C_row0, K, a_row, column, c_row, width[, chunk]
    [, rounds][, panel_row])`,
    term `kk` of row r at `A_row0 + r * a_row + kk * column` (`column` A's
    stride along k, a dot's) or, `taps`, at `A_row0 + r * a_row +
    column[kk]` (`column` a table of i64 offsets, a convolution's).
    `chunk`: the terms per chunk of `block-sums`' split, 0 for a tile
    without the chunks' loop (it and its second set of accumulators cost a
    tile of 64 terms its callee-saved registers and a stack frame, which
    made a 16384 x 64 x 256 dot 1.08x the inline kernel's time), None for
    an argument that says it (0: none) at run time. `strided`: the panel's
    rows `panel_row` elements apart, a last argument (B read in place:
    `_panel`), else `2 * lanes` (packed). `element`: A's element type as
    `OPERANDS` reads it, widened to f32 (`widened`) as it is read.
    `result`: C's element type, F32 or BF16 (the sums `rounded`), or None
    for an argument `rounds` that says it (0: f32). A tile `module` has
    under `name` already (the entries that share theirs) is that one."""
    if name in module.globals:
        return cast(ir.Function, module.globals[name])
    vector = ir.VectorType(F32, lanes)
    types = [PTR, PTR, PTR, I64, I64, PTR if taps else I64, I64, I64]
    types += [I64] if chunk is None else []
    types += [I64] if result is None else []
    types += [I64] if strided else []
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), types), name)
    function.linkage = "internal"
    if result is None:
        function.attributes.add("noinline")  # one copy for the entries that share it
    a, panel, c, k, a_row, column_at, c_row, width = function.args[:8]
    panel_row = function.args[-1] if strided else I64(2 * lanes)
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
    cursor = b.alloca(
        PTR
    )  # a dot's A[0, kk]: kk ascends through the chunks and the rest
    b.store(a, cursor)

    def column(kk: ir.Value) -> ir.Value:
        """A's term `kk` of row 0."""
        if taps:
            tap = b.load(
                b.gep(column_at, [kk], inbounds=True, source_etype=I64), typ=I64
            )
            return b.gep(a, [tap], inbounds=True, source_etype=element)
        at = b.load(cursor, typ=PTR)
        b.store(b.gep(at, [column_at], inbounds=True, source_etype=element), cursor)
        return at

    def step(kk: ir.Value, into: Sequence[ir.Instruction]) -> None:
        row = b.gep(panel, [b.mul(kk, panel_row)], inbounds=True, source_etype=F32)
        halves = [
            b.load(
                b.gep(row, [I64(h * lanes)], inbounds=True, source_etype=F32),
                typ=vector,
                align=4,
            )
            for h in range(2)
        ]
        at = column(kk)
        for r in range(rows):
            x = b.load(
                b.gep(at, [offsets[r]], inbounds=True, source_etype=element),
                typ=element,
            )
            x = widened(b, x, element)
            splat = b.shuffle_vector(
                b.insert_element(ir.Constant(vector, ir.Undefined), x, I64(0)),
                ir.Constant(vector, ir.Undefined),
                ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes),
            )
            for h in range(2):
                slot = into[2 * r + h]
                b.store(b.call(fma, [splat, halves[h], b.load(slot, typ=vector)]), slot)

    def store() -> None:
        if result is not None:
            store_tile(b, c, c_row, width, sums, rows, lanes, result)
            return
        rounds = function.args[8 + (chunk is None)]
        with b.if_else(b.icmp_unsigned("!=", rounds, I64(0))) as (bf16, f32):
            with bf16:
                store_tile(b, c, c_row, width, sums, rows, lanes, BF16)
            with f32:
                store_tile(b, c, c_row, width, sums, rows, lanes, F32)

    if chunk == 0:
        loop(b, I64(0), k, I64(1), lambda kk: step(kk, sums))
        store()
        b.ret_void()
        return function
    if chunk is None:
        given = function.args[8]
        some = b.icmp_unsigned("!=", given, I64(0))
        size = value(b.select(some, given, I64(1)))
        split = value(b.select(some, b.mul(b.udiv(k, size), given), I64(0)))
    else:
        size = I64(chunk)
        split = value(b.mul(b.udiv(k, size), size))

    def chunk_at(start: ir.Value) -> None:
        for p in partials:
            b.store(negative_zero, p)
        end = value(b.add(start, size))
        loop(b, start, end, I64(1), lambda kk: step(kk, partials))
        for s, p in zip(sums, partials, strict=True):
            b.store(b.fadd(b.load(s, typ=vector), b.load(p, typ=vector)), s)

    loop(b, I64(0), split, size, chunk_at)
    loop(b, split, k, I64(1), lambda kk: step(kk, sums))
    store()
    b.ret_void()
    return function


def store_tile(
    b: ir.IRBuilder,
    c: ir.Value,
    c_row: ir.Value,
    width: ir.Value,
    sums: Sequence[ir.Instruction],
    rows: int,
    lanes: int,
    result: ir.Type,
) -> None:
    """The tile's sums into C, of `result`: F32, BF16 (f32 sums `rounded`)
    or the int8 routine's I32 sums as they are (int8_routine.py): whole
    vectors for a whole panel, else the `width` columns C has, by masked
    stores (one element at a time took a 1024 x 8 dot's tiles longer than
    their sums); `b` after them."""
    vector = ir.VectorType(I32 if result == I32 else F32, lanes)
    stored = ir.VectorType(result, lanes)
    align = 2 if result == BF16 else 4

    def tile_row(r: int, h: int) -> ir.Value:
        row = b.load(sums[2 * r + h], typ=vector)
        return rounded(b, row, lanes) if result == BF16 else row

    with b.if_else(b.icmp_signed("==", width, I64(2 * lanes))) as (whole, part):
        with whole:
            for r in range(rows):
                at = b.gep(
                    c, [b.mul(I64(r), c_row)], inbounds=True, source_etype=result
                )
                for h in range(2):
                    to = b.gep(at, [I64(h * lanes)], inbounds=True, source_etype=result)
                    b.store(tile_row(r, h), to, align=align)
        with part:
            store = module_function(
                b.module,
                f"llvm.masked.store.v{lanes}{MASKED_SUFFIX[result]}.p0",
                ir.FunctionType(
                    ir.VoidType(),
                    [stored, PTR, ir.IntType(32), ir.VectorType(BIT, lanes)],
                ),
            )
            limit = b.insert_element(
                ir.Constant(ir.VectorType(I64, lanes), None), width, I64(0)
            )
            limit = b.shuffle_vector(
                limit,
                ir.Constant(ir.VectorType(I64, lanes), ir.Undefined),
                ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes),
            )
            masks = [
                b.icmp_signed(
                    "<",
                    ir.Constant(
                        ir.VectorType(I64, lanes), [h * lanes + i for i in range(lanes)]
                    ),
                    limit,
                )
                for h in range(2)
            ]
            for r in range(rows):
                at = b.gep(
                    c, [b.mul(I64(r), c_row)], inbounds=True, source_etype=result
                )
                for h in range(2):
                    # may pass C's end
                    to = b.gep(at, [I64(h * lanes)], source_etype=result)
                    b.call(store, [tile_row(r, h), to, ir.IntType(32)(align), masks[h]])


def rounded(b: ir.IRBuilder, sums: ir.Value, lanes: int) -> ir.Value:
    """`lanes` f32 `sums` as bf16 bits: rounded to nearest, ties to even,
    a NaN quieted (its top half with the mantissa's top bit set), as
    `float_formats.encode` converts f32 to bf16."""
    bits_type = ir.VectorType(ir.IntType(32), lanes)

    def splat(constant: int) -> ir.Constant:
        return ir.Constant(bits_type, [constant] * lanes)

    bits = b.bitcast(sums, bits_type)
    nan = b.icmp_unsigned(">", b.and_(bits, splat(0x7FFFFFFF)), splat(0x7F800000))
    top = b.lshr(bits, splat(16))
    quiet = b.or_(top, splat(0x40))
    even = b.add(b.add(bits, splat(0x7FFF)), b.and_(top, splat(1)))
    nearest = b.lshr(even, splat(16))
    return value(b.trunc(b.select(nan, quiet, nearest), ir.VectorType(BF16, lanes)))


def _panel(
    b: ir.IRBuilder,
    columns: ir.Value,
    packed: ir.Value,
    m: ir.Value,
    k: ir.Value,
    b_k: ir.Value,
    b_col: ir.Value,
    width: ir.Value,
    nr: int,
    element: ir.Type,
) -> tuple[ir.Value, ir.Value]:
    """(the panel the tiles read, elements from one of its rows to the
    next): B's own columns where B is f32, a call has at most `DIRECT_ROWS`
    rows and `BLOCK` terms, the panel is whole and its columns contiguous,
    else their copy at `packed` (`pack_panel`). Either way the same values
    in the same FMAs: the same bits."""
    if element != F32:
        pack_panel(b, columns, packed, k, b_k, b_col, width, nr, element)
        return packed, I64(nr)
    few = b.and_(
        b.icmp_signed("<=", m, I64(DIRECT_ROWS)), b.icmp_signed("<=", k, I64(BLOCK))
    )
    whole = b.and_(
        b.icmp_signed("==", b_col, I64(1)), b.icmp_signed("==", width, I64(nr))
    )
    direct = b.and_(few, whole)
    with b.if_then(b.not_(direct)):
        pack_panel(b, columns, packed, k, b_k, b_col, width, nr)
    panel = value(b.select(direct, columns, packed))
    return panel, value(b.select(direct, b_k, I64(nr)))


def pack_panel(
    b: ir.IRBuilder,
    columns: ir.Value,
    panel: ir.Value,
    k: ir.Value,
    b_k: ir.Value,
    b_col: ir.Value,
    width: ir.Value,
    nr: int,
    element: ir.Type = F32,
) -> None:
    """`panel[kk, c] = B[kk, j0 + c]` for c < width, 0.0 past it: rows of
    whole vectors where B's columns are contiguous and the panel whole,
    else element by element: column by column where each column is
    contiguous and they lie `ALIASED_COLUMNS` elements apart or more (a
    transposed B that `dot-layout` left in place), row by row otherwise.
    B's elements of `element` (`OPERANDS`), widened to f32 (`widened`)."""
    wide = ir.VectorType(element, nr)

    def rows(kk: ir.Value) -> tuple[ir.Value, ir.Value]:
        source = b.gep(columns, [b.mul(kk, b_k)], inbounds=True, source_etype=element)
        target = b.gep(panel, [b.mul(kk, I64(nr))], inbounds=True, source_etype=F32)
        return source, target

    def vectors(kk: ir.Value) -> None:
        source, target = rows(kk)
        align = 4 if element == F32 else 2
        row = widened(b, b.load(source, typ=wide, align=align), element, nr)
        b.store(row, target, align=4)

    def elements(kk: ir.Value) -> None:
        source, target = rows(kk)

        def column(c: ir.Value) -> None:
            inside = b.icmp_signed("<", c, width)
            safe = b.select(inside, c, I64(0))
            at = b.gep(
                source, [b.mul(safe, b_col)], inbounds=True, source_etype=element
            )
            read = widened(b, b.load(at, typ=element), element)
            read = b.select(inside, read, ir.Constant(F32, 0.0))
            b.store(read, b.gep(target, [c], inbounds=True, source_etype=F32))

        loop(b, I64(0), I64(nr), I64(1), column)

    def down(c: ir.Value) -> None:
        inside = b.icmp_signed("<", c, width)
        source = b.gep(
            columns,
            [b.mul(b.select(inside, c, I64(0)), b_col)],
            inbounds=True,
            source_etype=element,
        )

        def term(kk: ir.Value) -> None:
            at = b.gep(source, [kk], inbounds=True, source_etype=element)
            read = widened(b, b.load(at, typ=element), element)
            read = b.select(inside, read, ir.Constant(F32, 0.0))
            to = b.add(b.mul(kk, I64(nr)), c)
            b.store(read, b.gep(panel, [to], inbounds=True, source_etype=F32))

        loop(b, I64(0), k, I64(1), term)

    def by_column_or_row() -> None:
        apart = b.icmp_signed(">=", b_col, I64(ALIASED_COLUMNS))
        by_columns = b.and_(b.icmp_signed("==", b_k, I64(1)), apart)
        with b.if_else(by_columns) as (by_column, by_row):
            with by_column:
                loop(b, I64(0), I64(nr), I64(1), down)
            with by_row:
                loop(b, I64(0), k, I64(1), elements)

    contiguous = b.and_(
        b.icmp_signed("==", b_col, I64(1)), b.icmp_signed("==", width, I64(nr))
    )
    with b.if_else(contiguous) as (then, otherwise):
        with then:
            loop(b, I64(0), k, I64(1), vectors)
        with otherwise:
            by_column_or_row()
