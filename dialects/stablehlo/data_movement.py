"""StableHLO ops that create or rearrange data without arithmetic: constant,
iota, broadcast_in_dim, reshape, transpose, reverse, concatenate, slice, pad,
dynamic_slice, dynamic_update_slice, get_dimension_size."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.shape_rules import check_result_shape, check_rule
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    parse_int_list,
    parse_operand_list,
    parse_trailing_types,
    print_attr_dict,
    print_function_type,
    print_int_list,
    print_operands,
    print_trailing_types,
    resolve_operands,
)


def check_same_element_type(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    if element_type(a.type) != element_type(b.type):
        raise VerifyException(
            f"'{op.name}' op {what} element types differ: {element_type(a.type)} "
            f"vs {element_type(b.type)}"
        )


class _KeywordListOp(IRDLOperation):
    """`op %x, keyword = [..] : types` for ops with one list property."""

    KEYWORD: ClassVar[str]
    PROP_NAME: ClassVar[str]
    PRINT_FUNCTIONAL: ClassVar[bool] = True
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> _KeywordListOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        parser.parse_characters(cls.KEYWORD)
        parser.parse_punctuation("=")
        values = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 1)
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={cls.PROP_NAME: i64_array(values)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        values = array_values(self.properties[self.PROP_NAME])  # type: ignore[arg-type]
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(f", {self.KEYWORD} = {print_int_list(values)}")
        print_attr_dict(printer, self.attributes)
        if self.PRINT_FUNCTIONAL:
            printer.print_string(" : ")
            print_function_type(printer, self.operand_types, self.result_types)
        else:
            print_trailing_types(printer, self.operand_types, self.result_types)


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`stablehlo.constant dense<...> : tensor<...>`."""

    name = "stablehlo.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(
                "expected a dense elements attribute such as `dense<1.0> : "
                f"tensor<f32>`, found {value}",
                pos,
            )
        op = cls(value)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        if self.value.type != self.output.type:
            raise VerifyException(
                f"'{self.name}' op value type {self.value.type} does not match the "
                f"result type {self.output.type}"
            )


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`stablehlo.iota dim = 0 : tensor<4x8xi32>`: indices along one dimension."""

    name = "stablehlo.iota"
    iota_dimension = prop_def(IntegerAttr[I64])
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, dim: int, result_type: Attribute):
        super().__init__(
            properties={"iota_dimension": IntegerAttr(dim, i64)},
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> IotaOp:
        parser.parse_characters("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(dim, parser.parse_type())
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim = {self.iota_dimension.value.data}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        check_rule(
            self,
            lambda: shape_rules.check_iota(
                shape(self.output.type), self.iota_dimension.value.data
            ),
        )


@irdl_op_definition
class BroadcastInDimOp(_KeywordListOp):
    """`stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>`."""

    name = "stablehlo.broadcast_in_dim"
    KEYWORD: ClassVar[str] = "dims"
    PROP_NAME: ClassVar[str] = "broadcast_dimensions"
    operand = operand_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, dims: Sequence[int], result_type: Attribute):
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={"broadcast_dimensions": i64_array(dims)},
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return array_values(self.broadcast_dimensions)

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        check_rule(
            self,
            lambda: shape_rules.check_broadcast_in_dim(
                shape(self.operand.type), self.dims, shape(self.result.type)
            ),
        )


@irdl_op_definition
class TransposeOp(_KeywordListOp):
    """`stablehlo.transpose %x, dims = [1, 0] : (T) -> T'`."""

    name = "stablehlo.transpose"
    KEYWORD: ClassVar[str] = "dims"
    PROP_NAME: ClassVar[str] = "permutation"
    operand = operand_def(TensorType)
    permutation = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, permutation: Sequence[int]):
        result_shape = shape_rules.infer_transpose(shape(operand.type), permutation)
        super().__init__(
            operands=[operand],
            result_types=[TensorType(element_type(operand.type), result_shape)],
            properties={"permutation": i64_array(permutation)},
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return array_values(self.permutation)

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        check_rule(
            self,
            lambda: check_result_shape(
                self, shape_rules.infer_transpose(shape(self.operand.type), self.dims)
            ),
        )


@irdl_op_definition
class ReverseOp(_KeywordListOp):
    """`stablehlo.reverse %x, dims = [0] : T`."""

    name = "stablehlo.reverse"
    KEYWORD: ClassVar[str] = "dims"
    PROP_NAME: ClassVar[str] = "dimensions"
    PRINT_FUNCTIONAL: ClassVar[bool] = False
    operand = operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, dims: Sequence[int]):
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={"dimensions": i64_array(dims)},
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return array_values(self.dimensions)

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op result type {self.result.type} must equal the "
                f"operand type {self.operand.type}"
            )
        check_rule(
            self,
            lambda: shape_rules.check_reverse(len(shape(self.operand.type)), self.dims),
        )


class _OperandsOp(IRDLOperation):
    """`op %a, %b : (Ta, Tb) -> T`: operands, then a function type."""

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> _OperandsOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, len(operands))
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)


@irdl_op_definition
class ReshapeOp(_OperandsOp):
    """`stablehlo.reshape %x : (tensor<4x2xf32>) -> tensor<8xf32>`, row-major."""

    name = "stablehlo.reshape"
    operand = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        check_rule(
            self,
            lambda: shape_rules.check_reshape(
                shape(self.operand.type), shape(self.result.type)
            ),
        )


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """`stablehlo.concatenate %a, %b, dim = 1 : (T, T) -> T'`."""

    name = "stablehlo.concatenate"
    inputs = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue], dim: int):
        result_shape = shape_rules.infer_concatenate(
            [shape(v.type) for v in inputs], dim
        )
        super().__init__(
            operands=[inputs],
            result_types=[TensorType(element_type(inputs[0].type), result_shape)],
            properties={"dimension": IntegerAttr(dim, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConcatenateOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        while parser.parse_optional_characters("dim") is None:
            operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(",")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, len(operands))
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={"dimension": IntegerAttr(dim, i64)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        for operand in self.inputs:
            check_same_element_type(self, operand, self.result, "input and result")
        check_rule(
            self,
            lambda: check_result_shape(
                self,
                shape_rules.infer_concatenate(
                    [shape(v.type) for v in self.inputs], self.dimension.value.data
                ),
            ),
        )


@irdl_op_definition
class SliceOp(IRDLOperation):
    """`stablehlo.slice %x [0:4, 2:8:2] : (T) -> T'`."""

    name = "stablehlo.slice"
    operand = operand_def(TensorType)
    start_indices = prop_def(DenseArrayBase[I64])
    limit_indices = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        start: Sequence[int],
        limit: Sequence[int],
        strides: Sequence[int] | None = None,
    ):
        strides = strides if strides is not None else [1] * len(start)
        result_shape = shape_rules.infer_slice(
            shape(operand.type), start, limit, strides
        )
        super().__init__(
            operands=[operand],
            result_types=[TensorType(element_type(operand.type), result_shape)],
            properties={
                "start_indices": i64_array(start),
                "limit_indices": i64_array(limit),
                "strides": i64_array(strides),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> SliceOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        ranges: list[tuple[int, int, int]] = []

        def parse_range() -> None:
            start = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            limit = parser.parse_integer(allow_boolean=False)
            stride = 1
            if parser.parse_optional_punctuation(":") is not None:
                stride = parser.parse_integer(allow_boolean=False)
            ranges.append((start, limit, stride))

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 1)
        op = cls.create(
            operands=resolve_operands(parser, [operand], operand_types, pos),
            result_types=result_types,
            properties={
                "start_indices": i64_array([r[0] for r in ranges]),
                "limit_indices": i64_array([r[1] for r in ranges]),
                "strides": i64_array([r[2] for r in ranges]),
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        parts = [
            f"{lo}:{hi}" if st == 1 else f"{lo}:{hi}:{st}"
            for lo, hi, st in zip(self.start, self.limit, self.step, strict=True)
        ]
        printer.print_string(" [" + ", ".join(parts) + "]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    @property
    def start(self) -> tuple[int, ...]:
        return array_values(self.start_indices)

    @property
    def limit(self) -> tuple[int, ...]:
        return array_values(self.limit_indices)

    @property
    def step(self) -> tuple[int, ...]:
        return array_values(self.strides)

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        check_rule(
            self,
            lambda: check_result_shape(
                self,
                shape_rules.infer_slice(
                    shape(self.operand.type), self.start, self.limit, self.step
                ),
            ),
        )


@irdl_op_definition
class PadOp(IRDLOperation):
    """`stablehlo.pad %x, %v, low = [..], high = [..], interior = [..] : (T, T0) -> T'`."""

    name = "stablehlo.pad"
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase[I64])
    edge_padding_high = prop_def(DenseArrayBase[I64])
    interior_padding = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        padding_value: SSAValue,
        low: Sequence[int],
        high: Sequence[int],
        interior: Sequence[int],
    ):
        result_shape = shape_rules.infer_pad(shape(operand.type), low, high, interior)
        super().__init__(
            operands=[operand, padding_value],
            result_types=[TensorType(element_type(operand.type), result_shape)],
            properties={
                "edge_padding_low": i64_array(low),
                "edge_padding_high": i64_array(high),
                "interior_padding": i64_array(interior),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> PadOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        lists = {}
        for keyword in ("low", "high", "interior"):
            parser.parse_punctuation(",")
            parser.parse_characters(keyword)
            parser.parse_punctuation("=")
            lists[keyword] = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 2)
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={
                "edge_padding_low": i64_array(lists["low"]),
                "edge_padding_high": i64_array(lists["high"]),
                "interior_padding": i64_array(lists["interior"]),
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(
            f", low = {print_int_list(self.low)}, high = {print_int_list(self.high)}"
            f", interior = {print_int_list(self.interior)}"
        )
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    @property
    def low(self) -> tuple[int, ...]:
        return array_values(self.edge_padding_low)

    @property
    def high(self) -> tuple[int, ...]:
        return array_values(self.edge_padding_high)

    @property
    def interior(self) -> tuple[int, ...]:
        return array_values(self.interior_padding)

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        check_same_element_type(
            self, self.operand, self.padding_value, "operand and padding value"
        )
        if shape(self.padding_value.type):
            raise VerifyException(
                f"'{self.name}' op padding value must be rank 0, but has shape "
                f"{list(shape(self.padding_value.type))}"
            )
        check_rule(
            self,
            lambda: check_result_shape(
                self,
                shape_rules.infer_pad(
                    shape(self.operand.type), self.low, self.high, self.interior
                ),
            ),
        )


def _check_scalar_indices(op: Operation, indices: Sequence[SSAValue]) -> None:
    for i, index in enumerate(indices):
        if shape(index.type):
            raise VerifyException(
                f"'{op.name}' op start index #{i} must be rank 0, but has shape "
                f"{list(shape(index.type))}"
            )
    if len({element_type(index.type) for index in indices}) > 1:
        raise VerifyException(
            f"'{op.name}' op start indices must all have the same element type"
        )


@irdl_op_definition
class DynamicSliceOp(IRDLOperation):
    """`stablehlo.dynamic_slice %x, %i, %j, sizes = [8, 16] : (T, ti, ti) -> T'`;
    start indices are clamped so the slice stays inside the operand."""

    name = "stablehlo.dynamic_slice"
    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self, operand: SSAValue, start_indices: Sequence[SSAValue], sizes: Sequence[int]
    ):
        super().__init__(
            operands=[operand, start_indices],
            result_types=[TensorType(element_type(operand.type), sizes)],
            properties={"slice_sizes": i64_array(sizes)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> DynamicSliceOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        while parser.parse_optional_characters("sizes") is None:
            operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(",")
        parser.parse_punctuation("=")
        sizes = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, len(operands))
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={"slice_sizes": i64_array(sizes)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(f", sizes = {print_int_list(self.sizes)}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    @property
    def sizes(self) -> tuple[int, ...]:
        return array_values(self.slice_sizes)

    def verify_(self) -> None:
        check_same_element_type(self, self.operand, self.result, "operand and result")
        _check_scalar_indices(self, self.start_indices)
        check_rule(
            self,
            lambda: check_result_shape(
                self,
                shape_rules.check_dynamic_slice(
                    shape(self.operand.type), len(self.start_indices), self.sizes
                ),
            ),
        )


@irdl_op_definition
class DynamicUpdateSliceOp(_OperandsOp):
    """`stablehlo.dynamic_update_slice %x, %u, %i, %j : (T, U, ti, ti) -> T`."""

    name = "stablehlo.dynamic_update_slice"
    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(
        self, operand: SSAValue, update: SSAValue, start_indices: Sequence[SSAValue]
    ):
        super().__init__(
            operands=[operand, update, start_indices], result_types=[operand.type]
        )

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op result type {self.result.type} must equal the "
                f"operand type {self.operand.type}"
            )
        check_same_element_type(self, self.operand, self.update, "operand and update")
        _check_scalar_indices(self, self.start_indices)
        check_rule(
            self,
            lambda: shape_rules.check_dynamic_update_slice(
                shape(self.operand.type),
                shape(self.update.type),
                len(self.start_indices),
            ),
        )


@irdl_op_definition
class GetDimensionSizeOp(IRDLOperation):
    """`stablehlo.get_dimension_size %x, dim = 0 : (T) -> tensor<i32>`."""

    name = "stablehlo.get_dimension_size"
    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, dim: int):
        super().__init__(
            operands=[operand],
            result_types=[TensorType(i32, [])],
            properties={"dimension": IntegerAttr(dim, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> GetDimensionSizeOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_characters("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        operand_types, result_types = parse_trailing_types(parser, 1)
        op = cls.create(
            operands=resolve_operands(parser, [operand], operand_types, pos),
            result_types=result_types,
            properties={"dimension": IntegerAttr(dim, i64)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        rank = len(shape(self.operand.type))
        if not 0 <= self.dimension.value.data < rank:
            raise VerifyException(
                f"'{self.name}' op dimension {self.dimension.value.data} is out of "
                f"range [0, {rank})"
            )
        if shape(self.result.type):
            raise VerifyException(f"'{self.name}' op result must be rank 0")


DATA_MOVEMENT_OPS: list[type[IRDLOperation]] = [
    ConstantOp,
    IotaOp,
    BroadcastInDimOp,
    ReshapeOp,
    TransposeOp,
    ReverseOp,
    ConcatenateOp,
    SliceOp,
    PadOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    GetDimensionSizeOp,
]
