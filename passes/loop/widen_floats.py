"""`widen-floats`: arithmetic on f16, bf16 and the narrow float formats in
f32, as XLA:CPU computes them.

A CPU has no bf16 or float8 arithmetic, and f16 only with AVX512-FP16. In
every `loop.kernel` this pass rewrites each `arith`/`math` op that reads or
makes such a value into the same op on f32: its operands extended (exact),
its result rounded back to the narrow type (to nearest, ties to even), so
each op's result is the narrow value the StableHLO op defines. f32 holds
every bf16 and f16 product, quotient and square root exactly enough that
rounding twice (to f32, then to the narrow type) gives the correctly rounded
result (24 >= 2p + 2 bits), so these agree with the evaluator bit for bit.

Values a `loop.for` carries (reduction accumulators, a dot's sum, a
window's best value) stay in f32 from one iteration to the next and are
rounded once, after the loop: a sum of f16 terms accumulates in f32 (as the
evaluator's numpy sums and XLA's reductions do), not in f16, where 2048 + 1
is 2048.

Negation and absolute value only flip or clear the sign bit (IEEE 754
copies the rest, a signaling NaN's bits included), so on bf16 they become
integer code on its bits (`_flip_sign_bit`) rather than f32 arithmetic,
whose rounding back would quiet a signaling NaN. f16 keeps LLVM's `half`
(which folds the extension, negation and truncation into one sign flip,
and which XA-1 holds in f32 containers without an integer view); the
float8, float6 and float4 formats go through f32 as the evaluator computes
them (it holds them in f32 and rounds each result, quieting a NaN).

Loads and stores keep the narrow types (memory is the narrow bits). f16
conversions stay `extf`/`truncf`, which LLVM has (`half`); those of bf16 and
the float8, float6 and float4 formats become integer code
(`passes/loop/float_formats.py`), and their constants integer constants bitcast
to the type, so the CPU lowering sees those types only in memory, bitcasts
and selects (as the integers that hold their bits). Integers converted to a
narrow format go through f64 (exact up to 32 bits), so they are rounded
once; a target without f64 (`f64=false`: XA-1) takes integers of up to 32
bits (or wider ones whose values fit them) through f32 instead, with the bits f32 cannot hold folded into a
sticky bit below the narrow format's rounding position
(`float_formats.integer_in_f32`), which rounds them once as well.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerType,
    ModuleOp,
    f32,
    f64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.index_ranges import value_range
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp
from xlir.passes.loop.float_formats import (
    bits_in_storage,
    bits_of,
    decode,
    encode,
    format_of,
    from_storage,
    integer_in_f32,
)
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder

from xlir.walk import walk

_KEPT = {"arith.constant", "arith.select", "arith.bitcast"}
"""Ops on narrow values that are exact as they are (the CPU lowering moves
their bits)."""

_CONVERSIONS = {"arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp"}
"""Ops whose narrow operand or result is a conversion (`_convert`)."""


def is_narrow(type_: Attribute) -> bool:
    """f16, bf16 and the float8, float6 and float4 formats."""
    return isinstance(type_, Float16Type) or format_of(type_) is not None


@dataclass(frozen=True)
class WidenFloatsPass(ModulePass):
    """Compute on narrow floats in f32 (module docstring)."""

    name = "widen-floats"

    f64: bool = True
    """Whether the target computes on f64 (integers reach a narrow format
    through it; without, through f32: module docstring)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, KernelOp):
                widen_kernel(kernel, self.f64)


_SIGN_BIT_OPS = {"arith.negf", "math.absf"}
"""Ops that only flip or clear the sign bit (module docstring)."""


def widen_kernel(kernel: KernelOp, f64_conversions: bool = True) -> None:
    for op in list(walk(kernel)):
        if op.name in _SIGN_BIT_OPS and isinstance(op.results[0].type, BFloat16Type):
            _flip_sign_bit(op)
        elif _is_arithmetic(op) and _touches_narrow(op):
            _widen_op(op)
    for op in list(walk(kernel)):
        if isinstance(op, ForOp):
            for index, value in enumerate(op.carried):
                if is_narrow(value.type):
                    _carry_wide(op, index)
    for op in list(walk(kernel)):
        if op.name in _CONVERSIONS or op.name == "arith.constant":
            _convert(op, f64_conversions)


def _is_arithmetic(op: Operation) -> bool:
    """An `arith`/`math` op that computes (not a conversion, nor one kept)."""
    name = op.name
    if name in _KEPT or name in _CONVERSIONS:
        return False
    return name.startswith(("arith.", "math."))


def _touches_narrow(op: Operation) -> bool:
    values = (*op.operands, *op.results)
    return any(is_narrow(v.type) for v in values)


def _flip_sign_bit(op: Operation) -> None:
    """A bf16 negation (sign bit flipped) or absolute value (sign bit
    cleared) as integer code on its bits."""
    code = ScalarBuilder(Builder(InsertPoint.before(op)))
    bits = code.wrap(op.operands[0]).bitcast(IntegerType(16))
    bits = bits ^ 0x8000 if op.name == "arith.negf" else bits & 0x7FFF
    op.results[0].replace_all_uses_with(bits.bitcast(op.results[0].type).ssa)
    op.detach()
    op.erase()


def _widen_op(op: Operation) -> None:
    """The op on f32 operands, its narrow results rounded back."""
    builder = Builder(InsertPoint.before(op))
    operands = [
        builder.insert(arith.ExtFOp(v, f32)).result if is_narrow(v.type) else v
        for v in op.operands
    ]
    wide = op.create(
        operands=operands,
        result_types=[f32 if is_narrow(r.type) else r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    builder.insert(wide)
    for old, new in zip(op.results, wide.results, strict=True):
        if is_narrow(old.type):
            new = builder.insert(arith.TruncFOp(new, old.type)).result
        old.replace_all_uses_with(new)
    op.detach()
    op.erase()


def _carry_wide(loop: ForOp, index: int) -> None:
    """Carry value `index` of `loop` as f32; round it once after the loop."""
    narrow = loop.carried[index].type
    init_index = len(loop.operands) - len(loop.carried) + index
    init = loop.operands[init_index]
    loop.operands[init_index] = _extend(init, Builder(InsertPoint.before(loop)))
    argument = Rewriter.replace_value_with_new_type(loop.carried[index], f32)
    _narrow_uses(argument, narrow, Builder(InsertPoint.at_start(loop.block)))
    yield_op = loop.block.last_op
    assert yield_op is not None
    yielded = yield_op.operands[index]
    yield_op.operands[index] = _extend(yielded, Builder(InsertPoint.before(yield_op)))
    rounding = yielded.owner
    if isinstance(rounding, arith.TruncFOp) and not rounding.result.uses:
        rounding.detach()
        rounding.erase()
    result = Rewriter.replace_value_with_new_type(loop.results[index], f32)
    _narrow_uses(result, narrow, Builder(InsertPoint.after(loop)))


def _extend(value: SSAValue, builder: Builder) -> SSAValue:
    """`value` as f32: the f32 value it was rounded from, where it is one."""
    owner = value.owner
    if isinstance(owner, arith.TruncFOp) and owner.input.type == f32:
        return owner.input
    return builder.insert(arith.ExtFOp(value, f32)).result


def _narrow_uses(wide: SSAValue, narrow: Attribute, builder: Builder) -> None:
    """Uses of `wide` (f32 now) that extend it take it as it is; the others
    take it rounded to `narrow`."""
    rounded: SSAValue | None = None
    for use in list(wide.uses):
        user = use.operation
        if isinstance(user, arith.ExtFOp) and user.result.type == f32:
            user.result.replace_all_uses_with(wide)
            user.detach()
            user.erase()
            continue
        if rounded is None:
            rounded = builder.insert(arith.TruncFOp(wide, narrow)).result
        user.operands[use.index] = rounded


def _fits_32_bits(value: SSAValue) -> bool:
    """Whether an integer has 32 bits or fewer, or holds values that fit
    them (an iota's index cast to i64)."""
    assert isinstance(value.type, IntegerType)
    if value.type.width.data <= 32:
        return True
    owner = value.owner
    if isinstance(owner, arith.IndexCastOp) and isinstance(owner.input.type, IndexType):
        value = owner.input  # the cast keeps an index's value
    known = value_range(value)
    return known is not None and -(2**31) <= known[0] <= known[1] < 2**31


def _convert(op: Operation, f64_conversions: bool) -> None:
    """A conversion from or to a format LLVM lacks as integer code; a
    constant of one as its bits. An integer goes through f64, or where
    `f64_conversions` is off and it fits, through f32 with a sticky bit."""
    source = op.operands[0].type if op.operands else op.results[0].type
    target = op.results[0].type
    source_format, target_format = format_of(source), format_of(target)
    if source_format is None and target_format is None:
        return
    code = ScalarBuilder(Builder(InsertPoint.before(op)))
    if isinstance(op, arith.ConstantOp):
        assert target_format is not None and isinstance(op.value, FloatAttr)
        bits = code.const(
            bits_of(op.value.value.data, target_format), target_format.storage
        )
        result = from_storage(bits, target_format, target)
    else:
        value = code.wrap(op.operands[0])
        if source_format is not None:
            value = decode(code, bits_in_storage(value, source_format), source_format)
        elif isinstance(source, IntegerType):
            if f64_conversions or not _fits_32_bits(value.ssa):
                value = code.emit(type(op)(value.ssa, f64))  # pyright: ignore[reportCallIssue]
            else:
                if source.width.data > 32:
                    value = value.truncate(IntegerType(32))
                value = integer_in_f32(code, value, isinstance(op, arith.UIToFPOp))
        elif isinstance(source, Float16Type):
            value = value.extend(f32)
        if target_format is not None:
            bits = encode(code, value, target_format)
            result = from_storage(bits, target_format, target)
        elif value.type == target:
            result = value
        else:
            assert isinstance(target, AnyFloat) and isinstance(value.type, AnyFloat)
            wider = target.bitwidth > value.type.bitwidth
            result = value.extend(target) if wider else value.truncate(target)
    op.results[0].replace_all_uses_with(result.ssa)
    op.detach()
    op.erase()
