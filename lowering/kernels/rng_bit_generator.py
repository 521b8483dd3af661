"""`stablehlo.rng_bit_generator` as one kernel that produces the reference
interpreter's bits and next state exactly (evaluator/hlo/rng.py
documents the generators and their counter and key conventions).

The generators are counter-based, so the blocks are independent: a
`loop.parallel` over the blocks runs Threefry-2x32-20 (THREE_FRY) or
Philox-4x32-10 (PHILOX, DEFAULT) in `arith` on `i32` words, Philox's
32x32->64 products widened to `i64`. The key schedule depends only on the
state, so the nest computes it once, outside the loop. A block's 2 or 4
words are the little-endian bytes of the next elements: one word per 32-bit
element, two per 64-bit one (low word first), and 8- and 16-bit elements cut
from a word's low bytes first; floats are those bits. A last, partial block
is computed after the loop for the elements left. The next state keeps the
key and advances the counter by the number of blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    MemRefType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp
from xlir.dialects.stablehlo.control_flow import RngBitGeneratorOp
from xlir.dialects.stablehlo.enums import (
    RngAlgorithm,
)
from xlir.evaluator.hlo.rng import (
    PHILOX_MULTIPLIERS,
    PHILOX_WEYL,
    THREEFRY_PARITY,
    THREEFRY_ROTATIONS,
)
from xlir.lowering.index_maps import shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.scalar import UnsupportedScalarOp, scalar_type

WORD_BITS = 32
BITS_TYPES = (IntegerType, Float16Type, BFloat16Type, Float32Type, Float64Type)
"""Element types whose elements are bits of the stream as they are (of
integers, those of 8, 16, 32 or 64 bits)."""


class Words:
    """Wrapping `i32`/`i64` arithmetic in a kernel, placed by its nest; each
    constant made once, at the kernel's top."""

    def __init__(self, kb: KernelBuilder):
        self.kb = kb
        self._constants: dict[tuple[int, Attribute], SSAValue] = {}

    def const(self, value: int, type_: Attribute = i32) -> SSAValue:
        key = (value, type_)
        if key not in self._constants:
            self._constants[key] = self.kb.const(value, type_)
        return self._constants[key]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.AddiOp(a, b))

    def xor(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.XOrIOp(a, b))

    def shift_right(self, a: SSAValue, bits: int) -> SSAValue:
        if bits == 0:
            return a
        return self.kb.place(arith.ShRUIOp(a, self.const(bits, a.type)))

    def rotate_left(self, a: SSAValue, bits: int) -> SSAValue:
        left = self.kb.place(arith.ShLIOp(a, self.const(bits)))
        return self.kb.place(arith.OrIOp(left, self.shift_right(a, WORD_BITS - bits)))

    def low(self, a: SSAValue, type_: IntegerType = i32) -> SSAValue:
        """The low bits of a wider integer."""
        return self.kb.place(arith.TruncIOp(a, type_))

    def split(self, double: SSAValue) -> list[SSAValue]:
        """A 64-bit integer's (low, high) words."""
        return [self.low(double), self.low(self.shift_right(double, WORD_BITS))]

    def join(self, low: SSAValue, high: SSAValue) -> SSAValue:
        """The 64-bit integer of (low, high) words."""
        low, high = (self.kb.place(arith.ExtUIOp(w, i64)) for w in (low, high))
        high = self.kb.place(arith.ShLIOp(high, self.const(WORD_BITS, i64)))
        return self.kb.place(arith.OrIOp(low, high))

    def wide_product(self, a: SSAValue, multiplier: int) -> list[SSAValue]:
        """The (low, high) words of the 64-bit product of a word and a
        constant."""
        wide = self.kb.place(arith.ExtUIOp(a, i64))
        return self.split(
            self.kb.place(arith.MuliOp(wide, self.const(multiplier, i64)))
        )


def threefry(w: Words, key: Sequence[SSAValue], x: Sequence[SSAValue]):
    """Threefry-2x32-20 of the counter words `x` under `key`."""
    parity = w.const(THREEFRY_PARITY)
    schedule = [key[0], key[1], w.xor(w.xor(key[0], key[1]), parity)]
    x0, x1 = w.add(x[0], schedule[0]), w.add(x[1], schedule[1])
    for group in range(5):
        first = (group % 2) * 4
        for bits in THREEFRY_ROTATIONS[first : first + 4]:
            x0 = w.add(x0, x1)
            x1 = w.xor(w.rotate_left(x1, bits), x0)
        x0 = w.add(x0, schedule[(group + 1) % 3])
        x1 = w.add(w.add(x1, schedule[(group + 2) % 3]), w.const(group + 1))
    return [x0, x1]


def philox(w: Words, key: Sequence[SSAValue], counter: Sequence[SSAValue]):
    """Philox-4x32-10 of the counter words under `key`."""
    k0, k1 = key
    c0, c1, c2, c3 = counter
    for round_ in range(10):
        if round_:
            k0 = w.add(k0, w.const(PHILOX_WEYL[0]))
            k1 = w.add(k1, w.const(PHILOX_WEYL[1]))
        low0, high0 = w.wide_product(c0, PHILOX_MULTIPLIERS[0])
        low1, high1 = w.wide_product(c2, PHILOX_MULTIPLIERS[1])
        c0, c1, c2, c3 = (
            w.xor(w.xor(high1, c1), k0),
            low1,
            w.xor(w.xor(high0, c3), k1),
            low0,
        )
    return [c0, c1, c2, c3]


def _check_types(op: RngBitGeneratorOp) -> None:
    state_type = scalar_type(op.initial_state.type)
    if not (isinstance(state_type, IntegerType) and state_type.width.data == 64):
        raise UnsupportedScalarOp(
            op, f"needs a ui64 state, but the state has type {op.initial_state.type}"
        )
    words = shape(op.initial_state)[0]
    three_fry = op.rng_algorithm.data == RngAlgorithm.THREE_FRY
    if words not in ((2,) if three_fry else (2, 3)):
        raise UnsupportedScalarOp(
            op, f"with a state of {words} elements is not supported"
        )
    element = scalar_type(op.output.type)
    if not isinstance(element, BITS_TYPES) or element.bitwidth not in (8, 16, 32, 64):
        raise UnsupportedScalarOp(op, f"with {element} elements is not supported")


def lower_rng_bit_generator(op: RngBitGeneratorOp, name: str) -> KernelOp:
    _check_types(op)
    kb = KernelBuilder(op, name)
    w = Words(kb)
    (state,) = kb.inputs
    next_state, bits = kb.outputs
    state_words = shape(op.initial_state)[0]
    state_values = [kb.load(state, [kb.ix.const(i)]) for i in range(state_words)]
    key = w.split(state_values[0])
    three_fry = op.rng_algorithm.data == RngAlgorithm.THREE_FRY
    block_words = 2 if three_fry else 4

    def counter(offset: SSAValue) -> list[SSAValue]:
        """The 64-bit words of the state's counter plus `offset` (Philox's
        is 128 bits, the high word 0 in a 2-element state)."""
        low = w.add(state_values[1], offset)
        if three_fry:
            return [low]
        carry = kb.place(arith.CmpiOp(low, state_values[1], "ult"))
        high = state_values[2] if state_words == 3 else w.const(0, i64)
        return [low, w.add(high, kb.place(arith.ExtUIOp(carry, i64)))]

    element = scalar_type(op.output.type)
    assert isinstance(element, BITS_TYPES)
    width = element.bitwidth
    per_block = block_words * WORD_BITS // width
    count = prod(shape(op.output))
    flat = bits
    if list(shape(op.output)) != [count]:
        flat = kb.place(ReshapeOp(bits, MemRefType(element, [count])))

    def element_of(words: list[SSAValue], e: int) -> SSAValue:
        if width == 64:
            value = w.join(words[2 * e], words[2 * e + 1])
        else:
            per_word = WORD_BITS // width
            word = w.shift_right(words[e // per_word], width * (e % per_word))
            value = word if width == WORD_BITS else w.low(word, IntegerType(width))
        if isinstance(element, IntegerType):
            return value
        return kb.place(arith.BitcastOp(value, element))

    def block(index: SSAValue, elements: int) -> None:
        offset = kb.place(arith.IndexCastOp(index, i64))
        x = [word for double in counter(offset) for word in w.split(double)]
        words = threefry(w, key, x) if three_fry else philox(w, key, x)
        first = kb.ix.mul(index, per_block)
        for e in range(elements):
            kb.store(element_of(words, e), flat, [kb.ix.add(first, e)])

    full, left = divmod(count, per_block)
    if full:
        kb.parallel([full], lambda idx: block(idx[0], per_block))
    if left:
        block(kb.ix.const(full), left)
    blocks = full + (1 if left else 0)
    advanced = counter(w.const(blocks, i64))
    for i, value in enumerate([state_values[0], *advanced][:state_words]):
        kb.store(value, next_state, [kb.ix.const(i)])
    return kb.finish()


KERNELS = {"stablehlo.rng_bit_generator": lower_rng_bit_generator}
