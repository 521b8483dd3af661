"""A sort marked by `sort-routines` as a call of the target's sort routine.

The kernel is a `loop.parallel` over every position of the other dimensions
(a row: the elements along the sort dimension), which threads as the
inline kernel's nests do. For each row it

1. writes the key operand's elements as unsigned integers of `KEY_BITS`
   bits ordered as the comparator orders the elements (the routine compares
   nothing else): a float's totalOrder key (`total_order_key`, of its
   canonicalized value for JAX's comparator: every NaN one positive NaN, -0
   as +0), a signed integer with its sign bit flipped, an unsigned one as
   it is; every bit flipped for a descending sort; zero-extended;
2. calls `SORT_KEYS[bits](n, row, keys, order, work)`, which sorts the
   row's keys stably and leaves in `order` the position each sorted key
   came from (the routine's contract: targets/cpu/sort_routine.py);
3. moves every operand's elements along `order` into the results, so each
   element arrives bit for bit (NaN payloads too) where a stable sort by
   the comparator puts it.

The keys, orders (i32 positions: a row is below 2^31 elements) and the
routine's work space (`n` keys and orders more) are scratch buffers, one
row of each per row of the sort, laid out row after row so that the
routine finds a row's from its number alone.

Steps 1 and 3 are routines too for the program's arguments
(targets/cpu/sort_rows.py): `ROW_KEYS[bits]` keys a row of elements whose
bits order as their key (`row_key_bits`: floats of their own bits, bf16,
integers of 8 to 64 bits) by flips of the same form (`key_flips`), and
`ROW_TAKE[bits]` moves an operand (of 1, 2, 4 or 8 bytes an element). A
loop here is LLVM's to compile in every sort program, a routine once per
host; but a routine reads its whole buffer, where a loop reads one row,
which `fuse-kernels` needs to merge the kernel that computes an operand
into the sort's row loop (`_argument`). So other kernels' results, and the
keys of booleans and the float8/6/4 formats, keep the loops.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    f32,
    i8,
    i32,
)
from xdsl.ir import BlockArgument, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.scalar import total_order_key
from xlir.passes.hlo.sort_routines import SortKey
from xlir.passes.loop.float_formats import format_of

from xlir.element_types import byte_width

SORT_KEYS = {32: "xlir.sort_keys32", 64: "xlir.sort_keys64"}
"""The routine for keys of each width."""

ROW_KEYS = {bits: f"xlir.row_keys{bits}" for bits in (8, 16, 32, 64)}
"""The routine that keys a row of elements of each width."""

ROW_TAKE = {bits: f"xlir.row_take{bits}" for bits in (8, 16, 32, 64)}
"""The routine that moves a row of elements of each width along an order."""

ROUTINES = (*SORT_KEYS.values(), *ROW_KEYS.values(), *ROW_TAKE.values())
"""Every routine a sort kernel may call."""

KEY_WORK, TAKE_WORK = 8, 3
"""Scalar ops a row routine runs per element, as `parallelize` counts a
nest's (dialects/loop/calls.py)."""

FLOAT_FIELDS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}
"""Exponent and mantissa bits of the floats `ROW_KEYS` keys."""


def key_bits(element) -> int:
    """The routine's key width for keys of this element type."""
    if isinstance(element, AnyFloat):
        bits = 32 if format_of(element) is not None else element.bitwidth
    else:
        assert isinstance(element, IntegerType)
        bits = element.width.data
    return 32 if bits <= 32 else 64


def lower_sort_routine(op: SortOp, name: str, key: SortKey) -> KernelOp:
    """The kernel of a sort of at least two elements per row."""
    kb = KernelBuilder(op, name)
    ix = kb.ix
    sizes = shape(op.inputs[0])
    axis = op.sort_dimension
    n = sizes[axis]
    others = [size for d, size in enumerate(sizes) if d != axis]
    rows = prod(others)
    element = op.inputs[key.operand].type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    bits = key_bits(element)
    key_type = IntegerType(bits)
    keys, order, work = kb.scratch(
        [
            MemRefType(key_type, [rows, n]),
            MemRefType(i32, [rows, n]),
            MemRefType(i8, [rows, n * (bits // 8 + 4)]),
        ]
    )
    grid = list(sizes)
    grid[axis] = 1

    strides = [prod(sizes[d + 1 :]) for d in range(len(sizes))]
    operand = op.inputs[key.operand]
    row_keys = _row_keys(kb, element, key) if _argument(operand) else None
    takes = {i: _take(x) for i, x in enumerate(op.inputs) if _argument(x)}
    looped = [i for i in range(len(op.inputs)) if i not in takes]

    def row(idx: Indices) -> None:
        number = ix.const(0)
        base = ix.const(0)
        for d, size in enumerate(sizes):
            if d != axis:
                number = ix.add(ix.mul(number, size), idx[d])
                base = ix.add(base, ix.mul(idx[d], strides[d]))
        place = [ix.const(n), number]
        row_at = [base, ix.const(strides[axis])]

        def at(position: SSAValue) -> Indices:
            along = list(idx)
            along[axis] = position
            return along

        def write_key(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            value = kb.load(kb.inputs[key.operand], at(j))
            kb.store(_unsigned_key(kb, value, key, bits), keys, [number, j])
            return []

        if row_keys is None:
            kb.for_loop(0, n, [], write_key)
        else:
            routine, constants = row_keys
            operand = kb.inputs[key.operand]
            arguments = [*place, keys, operand, *row_at, *constants]
            kb.call(routine, arguments, work=KEY_WORK * n)
        kb.call(SORT_KEYS[bits], [*place, keys, order, work])
        for i, take in takes.items():
            arguments = [*place, order, kb.inputs[i], kb.outputs[i], *row_at]
            kb.call(take, arguments, work=TAKE_WORK * n)

        def move(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            position = kb.load(order, [number, j])
            source = kb.place(arith.IndexCastOp(position, IndexType()))
            for i in looped:
                kb.store(kb.load(kb.inputs[i], at(source)), kb.outputs[i], at(j))
            return []

        if looped:
            kb.for_loop(0, n, [], move)

    kb.parallel(grid, row)
    return kb.finish()


def _argument(operand: SSAValue) -> bool:
    """Whether an operand is the program's (a block argument), which no
    kernel writes. Another kernel's result is keyed and moved by the
    kernel's own loops: they read the operand's row alone, so that
    `fuse-kernels` can run its producer in the same row loop (argsort's
    iota is written row by row where the sort reads it)."""
    return isinstance(operand, BlockArgument)


def _take(operand: SSAValue) -> str:
    """The `ROW_TAKE` routine that moves this operand's elements (of 1 to 8
    bytes: complex numbers are pairs of floats by now, `split-complex`)."""
    width = byte_width(operand.type.get_element_type())  # pyright: ignore[reportAttributeAccessIssue]
    assert width is not None and 8 * width in ROW_TAKE, operand.type
    return ROW_TAKE[8 * width]


def row_key_bits(element) -> int | None:
    """The width of the `ROW_KEYS` routine that keys these elements, or
    None: floats of their own bits and bf16 (the top half of its f32: its
    bits order as its f32 value's), integers of 8 to 64 bits."""
    if isinstance(element, AnyFloat):
        return element.bitwidth if element.name in FLOAT_FIELDS else None
    assert isinstance(element, IntegerType)
    bits = element.width.data
    return bits if bits in ROW_KEYS else None


def key_flips(element, key: SortKey) -> tuple[int, int]:
    """(flip_negative, flip_positive): the key's bits are an element's bits
    xor the first where its top bit is set, the second where not, as
    unsigned patterns. A float's totalOrder key flips its magnitude bits
    where the sign is set; then ascending keys flip the sign, descending
    ones every other bit; an integer's key as `_unsigned_key` makes it."""
    bits = row_key_bits(element)
    assert bits is not None
    ones, sign = (1 << bits) - 1, 1 << (bits - 1)
    direction = ones ^ sign if key.descending else sign
    if key.order in ("total", "canonical"):
        return (sign - 1) ^ direction, direction
    flip = ones if key.descending else 0
    if key.order == "signed":
        flip ^= sign
    return flip, flip


def _row_keys(
    kb: KernelBuilder, element, key: SortKey
) -> tuple[str, list[SSAValue]] | None:
    """The `ROW_KEYS` routine for the key operand and its constant
    arguments (flips, and the float's infinity and quiet NaN for JAX's
    comparator, else zeros), or None where the kernel keys the row."""
    bits = row_key_bits(element)
    if bits is None:
        return None
    infinity = nan = 0
    if key.order == "canonical":
        exponent, mantissa = FLOAT_FIELDS[element.name]
        infinity = ((1 << exponent) - 1) << mantissa
        nan = infinity | 1 << (mantissa - 1)
    patterns = (*key_flips(element, key), infinity, nan)
    type_ = IntegerType(bits)
    constants = [kb.const(signed_pattern(p, bits), type_) for p in patterns]
    return ROW_KEYS[bits], constants


def _unsigned_key(
    kb: KernelBuilder, value: SSAValue, key: SortKey, bits: int
) -> SSAValue:
    """`value` as an unsigned integer of `bits` bits in the key's order."""
    if key.order in ("total", "canonical"):
        if format_of(value.type) is not None:
            value = kb.place(arith.ExtFOp(value, f32))
        if key.order == "canonical":
            value = _canonical(kb, value)
        signed = total_order_key(kb.place, value)
    else:
        signed = value
    int_type = signed.type
    assert isinstance(int_type, IntegerType)
    width = int_type.width.data
    flip = 0 if key.order == "unsigned" else 1 << (width - 1)
    if key.descending:
        flip ^= (1 << width) - 1
    if flip:
        mask = kb.place(
            arith.ConstantOp(IntegerAttr(signed_pattern(flip, width), int_type))
        )
        signed = kb.place(arith.XOrIOp(signed, mask))
    if width < bits:
        signed = kb.place(arith.ExtUIOp(signed, IntegerType(bits)))
    return signed


def _canonical(kb: KernelBuilder, x: SSAValue) -> SSAValue:
    """JAX's canonicalization: NaN -> the positive quiet NaN, -0 -> +0."""
    float_type = x.type
    assert isinstance(float_type, AnyFloat)
    zero = kb.place(arith.ConstantOp(FloatAttr(0.0, float_type)))
    nan = kb.place(arith.ConstantOp(FloatAttr(float("nan"), float_type)))
    is_zero = kb.place(arith.CmpfOp(x, zero, "oeq"))
    is_nan = kb.place(arith.CmpfOp(x, x, "uno"))
    unsigned_zero = kb.place(arith.SelectOp(is_zero, zero, x))
    return kb.place(arith.SelectOp(is_nan, nan, unsigned_zero))


def signed_pattern(value: int, width: int) -> int:
    """An unsigned `width`-bit pattern as the signed value an attribute takes."""
    return value - (1 << width) if value >> (width - 1) else value
