"""Building the stablehlo that replaces one op: elementwise arithmetic on
tensors of one shape, each new op carrying the location of the op it replaces.

Constants are scalar `stablehlo.constant`s broadcast to the shape and made
once per value, so a formula that uses 0.5 three times reads one `%cst`.
Special functions are computed in a "compute type": f32 and f64 as they are,
f16 and bf16 in f32 (converted on the way in and out), so each approximation
only needs coefficients for f32 and f64.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float64Type,
    IntegerType,
    TensorType,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
    ComparisonType,
)
from xlir.dialects.stablehlo.types import element_type, is_float, shape


def scalar(element: Attribute, value: float) -> DenseIntOrFPElementsAttr:
    """`value` as a 0-d constant of an integer or float element type."""
    if isinstance(element, IntegerType):
        return DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [int(value)])
    assert isinstance(element, AnyFloat), f"no constants of {element} here"
    return DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [float(value)])


def compute_type(element: Attribute) -> Attribute:
    """f64 stays f64; every other float is computed in f32."""
    return element if isinstance(element, Float64Type) else f32


class Emitter:
    """Inserts ops before `op` (the one being replaced) with its location."""

    def __init__(self, rewriter: PatternRewriter, op: Operation, element: Attribute):
        self.rewriter = rewriter
        self.op = op
        self.shape = shape(op.operands[0].type)
        self.element = element
        self.is_f64 = isinstance(element, Float64Type)
        self._constants: dict[tuple[Attribute, bytes | int], SSAValue] = {}

    def tensor(self, element: Attribute | None = None) -> TensorType:
        return TensorType(element or self.element, self.shape)

    def emit(self, op: Operation) -> SSAValue:
        op.location = self.op.location
        self.rewriter.insert(op)
        return op.results[0]

    # --- values --------------------------------------------------------------

    def const(self, value: float, element: Attribute | None = None) -> SSAValue:
        """`value` in the compute type (or `element`, a float or integer
        type), broadcast to the shape."""
        element = element or self.element
        assert isinstance(element, AnyFloat | IntegerType)
        if isinstance(element, AnyFloat):
            number: bytes | int = struct.pack("<d", float(value))
        else:
            number = int(value)
        key = (element, number)
        if key not in self._constants:
            single = self.emit(ConstantOp(scalar(element, value)))
            self._constants[key] = self.emit(
                BroadcastInDimOp(single, [], self.tensor(element))
            )
        return self._constants[key]

    def convert(self, x: SSAValue, element: Attribute) -> SSAValue:
        if element_type(x.type) == element:
            return x
        return self.emit(ew.ConvertOp(x, self.tensor(element)))

    # --- arithmetic ----------------------------------------------------------

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.AddOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.SubtractOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.MultiplyOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.DivideOp(a, b))

    def max(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.MaximumOp(a, b))

    def and_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.AndOp(a, b))

    def or_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.OrOp(a, b))

    def atan2(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(ew.Atan2Op(a, b))

    def unary(self, op_type: type[ew.UnaryElementwiseOp], x: SSAValue) -> SSAValue:
        return self.emit(op_type(x))

    def clamp(self, low: float, x: SSAValue, high: float) -> SSAValue:
        return self.emit(ew.ClampOp(self.const(low), x, self.const(high)))

    def compare(
        self, direction: ComparisonDirection, a: SSAValue, b: SSAValue
    ) -> SSAValue:
        kind = ComparisonType.FLOAT if is_float(element_type(a.type)) else None
        return self.emit(ew.CompareOp(a, b, direction, kind))

    def select(self, pred: SSAValue, on_true: SSAValue, on_false: SSAValue) -> SSAValue:
        return self.emit(ew.SelectOp(pred, on_true, on_false))

    def polynomial(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """Horner's rule; `coefficients` run from the highest degree down."""
        result = self.const(coefficients[0])
        for c in coefficients[1:]:
            result = self.add(self.mul(result, x), self.const(c))
        return result
