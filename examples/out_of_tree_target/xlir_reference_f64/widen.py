"""Every f16, bf16 and f32 of a module becomes f64: tensor and function
types, block arguments and float constants (xDSL's TypeConversionPattern
does the walking)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FunctionType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker, TypeConversionPattern

NARROW = (Float16Type, BFloat16Type, Float32Type)


def _element(element: Attribute) -> Attribute:
    if isinstance(element, NARROW):
        return Float64Type()
    if isinstance(element, ComplexType) and isinstance(element.element_type, NARROW):
        return ComplexType(Float64Type())
    return element


class _ToF64(TypeConversionPattern):
    def convert_type(self, typ: Attribute, /) -> Attribute | None:
        if isinstance(typ, DenseIntOrFPElementsAttr):
            element = typ.get_element_type()
            if not isinstance(element, NARROW):
                return None
            shape = TensorType(Float64Type(), typ.get_shape())
            return DenseIntOrFPElementsAttr.from_list(shape, list(typ.get_values()))
        if isinstance(typ, TensorType):
            element = _element(typ.get_element_type())
            if element == typ.get_element_type():
                return None
            return TensorType(element, typ.get_shape())
        if isinstance(typ, FunctionType):
            inputs = [self.convert_type(t) or t for t in typ.inputs]
            outputs = [self.convert_type(t) or t for t in typ.outputs]
            return FunctionType.from_lists(inputs, outputs)
        widened = _element(typ)
        return widened if widened != typ else None


class WidenToF64Pass(ModulePass):
    name = "widen-to-f64"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_ToF64()).rewrite_module(op)
