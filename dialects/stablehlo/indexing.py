"""Indexed access: gather and scatter.

Both have only the generic form, as JAX prints them:

    %r = "stablehlo.gather"(%operand, %indices) <{dimension_numbers =
        #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
        start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false,
        slice_sizes = array<i64: 1, 256>}> : (T, Ti) -> T'
    %r = "stablehlo.scatter"(%inputs..., %indices, %updates...) <{
        scatter_dimension_numbers = #stablehlo.scatter<...>, ...}> ({
      ^bb0(%old: tensor<f32>, %new: tensor<f32>):
        stablehlo.return %new : tensor<f32>
    }) : (...) -> ...
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.attributes import (
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import element_kind, verify_result_shape
from xlir.dialects.stablehlo.control_flow import region_block, returned_values
from xlir.dialects.stablehlo.shape_rules import check_rule
from xlir.dialects.stablehlo.types import (
    check_element_kinds,
    element_type,
    shape,
)
from xlir.dialects.syntax import array_values, i64_array


def _bool_attr(value: bool) -> BoolAttr:
    return IntegerAttr(int(value), i1)


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Slices of `operand` at the start indices held in `start_indices`."""

    name = "stablehlo.gather"
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DenseArrayBase[I64])
    indices_are_sorted = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        start_indices: SSAValue,
        dimension_numbers: GatherDimensionNumbersAttr,
        slice_sizes: Sequence[int],
        indices_are_sorted: bool | None = None,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            result_type = TensorType(
                element_type(operand.type),
                infer_gather_shape(
                    shape(operand.type),
                    shape(start_indices.type),
                    dimension_numbers,
                    slice_sizes,
                ),
            )
        properties: dict[str, Attribute] = {
            "dimension_numbers": dimension_numbers,
            "slice_sizes": i64_array(slice_sizes),
        }
        if indices_are_sorted is not None:
            properties["indices_are_sorted"] = _bool_attr(indices_are_sorted)
        super().__init__(
            operands=[operand, start_indices],
            result_types=[result_type],
            properties=dict(sorted(properties.items())),
        )

    @property
    def sizes(self) -> tuple[int, ...]:
        return array_values(self.slice_sizes)

    def verify_(self) -> None:
        check_element_kinds(
            self.name, "start_indices", self.start_indices.type, ("integer",)
        )
        if element_type(self.operand.type) != element_type(self.result.type):
            raise VerifyException(
                f"'{self.name}' op result element type {element_type(self.result.type)}"
                f" must equal the operand element type {element_type(self.operand.type)}"
            )
        verify_result_shape(
            self,
            lambda: infer_gather_shape(
                shape(self.operand.type),
                shape(self.start_indices.type),
                self.dimension_numbers,
                self.sizes,
            ),
        )


def infer_gather_shape(
    operand: Sequence[int],
    start_indices: Sequence[int],
    numbers: GatherDimensionNumbersAttr,
    slice_sizes: Sequence[int],
) -> tuple[int, ...]:
    return shape_rules.infer_gather(
        tuple(operand),
        tuple(start_indices),
        offset_dims=numbers.offset_dims.data,
        collapsed_slice_dims=numbers.collapsed_slice_dims.data,
        operand_batching_dims=numbers.operand_batching_dims.data,
        start_indices_batching_dims=numbers.start_indices_batching_dims.data,
        start_index_map=numbers.start_index_map.data,
        index_vector_dim=numbers.index_vector_dim.data[0],
        slice_sizes=slice_sizes,
    )


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """Copies of `inputs` where the windows at `scatter_indices` are combined with
    `updates` by `update_computation` (which takes the current values of every
    input, then the update values, as rank-0 tensors)."""

    name = "stablehlo.scatter"
    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    update_computation = region_def()
    outputs = var_result_def(TensorType)
    traits = traits_def(RecursiveEffects())
    irdl_options = (SameVariadicOperandSize(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        scatter_indices: SSAValue,
        updates: Sequence[SSAValue],
        dimension_numbers: ScatterDimensionNumbersAttr,
        update_computation: Region,
        indices_are_sorted: bool | None = None,
        unique_indices: bool | None = None,
    ):
        properties: dict[str, Attribute] = {
            "scatter_dimension_numbers": dimension_numbers
        }
        if indices_are_sorted is not None:
            properties["indices_are_sorted"] = _bool_attr(indices_are_sorted)
        if unique_indices is not None:
            properties["unique_indices"] = _bool_attr(unique_indices)
        super().__init__(
            operands=[inputs, scatter_indices, updates],
            result_types=[[v.type for v in inputs]],
            properties=dict(sorted(properties.items())),
            regions=[update_computation],
        )

    def verify_(self) -> None:
        inputs, updates = list(self.inputs), list(self.updates)
        check_element_kinds(
            self.name, "scatter_indices", self.scatter_indices.type, ("integer",)
        )
        numbers = self.scatter_dimension_numbers
        check_rule(
            self,
            lambda: shape_rules.check_scatter(
                [tuple(shape(v.type)) for v in inputs],
                tuple(shape(self.scatter_indices.type)),
                [tuple(shape(v.type)) for v in updates],
                update_window_dims=numbers.update_window_dims.data,
                inserted_window_dims=numbers.inserted_window_dims.data,
                input_batching_dims=numbers.input_batching_dims.data,
                scatter_indices_batching_dims=numbers.scatter_indices_batching_dims.data,
                scatter_dims_to_operand_dims=numbers.scatter_dims_to_operand_dims.data,
                index_vector_dim=numbers.index_vector_dim.data[0],
            ),
        )
        for i, (value, update) in enumerate(zip(inputs, updates, strict=True)):
            if element_type(value.type) != element_type(update.type):
                raise VerifyException(
                    f"'{self.name}' op update #{i} has element type "
                    f"{element_type(update.type)} but input #{i} has "
                    f"{element_type(value.type)}"
                )
        if len(self.outputs) != len(inputs):
            raise VerifyException(
                f"'{self.name}' op has {len(self.outputs)} results but "
                f"{len(inputs)} inputs; there must be one result per input"
            )
        self._verify_update_computation(inputs)

    def _verify_update_computation(self, inputs: Sequence[SSAValue]) -> None:
        """Takes (tensor<E0>, ..., tensor<E0>, ...) and returns (tensor<E0>, ...),
        each Ei of the kind of input i's elements; result i is input i's shape
        with elements Ei."""
        what = "update_computation"
        block = region_block(self, self.update_computation, what)
        n = len(inputs)
        args = [arg.type for arg in block.args]
        if len(args) != 2 * n:
            raise VerifyException(
                f"'{self.name}' op {what} must take {2 * n} arguments (the current "
                f"value and the update for each of the {n} inputs), but takes "
                f"{len(args)}"
            )
        for i, arg in enumerate(args):
            if not isinstance(arg, TensorType) or arg.get_shape():
                raise VerifyException(
                    f"'{self.name}' op {what} argument #{i} must be a rank-0 "
                    f"tensor, but is {arg}"
                )
        for i, value in enumerate(inputs):
            if args[i] != args[n + i]:
                raise VerifyException(
                    f"'{self.name}' op {what} arguments #{i} and #{n + i} must have "
                    f"the same type, but have {args[i]} and {args[n + i]}"
                )
            want, got = element_type(value.type), element_type(args[i])
            if element_kind(want) != element_kind(got):
                raise VerifyException(
                    f"'{self.name}' op {what} argument #{i} has element type {got}, "
                    f"which does not fit input #{i} with element type {want}"
                )
            result = self.outputs[i].type
            if shape(result) != shape(value.type) or element_type(result) != got:
                raise VerifyException(
                    f"'{self.name}' op result #{i} has type {result} but must have "
                    f"input #{i}'s shape with the {what} element type {got}"
                )
        returned = [v.type for v in returned_values(self, block, what)]
        if returned != args[:n]:
            raise VerifyException(
                f"'{self.name}' op {what} returns ({', '.join(map(str, returned))}) "
                f"but must return ({', '.join(map(str, args[:n]))})"
            )


INDEXING_OPS: list[type[IRDLOperation]] = [GatherOp, ScatterOp]
