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
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import SortOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.scalar import total_order_key
from xlir.passes.hlo.sort_routines import SortKey
from xlir.passes.loop.float_formats import format_of

SORT_KEYS = {32: "xlir.sort_keys32", 64: "xlir.sort_keys64"}
"""The routine for keys of each width."""


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

    def row(idx: Indices) -> None:
        number = ix.const(0)
        for d, size in enumerate(sizes):
            if d != axis:
                number = ix.add(ix.mul(number, size), idx[d])

        def at(position: SSAValue) -> Indices:
            moved = list(idx)
            moved[axis] = position
            return moved

        def write_key(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            value = kb.load(kb.inputs[key.operand], at(j))
            kb.store(_unsigned_key(kb, value, key, bits), keys, [number, j])
            return []

        kb.for_loop(0, n, [], write_key)
        kb.call(SORT_KEYS[bits], [ix.const(n), number, keys, order, work])

        def move(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            position = kb.load(order, [number, j])
            source = kb.place(arith.IndexCastOp(position, IndexType()))
            for operand, result in zip(kb.inputs, kb.outputs, strict=True):
                kb.store(kb.load(operand, at(source)), result, at(j))
            return []

        kb.for_loop(0, n, [], move)

    kb.parallel(grid, row)
    return kb.finish()


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
