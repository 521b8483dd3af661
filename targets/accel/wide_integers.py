"""64-bit integers on XA-1's 32-bit units, as compilers for 32-bit cores
emulate them (manual table 2.7: an i64 is two i32 words, low word first,
carries via `sltu`).

Before `loop-to-accel` lowers a kernel, every i64 value of it becomes a
pair (lo, hi) of i32 values computed by i32 `arith` ops, which lower as any
other: add and subtract with a carry or borrow from an unsigned compare,
multiply from 16-bit halves (XA-1 has no high-half multiply), shifts by
constants and by values (amounts of 64 or more give 0, or the sign, as
the evaluator's), bitwise ops, compares (signed and unsigned: the high
words decide unless equal), select, min/max, absolute values (negated
where the high word is negative), leading zeros and population counts
(from each word's), extensions, truncations and
index casts (an index is a signed 32-bit value on XA-1: an i64 outside
its range saturates, so that the clamp of a start index such as
zero-extended ui32 4294967295 still clamps to the end). A buffer of i64
(and each reshape of it) becomes one of i32 with a last dimension of 2 (the same bytes in DRAM:
the DMA moves it raw, twice the row bytes), so tiling, layout and vector
lanes see plain i32 code; a loop's i64 carried values become two each.

A kernel with an i64 op this does not emulate (divisions, conversions to
or from floats, i64 scalar arguments) is left as it is, so that
`loop-to-accel`'s diagnostic lists its ops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp
from xlir.targets.accel.loop_to_accel import EXTSI, EXTUI, TRUNCI

WORD = IntegerType(32)
BIT = IntegerType(1)
MASK32 = 0xFFFFFFFF

Pair = tuple[SSAValue, SSAValue]

BITWISE = (arith.AndIOp, arith.OrIOp, arith.XOrIOp)
SHIFTS = (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)
MIN_MAX = {
    arith.MaxSIOp: "sgt",
    arith.MinSIOp: "slt",
    arith.MaxUIOp: "ugt",
    arith.MinUIOp: "ult",
}
"""Min and max as a compare (keeping the first operand where it holds)
and a select."""
EMULATED = (
    arith.ConstantOp,
    arith.AddiOp,
    arith.SubiOp,
    arith.MuliOp,
    *BITWISE,
    *SHIFTS,
    *MIN_MAX,
    arith.CmpiOp,
    arith.SelectOp,
    arith.IndexCastOp,
    *EXTSI,
    *EXTUI,
    *TRUNCI,
    math.AbsIOp,
    math.CountLeadingZerosOp,
    math.CtPopOp,
    LoadOp,
    StoreOp,
    ReshapeOp,
    ForOp,
    YieldOp,
)
"""The ops that may take or give i64 values or buffers."""
WIDE_OPS = (
    "which XA-1 emulates only in add, subtract, multiply, bitwise ops, shifts, "
    "compares, select, min/max, absolute values, bit counts, integer casts, "
    "loads, stores and reshapes"
)
"""Why an op on i64 that is not one of `EMULATED` cannot run."""


def is_wide(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 64


def word_buffer(type_: MemRefType) -> MemRefType:
    """The i32 buffer of the same bytes as a buffer of i64."""
    return MemRefType(WORD, [*type_.get_shape(), 2])


def _signed32(value: int) -> int:
    value &= MASK32
    return value - (1 << 32) if value >> 31 else value


def _touches_wide(op: Operation) -> bool:
    values = [*op.operands, *op.results]
    if any(is_wide(v.type) for v in values):
        return True
    return any(_wide_buffer(v) for v in values)


def _wide_buffer(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType) and is_wide(value.type.element_type)


def _buffer_uses_emulated(buffer: SSAValue) -> bool:
    """Whether an i64 buffer is only loaded, stored and reshaped (the
    reshapes' buffers likewise)."""
    for use in buffer.uses:
        user = use.operation
        if isinstance(user, ReshapeOp):
            if not _buffer_uses_emulated(user.result):
                return False
        elif not isinstance(user, LoadOp | StoreOp) or user.buffer is not buffer:
            return False
    return True


def emulates(kernel: KernelOp) -> bool:
    """Whether every i64 value of `kernel` is one this module emulates."""
    for argument in kernel.body.block.args:
        if is_wide(argument.type):
            return False
        if _wide_buffer(argument) and not _buffer_uses_emulated(argument):
            return False
    for op in kernel.body.walk():
        if not _touches_wide(op):
            continue
        if not isinstance(op, EMULATED):
            return False
        if isinstance(op, LoadOp | StoreOp):
            value = op.result if isinstance(op, LoadOp) else op.value
            if not is_wide(value.type):  # a vector of i64
                return False
    return True


class Emitter:
    """Builds i32 `arith` ops before one op."""

    def __init__(self, before: Operation):
        self.before = before

    def place(self, op: Operation) -> None:
        block = self.before.parent_block()
        assert block is not None
        block.insert_op_before(op, self.before)

    def add_op(self, op: Operation) -> SSAValue:
        """Insert `op`; its result."""
        self.place(op)
        return op.results[0]

    def constant(self, value: int, type_: IntegerType = WORD) -> SSAValue:
        if type_ == BIT:
            return self.add_op(arith.ConstantOp(IntegerAttr(value & 1, BIT)))
        return self.add_op(arith.ConstantOp(IntegerAttr(_signed32(value), type_)))

    def binary(
        self, kind: Callable[[SSAValue, SSAValue], Operation], a: SSAValue, b: SSAValue
    ) -> SSAValue:
        return self.add_op(kind(a, b))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.AddiOp, a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.SubiOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.MuliOp, a, b)

    def and_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.AndIOp, a, b)

    def or_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary(arith.OrIOp, a, b)

    def shift(self, kind: type[Operation], a: SSAValue, amount: int | SSAValue):
        """`a` shifted by an amount in 0-31."""
        if isinstance(amount, int):
            if amount == 0:
                return a
            amount = self.constant(amount)
        return self.add_op(kind(a, amount))  # pyright: ignore[reportCallIssue]

    def compare(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add_op(arith.CmpiOp(a, b, predicate))

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        known = known_constant(condition)
        if known is not None:
            return a if known & 1 else b
        return self.add_op(arith.SelectOp(condition, a, b))

    def bit(self, condition: SSAValue) -> SSAValue:
        """An i1 as the i32 0 or 1."""
        return self.add_op(arith.ExtUIOp(condition, WORD))

    def sign(self, word: SSAValue) -> SSAValue:
        """The word of `word`'s sign: 0 or -1."""
        return self.shift(arith.ShRSIOp, word, 31)


def known_constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class WideIntegers:
    """The emulation of one kernel's i64 values (module docstring)."""

    def __init__(self) -> None:
        self.pairs: dict[SSAValue, Pair] = {}
        self.buffers: dict[SSAValue, SSAValue] = {}
        self.dead: list[Operation] = []

    def pair(self, value: SSAValue) -> Pair:
        return self.pairs[value]

    def known(self, value: SSAValue) -> int | None:
        """The 64-bit pattern an i64 value is known to hold."""
        lo, hi = (known_constant(v) for v in self.pair(value))
        if lo is None or hi is None:
            return None
        return (lo & MASK32) | (hi & MASK32) << 32

    # --- the ops --------------------------------------------------------------

    def legalize(self, op: Operation) -> None:
        at = Emitter(op)
        if isinstance(op, LoadOp):
            buffer = self.buffers[op.buffer]
            words = [
                at.add_op(LoadOp(buffer, [*op.indices, at.add_op(index_constant(i))]))
                for i in (0, 1)
            ]
            self.pairs[op.result] = (words[0], words[1])
        elif isinstance(op, StoreOp):
            buffer = self.buffers[op.buffer]
            for i, word in enumerate(self.pair(op.value)):
                index = at.add_op(index_constant(i))
                at.place(StoreOp(word, buffer, [*op.indices, index]))
        elif isinstance(op, ReshapeOp):
            assert isinstance(op.result.type, MemRefType)
            reshaped = ReshapeOp(self.buffers[op.source], word_buffer(op.result.type))
            self.buffers[op.result] = at.add_op(reshaped)
        elif isinstance(op, YieldOp):
            at.place(YieldOp(*self.flat(op.operands)))
        elif isinstance(op, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            op.results[0].replace_all_uses_with(
                self.compare(at, predicate, op.lhs, op.rhs)
            )
        elif isinstance(op, TRUNCI):
            low = self.pair(op.operands[0])[0]
            target = op.results[0].type
            assert isinstance(target, IntegerType)
            narrow = low if target == WORD else at.add_op(arith.TruncIOp(low, target))
            op.results[0].replace_all_uses_with(narrow)
        elif isinstance(op, arith.IndexCastOp) and not is_wide(op.result.type):
            word = self.saturated_word(at, self.pair(op.input))
            op.result.replace_all_uses_with(
                at.add_op(arith.IndexCastOp(word, IndexType()))
            )
        else:
            self.pairs[op.results[0]] = self.value(at, op)
        self.dead.append(op)

    def unary(self, at: Emitter, op: Operation, pair: Pair) -> Pair:
        """absi (the negation, borrowing from the high word, where the high
        word is negative), ctlz (the high word's, or 32 more than the low
        word's where the high word is 0) and ctpop (the words' sum)."""
        low, high = pair
        if isinstance(op, math.AbsIOp):
            zero = at.constant(0)
            borrow = at.bit(at.compare("ne", low, zero))
            negated = at.sub(zero, low), at.sub(at.sub(zero, high), borrow)
            negative = at.compare("slt", high, zero)
            return at.select(negative, negated[0], low), at.select(
                negative, negated[1], high
            )
        if isinstance(op, math.CtPopOp):
            counts = [at.add_op(math.CtPopOp(word)) for word in (low, high)]
            return at.add(*counts), at.constant(0)
        counts = [at.add_op(math.CountLeadingZerosOp(word)) for word in (low, high)]
        in_low = at.add(counts[0], at.constant(32))
        high_zero = at.compare("eq", high, at.constant(0))
        return at.select(high_zero, in_low, counts[1]), at.constant(0)

    def saturated_word(self, at: Emitter, pair: Pair) -> SSAValue:
        """The i32 nearest the i64 `pair`: its low word where the high word
        is only the low word's sign."""
        low, high = pair
        known = known_constant(low)
        if known is not None and known_constant(high) == (-1 if known < 0 else 0):
            return low
        fits = at.compare("eq", high, at.sign(low))
        negative = at.compare("slt", high, at.constant(0))
        nearest = at.select(negative, at.constant(-(1 << 31)), at.constant(MASK32 >> 1))
        return at.select(fits, low, nearest)

    def value(self, at: Emitter, op: Operation) -> Pair:
        """The pair of an op whose result is an i64."""
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, IntegerAttr)
            bits = op.value.value.data
            return at.constant(bits), at.constant(bits >> 32)
        if isinstance(op, arith.AddiOp):
            (a, b), (c, d) = self.pair(op.lhs), self.pair(op.rhs)
            low = at.add(a, c)
            carry = at.bit(at.compare("ult", low, a))
            return low, at.add(at.add(b, d), carry)
        if isinstance(op, arith.SubiOp):
            (a, b), (c, d) = self.pair(op.lhs), self.pair(op.rhs)
            borrow = at.bit(at.compare("ult", a, c))
            return at.sub(a, c), at.sub(at.sub(b, d), borrow)
        if isinstance(op, arith.MuliOp):
            return self.multiply(at, self.pair(op.lhs), self.pair(op.rhs))
        if isinstance(op, BITWISE):
            (a, b), (c, d) = self.pair(op.lhs), self.pair(op.rhs)
            kind = type(op)
            return at.binary(kind, a, c), at.binary(kind, b, d)
        lhs, rhs = op.operands[0], op.operands[-1]
        if isinstance(op, SHIFTS):
            return self.shift(at, op, self.pair(lhs), rhs)
        if type(op) in MIN_MAX:
            first = self.compare(at, MIN_MAX[type(op)], lhs, rhs)
            return self.select(at, first, lhs, rhs)
        if isinstance(op, arith.SelectOp):
            return self.select(at, op.cond, op.lhs, op.rhs)
        if isinstance(op, math.AbsIOp | math.CountLeadingZerosOp | math.CtPopOp):
            return self.unary(at, op, self.pair(op.operands[0]))
        if isinstance(op, arith.IndexCastOp):
            low = at.add_op(arith.IndexCastOp(op.input, WORD))
            return low, at.sign(low)
        source = op.operands[0]
        assert isinstance(source.type, IntegerType)
        width = source.type.width.data
        if isinstance(op, EXTSI):
            low = source if width == 32 else at.add_op(arith.ExtSIOp(source, WORD))
            return low, at.sign(low)
        assert isinstance(op, EXTUI)
        low = source if width == 32 else at.add_op(arith.ExtUIOp(source, WORD))
        return low, at.constant(0)

    def flat(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        """`values` with each i64 as its two words."""
        return [w for v in values for w in (self.pair(v) if is_wide(v.type) else (v,))]

    def select(
        self, at: Emitter, condition: SSAValue, a: SSAValue, b: SSAValue
    ) -> Pair:
        (a0, a1), (b0, b1) = self.pair(a), self.pair(b)
        return at.select(condition, a0, b0), at.select(condition, a1, b1)

    def multiply(self, at: Emitter, x: Pair, y: Pair) -> Pair:
        """The low 64 bits of x * y: the low words' full product (its high
        word from 16-bit halves) plus the cross products' low words."""
        (a, b), (c, d) = x, y
        high = at.add(self.high_product(at, a, c), at.add(at.mul(a, d), at.mul(b, c)))
        return at.mul(a, c), high

    def high_product(self, at: Emitter, a: SSAValue, c: SSAValue) -> SSAValue:
        """The high word of the unsigned 64-bit product of two words: four
        16 x 16-bit products, the middle column's carries added in."""
        ka, kc = known_constant(a), known_constant(c)
        if ka is not None and kc is not None:
            return at.constant(((ka & MASK32) * (kc & MASK32)) >> 32)
        halves = at.constant(0xFFFF)
        a0, a1 = at.and_(a, halves), at.shift(arith.ShRUIOp, a, 16)
        c0, c1 = at.and_(c, halves), at.shift(arith.ShRUIOp, c, 16)
        low, cross0, cross1 = at.mul(a0, c0), at.mul(a0, c1), at.mul(a1, c0)
        middle = at.add(
            at.shift(arith.ShRUIOp, low, 16),
            at.add(at.and_(cross0, halves), at.and_(cross1, halves)),
        )
        high = at.add(
            at.mul(a1, c1),
            at.add(
                at.shift(arith.ShRUIOp, cross0, 16), at.shift(arith.ShRUIOp, cross1, 16)
            ),
        )
        return at.add(high, at.shift(arith.ShRUIOp, middle, 16))

    def shift(
        self, at: Emitter, op: Operation, value: Pair, amount_value: SSAValue
    ) -> Pair:
        """`value` shifted by an i64 amount: a constant one directly, else
        both cases of the amount's bit 5 selected, and 0 (the sign for
        `shrsi`) for amounts of 64 or more."""
        kind = type(op)
        known = self.known(amount_value)
        if known is not None:
            return self.shift_by(at, kind, value, known)
        amount, above = self.pair(amount_value)
        within = at.and_(amount, at.constant(31))
        small = self.shift_within(at, kind, value, within)
        large = self.shift_across(at, kind, value, within)
        is_large = at.compare("ne", at.and_(amount, at.constant(32)), at.constant(0))
        shifted = [at.select(is_large, g, s) for s, g in zip(small, large, strict=True)]
        out = at.or_(
            at.compare("ne", above, at.constant(0)),
            at.compare("ugt", amount, at.constant(63)),
        )
        fill = self.fill(at, kind, value)
        return at.select(out, fill, shifted[0]), at.select(out, fill, shifted[1])

    def shift_by(
        self, at: Emitter, kind: type[Operation], value: Pair, amount: int
    ) -> Pair:
        if amount >= 64:
            fill = self.fill(at, kind, value)
            return fill, fill
        if amount >= 32:
            return self.shift_across(at, kind, value, amount - 32)
        return self.shift_within(at, kind, value, amount)

    def fill(self, at: Emitter, kind: type[Operation], value: Pair) -> SSAValue:
        """Both words of a shift by 64 or more."""
        return at.sign(value[1]) if kind is arith.ShRSIOp else at.constant(0)

    def shift_within(
        self, at: Emitter, kind: type[Operation], value: Pair, amount: int | SSAValue
    ) -> Pair:
        """A shift by 0-31: each word shifted, with the bits that cross
        between them (moved by 32 - amount in two steps, so that no shift
        reaches 32)."""
        low, high = value
        back = (
            31 - amount if isinstance(amount, int) else at.sub(at.constant(31), amount)
        )
        if kind is arith.ShLIOp:
            crossing = at.shift(arith.ShRUIOp, at.shift(arith.ShRUIOp, low, 1), back)
            return at.shift(kind, low, amount), at.or_(
                at.shift(kind, high, amount), crossing
            )
        crossing = at.shift(arith.ShLIOp, at.shift(arith.ShLIOp, high, 1), back)
        return at.or_(at.shift(arith.ShRUIOp, low, amount), crossing), at.shift(
            kind, high, amount
        )

    def shift_across(
        self, at: Emitter, kind: type[Operation], value: Pair, amount: int | SSAValue
    ) -> Pair:
        """A shift by 32 + `amount` (0-31): one word moves to the other."""
        low, high = value
        if kind is arith.ShLIOp:
            return at.constant(0), at.shift(kind, low, amount)
        top = at.sign(high) if kind is arith.ShRSIOp else at.constant(0)
        return at.shift(kind, high, amount), top

    def compare(
        self, at: Emitter, predicate: str, lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        """An i64 compare as an i1: the high words decide (signed or not as
        the predicate), the low words (unsigned) where they are equal."""
        left, right = self.known(lhs), self.known(rhs)
        if left is not None and right is not None:
            return at.constant(int(_compare(predicate, left, right)), BIT)
        (a, b), (c, d) = self.pair(lhs), self.pair(rhs)
        if predicate in ("eq", "ne"):
            low, high = at.compare(predicate, a, c), at.compare(predicate, b, d)
            join = arith.AndIOp if predicate == "eq" else arith.OrIOp
            return at.binary(join, low, high)
        if predicate[1:] in ("gt", "ge"):  # swapped: a > b is b < a
            (a, b), (c, d) = (c, d), (a, b)
            predicate = predicate[0] + {"gt": "lt", "ge": "le"}[predicate[1:]]
        strict = predicate[0] + "lt"
        above = at.compare(strict, b, d)
        equal = at.compare("eq", b, d)
        low = at.compare("u" + predicate[1:], a, c)
        return at.or_(above, at.and_(equal, low))


def _compare(predicate: str, a: int, b: int) -> bool:
    """An i64 compare of two 64-bit patterns."""
    if predicate[0] == "s" or predicate in ("eq", "ne"):
        a, b = (v - (1 << 64) if v >> 63 else v for v in (a, b))
    name = predicate if predicate in ("eq", "ne") else predicate[1:]
    return {
        "eq": a == b,
        "ne": a != b,
        "lt": a < b,
        "le": a <= b,
        "gt": a > b,
        "ge": a >= b,
    }[name]


def index_constant(value: int) -> Operation:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def legalize_wide_integers(kernel: KernelOp) -> None:
    """Emulate `kernel`'s i64 values with pairs of i32 ones (module
    docstring); a kernel with one this cannot emulate is left as it is."""
    block = kernel.body.block
    if not any(_touches_wide(op) for op in kernel.body.walk()) and not any(
        _wide_buffer(a) for a in block.args
    ):
        return
    if not emulates(kernel):
        return
    legalizer = WideIntegers()
    for argument in list(block.args):
        if _wide_buffer(argument):
            assert isinstance(argument.type, MemRefType)
            words = block.insert_arg(word_buffer(argument.type), argument.index)
            legalizer.buffers[argument] = words
    _legalize_block(legalizer, block)
    for op in reversed(legalizer.dead):
        op.detach()
        op.erase(safe_erase=False)
    for argument in [a for a in legalizer.buffers if isinstance(a, BlockArgument)]:
        block.erase_arg(argument)
    kernel.function_type = FunctionType.from_lists(block.arg_types, [])


def _legalize_block(legalizer: WideIntegers, block: Block) -> None:
    for op in list(block.ops):
        if isinstance(op, ForOp) and any(is_wide(v.type) for v in op.iter_args):
            op = _split_loop(legalizer, op)
        for region in op.regions:
            for inner in region.blocks:
                _legalize_block(legalizer, inner)
        if _touches_wide(op):
            legalizer.legalize(op)


def _split_loop(legalizer: WideIntegers, op: ForOp) -> ForOp:
    """`op` with each i64 carried value as two i32 ones (its body moved
    into the new loop, which is returned; the old one is dead)."""
    old = op.block
    types = [
        t
        for v in op.iter_args
        for t in ((WORD, WORD) if is_wide(v.type) else (v.type,))
    ]
    block = Block(arg_types=[IndexType(), *types])
    loop = ForOp(
        op.lower, op.upper, op.step, legalizer.flat(op.iter_args), Region(block)
    )
    loop.attributes |= op.attributes
    parent = op.parent_block()
    assert parent is not None
    parent.insert_op_before(loop, op)
    old.args[0].replace_all_uses_with(block.args[0])
    _map_split(legalizer, list(old.args[1:]), list(block.args[1:]))
    _map_split(legalizer, list(op.results), list(loop.results))
    for inner in list(old.ops):
        inner.detach()
        block.add_op(inner)
    legalizer.dead.append(op)
    return loop


def _map_split(
    legalizer: WideIntegers, old: list[SSAValue], new: list[SSAValue]
) -> None:
    """Map each of `old` to its value (an i64: its two words) of `new`."""
    position = 0
    for value in old:
        if is_wide(value.type):
            legalizer.pairs[value] = (new[position], new[position + 1])
            position += 2
        else:
            value.replace_all_uses_with(new[position])
            position += 1
