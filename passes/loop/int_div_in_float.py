"""`int-div-in-float`: 32-bit integer divisions as float divisions.

A CPU without a vector integer divide (x86 up to AVX-512, Arm's NEON)
divides integers one lane at a time, and LLVM leaves a loop that divides
by a value it does not know scalar: the other ops of a fused elementwise
loop run one element at a time with it. This pass writes, in every
`loop.kernel`, `arith.divsi`, `divui`, `remsi` and `remui` on integers of
at most 32 bits (scalars or vectors) as a float division, which vectorizes:
both operands converted to f64 (to f32 for 16 bits or fewer), divided,
the quotient truncated (`math.trunc`) and read back as an integer
(`float_to_int_bits.integer_bits`: the conversion ops lower to code x86
runs one lane at a time). A remainder is `a - q * b`.

Exact: for |a| < 2^w and 1 <= |b| < 2^w (w = 32 unsigned, 31 signed), a
quotient that is not an integer is at least 1/|b| from the nearest one,
while the rounded float quotient is within |a/b| 2^-p of it (p = 53 for
f64, 24 for f32): 2^(w-p)/|b| < 1/|b| for w <= 32 with f64 and w <= 16
with f32, so truncation gives the integer quotient; an integer quotient is
exact in the float. `a - q * b` wraps as the integer op would. What the
integer op leaves undefined (a zero divisor, the signed minimum over -1)
gives the low bits of the float's result (inf and NaN: other bits),
where the integer op's lowering would be undefined behaviour;
`hlo-to-loop` guards both.

Left alone: 64-bit integers and `index` (not exact in f64), and a divisor
that is a constant (LLVM divides by a constant with a multiply and
shifts, faster than a float division): a constant, a splat of one, or a
select, compare, `andi` or `ori` that comes to one whatever the other
operands are (`hlo-to-loop`'s guard against a zero divisor, `select(b ==
0 | (a == MIN & b == -1), 1, b)`, of a constant `b`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    f32,
    f64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.dialects.loop.kernel import KernelOp
from xlir.passes.loop.float_to_int_bits import integer_bits
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
UNSIGNED = (arith.DivUIOp, arith.RemUIOp)


def float_for(width: int) -> AnyFloat | None:
    """The float whose quotients of `width`-bit integers truncate exactly
    (module docstring), or None."""
    if width <= 16:
        return f32
    if width <= 32:
        return f64
    return None


def known(value: SSAValue, depth: int = 8) -> int | None:
    """The integer `value` always is (an i1 as 0 or 1), where its ops alone
    say so, else None; `depth` bounds the search up the operands."""
    op = value.owner
    if depth == 0 or not isinstance(op, Operation):
        return None
    if isinstance(op, arith.ConstantOp):
        attribute = op.value
        if isinstance(attribute, DenseIntOrFPElementsAttr) and attribute.is_splat():
            attribute = attribute.get_attrs()[0]
        if isinstance(attribute, IntegerAttr):
            return _signed(attribute.value.data, value.type)
        return None
    if isinstance(op, vector.BroadcastOp):
        return known(op.source, depth - 1)
    if isinstance(op, arith.SelectOp):
        condition = known(op.cond, depth - 1)
        if condition is not None:
            return known(op.lhs if condition else op.rhs, depth - 1)
        chosen = known(op.lhs, depth - 1)
        return chosen if chosen == known(op.rhs, depth - 1) else None
    if isinstance(op, arith.AndIOp | arith.OrIOp):
        lhs, rhs = known(op.lhs, depth - 1), known(op.rhs, depth - 1)
        absorbing = 0 if isinstance(op, arith.AndIOp) else _signed(-1, value.type)
        if absorbing in (lhs, rhs):
            return absorbing
        if lhs is None or rhs is None:
            return None
        both = lhs & rhs if isinstance(op, arith.AndIOp) else lhs | rhs
        return _signed(both, value.type)
    if isinstance(op, arith.CmpiOp):
        lhs, rhs = known(op.lhs, depth - 1), known(op.rhs, depth - 1)
        if lhs is None or rhs is None:
            return None
        return int(_compare(op.predicate.value.data, lhs, rhs, _width(op.lhs.type)))
    return None


def _width(type_: Attribute) -> int:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    assert isinstance(element, IntegerType)
    return element.width.data


def _signed(number: int, type_: Attribute) -> int:
    """`number` as a signed value of the type's width (an i1: 0 or 1)."""
    width = _width(type_)
    if width == 1:
        return number & 1
    number &= (1 << width) - 1
    return number - (1 << width) if number >> (width - 1) else number


def _compare(predicate: int, lhs: int, rhs: int, width: int) -> bool:
    """`arith.cmpi`'s predicates in order: eq, ne, slt, sle, sgt, sge, ult,
    ule, ugt, uge (operands signed, as `known` gives them)."""
    if predicate >= 6:
        lhs, rhs = lhs % (1 << width), rhs % (1 << width)
        predicate -= 4
    return [
        lhs == rhs,
        lhs != rhs,
        lhs < rhs,
        lhs <= rhs,
        lhs > rhs,
        lhs >= rhs,
    ][predicate]


def in_float(op: Operation) -> None:
    """Replace one division or remainder by its float form, where it has
    one (module docstring)."""
    if not isinstance(op, DIVISIONS):
        return
    dividend, divisor = op.operands
    type_ = dividend.type
    lanes = type_.get_shape()[0] if isinstance(type_, VectorType) else None
    element = type_.element_type if isinstance(type_, VectorType) else type_
    if not isinstance(element, IntegerType):
        return  # index
    float_ = float_for(element.width.data)
    if float_ is None or known(divisor) is not None:
        return
    code = ScalarBuilder(Builder(InsertPoint.before(op)), None, lanes)
    to_float = arith.UIToFPOp if isinstance(op, UNSIGNED) else arith.SIToFPOp

    def converted(value: SSAValue) -> Value:
        return code.made(code.form(to_float), (value,), code.shaped(float_))

    quotient = code.made(
        math.TruncOp, ((converted(dividend) / converted(divisor)).ssa,)
    )
    result = integer_bits(quotient, element)
    if isinstance(op, arith.RemSIOp | arith.RemUIOp):
        result = code.wrap(dividend) - result * code.wrap(divisor)
    op.results[0].replace_all_uses_with(result.ssa)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class IntDivInFloatPass(ModulePass):
    """32-bit integer divisions in kernels as float divisions (module
    docstring)."""

    name = "int-div-in-float"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, KernelOp):
                for inner in list(kernel.walk()):
                    in_float(inner)
