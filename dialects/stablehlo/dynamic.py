"""Dynamic-shape ops: their output sizes (or pads, slice sizes) are operands.

Shape-polymorphic exports use them; once the operands are known (constants,
or the argument shapes at compile time) each is its static counterpart.

    %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>
    %1 = stablehlo.dynamic_reshape %x, %shape : (tensor<1x6xi64>, tensor<1xi64>) -> tensor<6xi64>
    %2 = stablehlo.dynamic_broadcast_in_dim %x, %dims, dims = [0, 1] : (...) -> T
    %3 = stablehlo.dynamic_pad %x, %value, %low, %high, %interior : (...) -> T
    %4 = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (...) -> T

`dynamic_gather` and `dynamic_conv` take the attributes of gather and
convolution and print in the generic form, as StableHLO does.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX as DYNAMIC,
)
from xdsl.dialects.builtin import (
    I1,
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.attributes import (
    ConvDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.enums import (
    PrecisionAttr,
)
from xlir.dialects.stablehlo.types import element_type, is_integer, shape
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    parse_function_type_tail,
    parse_keyword_int_list,
    print_attr_dict,
    print_function_type,
    print_int_list,
    print_operands,
    resolve_operands,
)


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _check_shape_operand(op: Operation, what: str, value: Attribute, size: int) -> None:
    """A 1-D tensor of integers with `size` elements."""
    dims = shape(value)
    if (
        not is_integer(element_type(value))
        or len(dims) != 1
        or dims[0]
        not in (
            size,
            DYNAMIC,
        )
    ):
        raise _fail(
            op,
            f"{what} must be a 1-D tensor of {size} integers, but has type {value}",
        )


def _check_same_element_type(op: Operation, a: Attribute, b: Attribute) -> None:
    if element_type(a) != element_type(b):
        raise _fail(
            op,
            f"result element type {element_type(b)} must equal the operand's "
            f"{element_type(a)}",
        )


class _FunctionTypedOp(IRDLOperation):
    """`op %a, %b <extras> : (Ta, Tb) -> T` with the extras parsed by
    `parse_extras` and printed by `print_extras`."""

    @classmethod
    def parse_extras(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    def print_extras(self, printer: Printer) -> None:
        return

    @classmethod
    def parse(cls, parser: Parser) -> _FunctionTypedOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        for _ in cls.get_irdl_definition().operands[1:]:
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        properties = cls.parse_extras(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, operands, operand_types, pos)
        op = cls.create(
            operands=list(values),
            result_types=list(result_types),
            properties=properties,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        self.print_extras(printer)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)


@irdl_op_definition
class DynamicIotaOp(_FunctionTypedOp):
    """iota of the shape held by `output_shape`."""

    name = "stablehlo.dynamic_iota"
    output_shape = operand_def(TensorType)
    result = result_def(TensorType)
    iota_dimension = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())

    @classmethod
    def parse_extras(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_punctuation(",")
        parser.parse_characters("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer(allow_boolean=False)
        return {"iota_dimension": IntegerAttr(dim, i64)}

    def print_extras(self, printer: Printer) -> None:
        printer.print_string(f", dim = {self.iota_dimension.value.data}")

    def verify_(self) -> None:
        rank = len(shape(self.result.type))
        _check_shape_operand(self, "output_shape", self.output_shape.type, rank)
        dim = self.iota_dimension.value.data
        if not 0 <= dim < rank:
            raise _fail(self, f"dim {dim} is out of range for rank {rank}")


@irdl_op_definition
class DynamicReshapeOp(_FunctionTypedOp):
    """reshape to the shape held by `output_shape`."""

    name = "stablehlo.dynamic_reshape"
    operand = operand_def(TensorType)
    output_shape = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        out = shape(self.result.type)
        _check_shape_operand(self, "output_shape", self.output_shape.type, len(out))
        _check_same_element_type(self, self.operand.type, self.result.type)
        source = shape(self.operand.type)
        if DYNAMIC not in source and DYNAMIC not in out:
            count_in, count_out = 1, 1
            for d in source:
                count_in *= d
            for d in out:
                count_out *= d
            if count_in != count_out:
                raise _fail(
                    self,
                    f"cannot reshape {count_in} elements into shape {list(out)}",
                )


@irdl_op_definition
class DynamicBroadcastInDimOp(_FunctionTypedOp):
    """broadcast_in_dim to the shape held by `output_dimensions`; the known
    (non)expanding dimensions are hints about which operand dimensions are 1."""

    name = "stablehlo.dynamic_broadcast_in_dim"
    operand = operand_def(TensorType)
    output_dimensions = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase[I64])
    known_expanding_dimensions = opt_prop_def(DenseArrayBase[I64])
    known_nonexpanding_dimensions = opt_prop_def(DenseArrayBase[I64])
    traits = traits_def(Pure())

    @classmethod
    def parse_extras(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_punctuation(",")
        dims = parse_keyword_int_list(parser, "dims")
        return {"broadcast_dimensions": i64_array(dims)}

    def print_extras(self, printer: Printer) -> None:
        dims = print_int_list(array_values(self.broadcast_dimensions))
        printer.print_string(f", dims = {dims}")

    def verify_(self) -> None:
        out, source = shape(self.result.type), shape(self.operand.type)
        _check_shape_operand(
            self, "output_dimensions", self.output_dimensions.type, len(out)
        )
        _check_same_element_type(self, self.operand.type, self.result.type)
        dims = array_values(self.broadcast_dimensions)
        if len(dims) != len(source):
            raise _fail(
                self,
                f"broadcast_dimensions {list(dims)} must name one result dimension "
                f"per operand dimension ({len(source)})",
            )
        for i, d in enumerate(dims):
            if not 0 <= d < len(out):
                raise _fail(self, f"broadcast dimension {d} is out of range")
            if DYNAMIC not in (source[i], out[d]) and source[i] not in (1, out[d]):
                raise _fail(
                    self,
                    f"operand dimension {i} of size {source[i]} cannot broadcast to "
                    f"result dimension {d} of size {out[d]}",
                )


@irdl_op_definition
class DynamicPadOp(_FunctionTypedOp):
    """pad with the low, high and interior amounts held by operands."""

    name = "stablehlo.dynamic_pad"
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = operand_def(TensorType)
    edge_padding_high = operand_def(TensorType)
    interior_padding = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        rank = len(shape(self.operand.type))
        _check_same_element_type(self, self.operand.type, self.result.type)
        if self.padding_value.type != TensorType(element_type(self.operand.type), []):
            raise _fail(
                self,
                f"padding_value must be a rank-0 tensor of the operand's element "
                f"type, but has type {self.padding_value.type}",
            )
        for what, value in (
            ("edge_padding_low", self.edge_padding_low),
            ("edge_padding_high", self.edge_padding_high),
            ("interior_padding", self.interior_padding),
        ):
            _check_shape_operand(self, what, value.type, rank)


@irdl_op_definition
class RealDynamicSliceOp(_FunctionTypedOp):
    """slice with the start, limit and stride of each dimension held by
    operands."""

    name = "stablehlo.real_dynamic_slice"
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    limit_indices = operand_def(TensorType)
    strides = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        rank = len(shape(self.operand.type))
        _check_same_element_type(self, self.operand.type, self.result.type)
        for what, value in (
            ("start_indices", self.start_indices),
            ("limit_indices", self.limit_indices),
            ("strides", self.strides),
        ):
            _check_shape_operand(self, what, value.type, rank)
        if len(shape(self.result.type)) != rank:
            raise _fail(
                self,
                f"result rank {len(shape(self.result.type))} must equal the "
                f"operand's {rank}",
            )


@irdl_op_definition
class DynamicGatherOp(IRDLOperation):
    """gather with the slice sizes held by an operand."""

    name = "stablehlo.dynamic_gather"
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    slice_sizes = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        rank = len(shape(self.operand.type))
        _check_shape_operand(self, "slice_sizes", self.slice_sizes.type, rank)
        if not is_integer(element_type(self.start_indices.type)):
            raise _fail(
                self,
                f"start_indices must have integer elements, but has type "
                f"{self.start_indices.type}",
            )
        _check_same_element_type(self, self.operand.type, self.result.type)


@irdl_op_definition
class DynamicConvOp(IRDLOperation):
    """convolution with the padding held by an operand ([spatial, 2])."""

    name = "stablehlo.dynamic_conv"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    padding = operand_def(TensorType)
    result = result_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase[I64])
    lhs_dilation = opt_prop_def(DenseArrayBase[I64])
    rhs_dilation = opt_prop_def(DenseArrayBase[I64])
    window_reversal = opt_prop_def(DenseArrayBase[I1])
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr[I64])
    batch_group_count = prop_def(IntegerAttr[I64])
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    traits = traits_def(Pure())

    def verify_(self) -> None:
        spatial = len(shape(self.lhs.type)) - 2
        pad = shape(self.padding.type)
        if not is_integer(element_type(self.padding.type)) or pad not in (
            (spatial, 2),
            (DYNAMIC, 2),
        ):
            raise _fail(
                self,
                f"padding must be a {spatial}x2 tensor of integers, but has type "
                f"{self.padding.type}",
            )
        if element_type(self.lhs.type) != element_type(self.rhs.type):
            raise _fail(
                self,
                f"lhs and rhs must have one element type, but have "
                f"{element_type(self.lhs.type)} and {element_type(self.rhs.type)}",
            )


DYNAMIC_OPS: list[type[IRDLOperation]] = [
    DynamicIotaOp,
    DynamicReshapeOp,
    DynamicBroadcastInDimOp,
    DynamicPadOp,
    RealDynamicSliceOp,
    DynamicGatherOp,
    DynamicConvOp,
]
