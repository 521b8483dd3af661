"""`float-to-int-bits`: float to 32-bit integer conversions as float code.

`arith.fptosi` and `arith.fptoui` lower to LLVM's saturating
`llvm.fptosi.sat`/`llvm.fptoui.sat` (xDSL's llvm dialect has no plain
`fptosi`), which x86's backend turns into one scalar conversion per lane,
each with a branch for NaN: a loop that converts (a `stablehlo.convert` to
an integer, a quantization) stays scalar around them. This pass writes, in
every `loop.kernel`, each such conversion of an f16, f32 or f64 value
(scalar or vector) to an integer of at most 32 bits as code that
vectorizes, with the same results: the value widened to f64, clamped to
the integer type's range, truncated (`math.trunc`), read back as an integer
(`integer_bits`), and NaN sent to 0.

Left alone: 64-bit results (f64 has no room for the read-back), and
sources of other types.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    VectorType,
    f64,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.dialects.arith import VECTOR_FORMS
from xlir.dialects.loop.kernel import KernelOp
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

MAGIC = {64: 1.5 * 2.0**52, 32: 1.5 * 2.0**23}
"""By float width: added to an integer-valued float of magnitude below a
quarter of it, a sum whose low bits are the integer's two's complement."""

CONVERSIONS = (
    arith.FPToSIOp,
    arith.FPToUIOp,
    VECTOR_FORMS[arith.FPToSIOp],
    VECTOR_FORMS[arith.FPToUIOp],
)
UNSIGNED = (arith.FPToUIOp, VECTOR_FORMS[arith.FPToUIOp])


def integer_bits(value: Value, integer: IntegerType) -> Value:
    """An integer-valued f32 or f64 `value` (below 2^22 or 2^51 in
    magnitude) as an `integer` of at most its width: the low bits of
    `value + MAGIC`, exact in the float, whose last bits are the value's
    two's complement."""
    float_ = value.element
    assert isinstance(float_, Float32Type | Float64Type)
    bits = (value + MAGIC[float_.bitwidth]).bits()
    return bits if bits.element == integer else bits.truncate(integer)


def in_float(op: Operation) -> None:
    """Replace one conversion by its float code, where it has one (module
    docstring)."""
    if not isinstance(op, CONVERSIONS):
        return
    source, result = op.operands[0].type, op.results[0].type
    lanes = source.get_shape()[0] if isinstance(source, VectorType) else None
    element = source.element_type if isinstance(source, VectorType) else source
    integer = result.element_type if isinstance(result, VectorType) else result
    if not isinstance(element, Float16Type | Float32Type | Float64Type):
        return
    assert isinstance(integer, IntegerType)
    width = integer.width.data
    if width > 32:
        return
    if isinstance(op, UNSIGNED):
        low, high = 0.0, float((1 << width) - 1)
    else:
        low, high = float(-(1 << (width - 1))), float((1 << (width - 1)) - 1)
    code = ScalarBuilder(Builder(InsertPoint.before(op)), None, lanes)
    x = code.wrap(op.operands[0])
    wide = x if isinstance(element, Float64Type) else x.extend(f64)
    clamped = code.select(wide.lt(low), low, code.select(wide.gt(high), high, wide))
    truncated = code.made(math.TruncOp, (clamped.ssa,))
    converted = code.select(x.is_nan(), 0, integer_bits(truncated, integer))
    op.results[0].replace_all_uses_with(converted.ssa)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class FloatToIntBitsPass(ModulePass):
    """Float to 32-bit integer conversions in kernels as float code (module
    docstring)."""

    name = "float-to-int-bits"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, KernelOp):
                for inner in list(kernel.walk()):
                    in_float(inner)
