"""`int-dot-in-f32`: a dot of narrow integers computed on f32 operands when
f32 holds every partial sum exactly.

An int8 dot (i8 x i8 -> i32) multiplies and adds in i32, and a CPU's vector
integer multiply is slow (AVX-512's `vpmulld`: two micro-ops on one port,
16 products a cycle at best) where its FMA units do 32 f32 multiply-adds a
cycle on the float dots' register tiles and packed panels (`register-tile`,
`pack-panels`). Converting the elements inside the dot's loop costs a
conversion and a broadcast per element of the lhs and every tile of the
rhs; converted beforehand, once per element, the dot is an f32 dot.

A product of an m-bit and an n-bit integer has magnitude at most 2^(m-1) *
2^(n-1) (both signed), 2^(m-1) * (2^n - 1) (one unsigned) or (2^m - 1) *
(2^n - 1) (both unsigned); every integer up to 2^24 is an f32. When the
contracted extent times the largest product stays within 2^24, every
product and partial sum, in any order and with any blocking or FMA, is an
integer f32 holds exactly, so the f32 result converted to the integer type
is the integer dot's, bit for bit (with a result of at least 32 bits,
which the exact sum does not overflow). An int8 dot contracting up to 1024
elements qualifies; a longer one stays integer.

    %d = stablehlo.dot_general %a, %b ... -> tensor<512x1024xi32>

becomes

    %af = stablehlo.convert %a : ... -> tensor<512x1024xf32>
    %bf = stablehlo.convert %b : ... -> tensor<1024x1024xf32>
    %df = stablehlo.dot_general %af, %bf ... -> tensor<512x1024xf32>
    %d = stablehlo.convert %df : ... -> tensor<512x1024xi32>

A conversion of the result to a float type converts the f32 result instead
(the integer is exact in f32, so it rounds once, to the same value): an
int8 matmul's dequantization reads the f32 sums, not sums converted to i32
and back, whose guarded float-to-int conversion (NaN, saturation: compares
and selects) keeps the register tile from vector copies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, TensorType, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.elementwise import ConvertOp
from xlir.dialects.stablehlo.types import element_type, is_unsigned, shape
from xlir.passes.hlo.int_dot_quads import is_byte_quad_dot

EXACT_LIMIT = 1 << 24
"""Every integer up to this magnitude is an f32."""


def _largest_magnitude(tensor: Attribute) -> int | None:
    """The largest magnitude an element of an integer tensor takes (None for
    other element types, and for i1)."""
    element = element_type(tensor)
    if not isinstance(element, IntegerType) or element.width.data < 2:
        return None
    bits = element.width.data
    return (1 << bits) - 1 if is_unsigned(element) else 1 << (bits - 1)


def exact_in_f32(op: DotGeneralOp) -> bool:
    """Whether the dot's f32 sums are exact integers (module docstring); a
    dot of byte quads (`int-dot-quads`) stays one."""
    if is_byte_quad_dot(op):
        return False
    result = element_type(op.result.type)
    if not isinstance(result, IntegerType) or result.width.data < 32:
        return False
    lhs, rhs = _largest_magnitude(op.lhs.type), _largest_magnitude(op.rhs.type)
    if lhs is None or rhs is None:
        return False
    contracted = op.dot_dimension_numbers.lhs_contracting_dimensions.data
    extent = math.prod(shape(op.lhs.type)[d] for d in contracted)
    return extent * lhs * rhs <= EXACT_LIMIT


def _in_f32(value: SSAValue, rewriter: PatternRewriter, op: DotGeneralOp) -> SSAValue:
    converted = ConvertOp(value, TensorType(f32, shape(value.type)))
    converted.location = op.location
    rewriter.insert(converted)
    return converted.result


class DotInF32(RewritePattern):
    """An exact integer dot_general → convert(dot_general(convert a,
    convert b) in f32)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        if not exact_in_f32(op):
            return
        lhs, rhs = _in_f32(op.lhs, rewriter, op), _in_f32(op.rhs, rewriter, op)
        dot = DotGeneralOp(
            lhs,
            rhs,
            op.dot_dimension_numbers,
            op.precision_config,
            TensorType(f32, shape(op.result.type)),
        )
        dot.location = op.location
        rewriter.insert(dot)
        for use in list(op.result.uses):
            user = use.operation
            if isinstance(user, ConvertOp) and isinstance(
                element_type(user.result.type), AnyFloat
            ):
                if user.result.type == dot.result.type:
                    rewriter.replace(user, [], [dot.result])
                    continue
                again = ConvertOp(dot.result, user.result.type)
                again.location = user.location
                rewriter.replace(user, again)
        if not op.result.uses:
            rewriter.erase(op)
            return
        back = ConvertOp(dot.result, op.result.type)
        back.location = op.location
        rewriter.replace(op, back)


@dataclass(frozen=True)
class IntDotInF32Pass(ModulePass):
    """Exact narrow-integer dots on f32 operands (module docstring)."""

    name = "int-dot-in-f32"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DotInF32(), apply_recursively=False).rewrite_module(op)
