"""`int-in-float`: integer work a vector CPU does lane by lane, as float code.

Two kinds of integer op keep a loop that LLVM would vectorize scalar on
x86 (and Arm's NEON): a division by a value it does not know (no vector
integer divide: one `idiv` per lane), and a float to integer conversion
(`arith.fptosi`/`fptoui` lower to the saturating `llvm.fptosi.sat`, as
xDSL's llvm dialect has no plain `fptosi`, which x86's backend turns into
one scalar conversion and one branch, for NaN, per lane). The other ops of
a fused elementwise loop then run one element at a time with them. This
pass writes both, in every `loop.kernel`, on integers of at most 32 bits
(scalars or vectors), as float code that vectorizes and gives the same
results:

* **Divisions** (`arith.divsi`, `divui`, `remsi`, `remui`): both operands
  converted to f64 (to f32 for 16 bits or fewer), divided, the quotient
  truncated (`math.trunc`) and read back (`integer_bits`); a remainder is
  `a - q * b`. Exact: for |a| < 2^w and 1 <= |b| < 2^w (w = 32 unsigned,
  31 signed), a quotient that is not an integer is at least 1/|b| from the
  nearest one, while the rounded float quotient is within |a/b| 2^-p of
  it (p = 53 for f64, 24 for f32): 2^(w-p)/|b| < 1/|b| for w <= 32 with
  f64 and w <= 16 with f32, so truncation gives the integer quotient; an
  integer quotient is exact in the float. `a - q * b` wraps as the integer
  op would. What the integer op leaves undefined (a zero divisor, the
  signed minimum over -1) gives the low bits of the float's result, where
  the integer op's lowering would be undefined behaviour; `hlo-to-loop`
  guards both. Left alone: a divisor that is a constant
  (`analysis/known_integers.py`: a constant, a splat, `hlo-to-loop`'s
  guard of one), which LLVM divides with a multiply and shifts, faster than
  a float division.
* **Conversions** of an f16, f32 or f64 value: widened to f64 (to f32 for
  16 bits or fewer from an f16 or f32: their range and every integer in it
  are exact in f32, and a vector of f32 holds twice the lanes), clamped to
  the integer type's range, truncated, read back, NaN sent to 0: the
  saturating conversion's results.

Left alone: 64-bit integers and `index` (f64 has no room for them), and
conversions to i1.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    VectorType,
    f32,
    f64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.known_integers import known
from xlir.analysis.loop_utils import kernel_ops_of
from xlir.dialects.arith import VECTOR_FORMS
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
UNSIGNED_DIVISIONS = (arith.DivUIOp, arith.RemUIOp)

MAGIC = {64: 1.5 * 2.0**52, 32: 1.5 * 2.0**23}
"""By float width: added to an integer-valued float of magnitude below a
quarter of it, a sum whose low bits are the integer's two's complement."""

CONVERSIONS = (
    arith.FPToSIOp,
    arith.FPToUIOp,
    VECTOR_FORMS[arith.FPToSIOp],
    VECTOR_FORMS[arith.FPToUIOp],
)
UNSIGNED_CONVERSIONS = (arith.FPToUIOp, VECTOR_FORMS[arith.FPToUIOp])


def integer_bits(value: Value, integer: IntegerType) -> Value:
    """An integer-valued f32 or f64 `value` (below 2^22 or 2^51 in
    magnitude) as an `integer` of at most its width: the low bits of
    `value + MAGIC`, exact in the float, whose last bits are the value's
    two's complement."""
    float_ = value.element
    assert isinstance(float_, Float32Type | Float64Type)
    bits = (value + MAGIC[float_.bitwidth]).bits()
    return bits if bits.element == integer else bits.truncate(integer)


def float_for(width: int) -> AnyFloat | None:
    """The float whose quotients of `width`-bit integers truncate exactly
    (module docstring), or None."""
    if width <= 16:
        return f32
    if width <= 32:
        return f64
    return None


def divide_in_float(op: Operation) -> None:
    """Replace one division or remainder by its float form, where it has
    one (module docstring)."""
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
    to_float = arith.UIToFPOp if isinstance(op, UNSIGNED_DIVISIONS) else arith.SIToFPOp

    def converted(value: SSAValue) -> Value:
        return code.made(code.form(to_float), (value,), code.shaped(float_))

    quotient = code.made(
        math.TruncOp, ((converted(dividend) / converted(divisor)).ssa,)
    )
    result = integer_bits(quotient, element)
    if isinstance(op, arith.RemSIOp | arith.RemUIOp):
        result = code.wrap(dividend) - result * code.wrap(divisor)
    Rewriter.replace_op(op, (), [result.ssa])


def convert_in_float(op: Operation) -> None:
    """Replace one conversion by its float code, where it has one (module
    docstring)."""
    source, result = op.operands[0].type, op.results[0].type
    lanes = source.get_shape()[0] if isinstance(source, VectorType) else None
    element = source.element_type if isinstance(source, VectorType) else source
    integer = result.element_type if isinstance(result, VectorType) else result
    if not isinstance(element, Float16Type | Float32Type | Float64Type):
        return
    assert isinstance(integer, IntegerType)
    width = integer.width.data
    if not 1 < width <= 32:
        return
    if isinstance(op, UNSIGNED_CONVERSIONS):
        low, high = 0.0, float((1 << width) - 1)
    else:
        low, high = float(-(1 << (width - 1))), float((1 << (width - 1)) - 1)
    code = ScalarBuilder(Builder(InsertPoint.before(op)), None, lanes)
    x = code.wrap(op.operands[0])
    float_ = f64 if isinstance(element, Float64Type) else float_for(width)
    assert float_ is not None  # 1 < width <= 32
    wide = x if element == float_ else x.extend(float_)
    clamped = code.select(wide.lt(low), low, code.select(wide.gt(high), high, wide))
    truncated = code.made(math.TruncOp, (clamped.ssa,))
    converted = code.select(x.is_nan(), 0, integer_bits(truncated, integer))
    Rewriter.replace_op(op, (), [converted.ssa])


@dataclass(frozen=True)
class IntInFloatPass(ModulePass):
    """Integer divisions and float to integer conversions in kernels as
    float code (module docstring)."""

    name = "int-in-float"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for found in kernel_ops_of(op, DIVISIONS + CONVERSIONS):
            if isinstance(found, DIVISIONS):
                divide_in_float(found)
            else:
                convert_in_float(found)
