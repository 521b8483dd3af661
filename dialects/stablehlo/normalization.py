"""Batch normalization: batch_norm_inference, batch_norm_training and
batch_norm_grad, over every dimension but `feature_index`. They print in the
generic form, as StableHLO does:

    %y = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %variance)
           {epsilon = 1.0e-03 : f32, feature_index = 1 : i64}
           : (tensor<2x3xf32>, tensor<3xf32>, ...) -> tensor<2x3xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.types import element_type, is_float, shape


def _verify_batch_norm(
    op: Operation,
    operand: SSAValue,
    features: Sequence[tuple[str, SSAValue]],
    same_as_operand: Sequence[tuple[str, SSAValue]],
    feature_index: int,
) -> None:
    """The operand has float elements and a `feature_index` dimension; each
    of `features` is 1-D with one element per feature; each of
    `same_as_operand` has the operand's type."""
    dims = shape(operand.type)
    element = element_type(operand.type)
    if not is_float(element):
        raise VerifyException(
            f"'{op.name}' op operand must have float elements, but has {element}"
        )
    if not 0 <= feature_index < len(dims):
        raise VerifyException(
            f"'{op.name}' op feature_index {feature_index} is out of range for "
            f"rank {len(dims)}"
        )
    want = TensorType(element, [dims[feature_index]])
    for what, value in features:
        if value.type != want:
            raise VerifyException(
                f"'{op.name}' op {what} must have type {want} (one element per "
                f"feature), but has {value.type}"
            )
    for what, value in same_as_operand:
        if value.type != operand.type:
            raise VerifyException(
                f"'{op.name}' op {what} must have the operand's type "
                f"{operand.type}, but has {value.type}"
            )


class _BatchNormOp(IRDLOperation):
    epsilon = prop_def(FloatAttr)
    feature_index = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())


@irdl_op_definition
class BatchNormInferenceOp(_BatchNormOp):
    """(operand - mean) / sqrt(variance + epsilon) * scale + offset."""

    name = "stablehlo.batch_norm_inference"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self) -> None:
        _verify_batch_norm(
            self,
            self.operand,
            [
                ("scale", self.scale),
                ("offset", self.offset),
                ("mean", self.mean),
                ("variance", self.variance),
            ],
            [("result", self.result)],
            self.feature_index.value.data,
        )


@irdl_op_definition
class BatchNormTrainingOp(_BatchNormOp):
    """Normalizes with the batch's own mean and (biased) variance, and
    returns them too."""

    name = "stablehlo.batch_norm_training"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    output = result_def(TensorType)
    batch_mean = result_def(TensorType)
    batch_var = result_def(TensorType)

    def verify_(self) -> None:
        _verify_batch_norm(
            self,
            self.operand,
            [
                ("scale", self.scale),
                ("offset", self.offset),
                ("batch_mean", self.batch_mean),
                ("batch_var", self.batch_var),
            ],
            [("output", self.output)],
            self.feature_index.value.data,
        )


@irdl_op_definition
class BatchNormGradOp(_BatchNormOp):
    """The gradients of batch_norm_training's output with respect to its
    operand, scale and offset, given the output's gradient."""

    name = "stablehlo.batch_norm_grad"
    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    grad_output = operand_def(TensorType)
    grad_operand = result_def(TensorType)
    grad_scale = result_def(TensorType)
    grad_offset = result_def(TensorType)

    def verify_(self) -> None:
        _verify_batch_norm(
            self,
            self.operand,
            [
                ("scale", self.scale),
                ("mean", self.mean),
                ("variance", self.variance),
                ("grad_scale", self.grad_scale),
                ("grad_offset", self.grad_offset),
            ],
            [("grad_output", self.grad_output), ("grad_operand", self.grad_operand)],
            self.feature_index.value.data,
        )


NORMALIZATION_OPS: list[type[IRDLOperation]] = [
    BatchNormInferenceOp,
    BatchNormTrainingOp,
    BatchNormGradOp,
]
