"""uniform_quantize and uniform_dequantize: between floats and quantized
integers (`!quant.uniform`, see dialects/quant.py).

    %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
    %x = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.quant import UniformQuantizedType
from xlir.dialects.stablehlo.elementwise import UnaryElementwiseOp
from xlir.dialects.stablehlo.types import element_type, is_float, shape


def _check_shapes(op: UnaryElementwiseOp) -> None:
    if shape(op.operand.type) != shape(op.result.type):
        raise VerifyException(
            f"'{op.name}' op result shape {list(shape(op.result.type))} must equal "
            f"the operand shape {list(shape(op.operand.type))}"
        )


@irdl_op_definition
class UniformQuantizeOp(UnaryElementwiseOp):
    """Quantize floats (or requantize quantized values) to the result's
    quantized type: round_nearest_even(x / scale + zero_point), clamped to
    the storage range."""

    name = "stablehlo.uniform_quantize"
    PRINT_FUNCTIONAL: ClassVar[bool] = True

    def verify_(self) -> None:
        _check_shapes(self)
        source, target = element_type(self.operand.type), element_type(self.result.type)
        if not isinstance(target, UniformQuantizedType):
            raise VerifyException(
                f"'{self.name}' op result must have quantized elements, not {target}"
            )
        if not (is_float(source) or isinstance(source, UniformQuantizedType)):
            raise VerifyException(
                f"'{self.name}' op operand must have float or quantized elements, "
                f"not {source}"
            )


@irdl_op_definition
class UniformDequantizeOp(UnaryElementwiseOp):
    """The floats quantized values stand for: (q - zero_point) * scale."""

    name = "stablehlo.uniform_dequantize"
    PRINT_FUNCTIONAL: ClassVar[bool] = True

    def verify_(self) -> None:
        _check_shapes(self)
        source, target = element_type(self.operand.type), element_type(self.result.type)
        if not isinstance(source, UniformQuantizedType):
            raise VerifyException(
                f"'{self.name}' op operand must have quantized elements, not {source}"
            )
        if target != source.expressed_type:
            raise VerifyException(
                f"'{self.name}' op result must have the expressed type "
                f"{source.expressed_type} elements, not {target}"
            )


QUANTIZATION_OPS: list[type[IRDLOperation]] = [UniformQuantizeOp, UniformDequantizeOp]
