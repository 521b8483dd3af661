"""Algebraic identities on elementwise ops, as XLA's AlgebraicSimplifier has
them, with IEEE semantics kept unless `fast-math` is on.

Always (every element type unless said):
  x + (-0.0) → x, x + 0 → x (integers), x - (+0.0) → x, x - 0 → x (integers),
  x * 1 → x, x / 1 → x, -(-x) → x, not(not x) → x,
  and/or/min/max(x, x) → x, x * 0 → 0, x - x → 0 and x xor x → 0 (integers),
  select(splat p, a, b) → a or b,
  compare(x, x) → splat (integers, booleans, and TOTALORDER floats),
  x / c → x * (1/c) for floats when every element of c is ±2^k and both c
  and 1/c are normal finite values of the element type (then both round the
  same real number, and no subnormal meets flush-to-zero hardware).

With fast-math (they change results on -0.0, ±inf or NaN):
  x + (+0.0) → x (-0.0 + 0.0 is +0.0), x - (-0.0) → x, x * 0.0 → 0.0
  (inf * 0 is NaN), x - x → 0.0 (inf - inf is NaN), and compare(x, x) of
  floats (NaN compares unequal to itself).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.dialects.stablehlo.elementwise import (
    AddOp,
    AndOp,
    CompareOp,
    DivideOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    NegateOp,
    NotOp,
    OrOp,
    SelectOp,
    SubtractOp,
    XorOp,
)
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.dialects.stablehlo.types import (
    element_type,
    is_complex,
    is_float,
    is_quantized,
)
from xlir.evaluator.hlo.types import dtype_of
from xlir.passes.hlo.simplify_patterns.constants import (
    constant_array,
    dense_from_numpy,
    splat_ops,
    splat_scalar,
)


def _is_float(value: SSAValue) -> bool:
    return is_float(element_type(value.type))


def _identities_hold(value: SSAValue) -> bool:
    """False for complex values (a product mixes the parts, so (inf + 0i) * 1
    has a NaN part) and quantized ones (their zero is the zero point): the
    arithmetic identities here are left alone for them."""
    element = element_type(value.type)
    return not (is_complex(element) or is_quantized(element))


def _is_zero(scalar: np.ndarray | None, sign: bool | None = None) -> bool:
    """A zero; for floats of the given sign (True: -0.0) unless None."""
    if scalar is None or scalar != 0:
        return False
    return sign is None or bool(np.signbit(scalar)) == sign


def _is_one(scalar: np.ndarray | None) -> bool:
    return scalar is not None and scalar == 1


@dataclass
class AddZero(RewritePattern):
    """x + 0 → x; for floats the zero must be -0.0 unless fast-math."""

    fast_math: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        sign = None if self.fast_math or not _is_float(op.lhs) else True
        for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            if _is_zero(splat_scalar(c), sign):
                rewriter.replace(op, (), (x,))
                return


@dataclass
class SubtractZero(RewritePattern):
    """x - 0 → x; for floats the zero must be +0.0 unless fast-math."""

    fast_math: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubtractOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        sign = None if self.fast_math or not _is_float(op.lhs) else False
        if _is_zero(splat_scalar(op.rhs), sign):
            rewriter.replace(op, (), (op.lhs,))


@dataclass
class SelfCancel(RewritePattern):
    """x - x → 0 and x xor x → 0, for integers (floats: x - x with fast-math)."""

    fast_math: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: SubtractOp | XorOp, rewriter: PatternRewriter
    ) -> None:
        if not _identities_hold(op.lhs):
            return
        if op.lhs is not op.rhs or (_is_float(op.lhs) and not self.fast_math):
            return
        zero = np.zeros((), dtype_of(op.result.type))
        rewriter.replace(op, splat_ops(op.result.type, zero))


class MultiplyOne(RewritePattern):
    """x * 1 → x (exact for every element type, NaN and ±0.0 included)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MultiplyOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        for x, c in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            if _is_one(splat_scalar(c)):
                rewriter.replace(op, (), (x,))
                return


@dataclass
class MultiplyZero(RewritePattern):
    """x * 0 → 0 for integers; for floats only with fast-math (inf * 0 is NaN,
    -1 * 0 is -0)."""

    fast_math: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MultiplyOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        if _is_float(op.lhs) and not self.fast_math:
            return
        for c in (op.rhs, op.lhs):
            if _is_zero(splat_scalar(c)):
                rewriter.replace(op, (), (c,))
                return


class DivideOne(RewritePattern):
    """x / 1 → x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivideOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        if _is_one(splat_scalar(op.rhs)):
            rewriter.replace(op, (), (op.lhs,))


class DivideByPowerOfTwo(RewritePattern):
    """x / c → x * (1/c) for floats when every element of c is ±2^k and 1/c is
    a finite normal number: then 1/c is exact and both sides are the same real
    number rounded once. A subnormal c or 1/c is refused, since hardware that
    flushes subnormals would read it as 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivideOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        if not _is_float(op.rhs):
            return
        divisor = constant_array(op.rhs)
        if divisor is None or divisor.size == 0:
            return
        with np.errstate(all="ignore"):
            mantissa, _ = np.frexp(divisor)
            reciprocal = np.reciprocal(divisor)
        tiny = np.finfo(divisor.dtype).tiny
        if not (
            (np.abs(mantissa) == 0.5).all()
            and np.isfinite(reciprocal).all()
            and (np.abs(reciprocal) >= tiny).all()
            and (np.abs(divisor) >= tiny).all()
        ):
            return
        assert isinstance(op.rhs.type, TensorType)
        constant = ConstantOp(dense_from_numpy(reciprocal, op.rhs.type))
        product = MultiplyOp(op.lhs, constant.output, op.result.type)
        rewriter.replace(op, (constant, product))


class DoubleNegation(RewritePattern):
    """-(-x) → x and not(not x) → x (exact, integer wrap-around included)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: NegateOp | NotOp, rewriter: PatternRewriter
    ) -> None:
        inner = op.operand.owner
        if type(inner) is type(op):
            assert isinstance(inner, NegateOp | NotOp)
            rewriter.replace(op, (), (inner.operand,))


class Idempotent(RewritePattern):
    """and/or/min/max(x, x) → x (exact: max(NaN, NaN) is that NaN)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: AndOp | OrOp | MaximumOp | MinimumOp, rewriter: PatternRewriter
    ) -> None:
        if op.lhs is op.rhs:
            rewriter.replace(op, (), (op.lhs,))


class SelectConstantPredicate(RewritePattern):
    """select(p, a, b) → a or b when p is a splat constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectOp, rewriter: PatternRewriter) -> None:
        pred = splat_scalar(op.pred)
        if pred is not None:
            rewriter.replace(op, (), (op.on_true if pred else op.on_false,))


_REFLEXIVE = {
    ComparisonDirection.EQ: True,
    ComparisonDirection.GE: True,
    ComparisonDirection.LE: True,
    ComparisonDirection.NE: False,
    ComparisonDirection.LT: False,
    ComparisonDirection.GT: False,
}


@dataclass
class CompareSame(RewritePattern):
    """compare(x, x) → a splat: EQ/GE/LE true, NE/LT/GT false. For floats
    only under TOTALORDER (where NaN equals itself) or with fast-math."""

    fast_math: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CompareOp, rewriter: PatternRewriter) -> None:
        if not _identities_hold(op.lhs):
            return
        if op.lhs is not op.rhs:
            return
        total = (
            op.compare_type is not None
            and op.compare_type.data == ComparisonType.TOTALORDER
        )
        if _is_float(op.lhs) and not (total or self.fast_math):
            return
        value = np.asarray(_REFLEXIVE[op.comparison_direction.data])
        rewriter.replace(op, splat_ops(op.result.type, value))


def arithmetic_patterns(fast_math: bool) -> list[RewritePattern]:
    return [
        AddZero(fast_math),
        SubtractZero(fast_math),
        SelfCancel(fast_math),
        MultiplyOne(),
        MultiplyZero(fast_math),
        DivideOne(),
        DivideByPowerOfTwo(),
        DoubleNegation(),
        Idempotent(),
        SelectConstantPredicate(),
        CompareSame(fast_math),
    ]
