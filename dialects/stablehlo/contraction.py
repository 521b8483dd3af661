"""Contractions: dot_general, dot and convolution.

Pretty forms, as StableHLO prints them:

    stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
        contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (T, T) -> T
    stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (T, T) -> T
    stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1],
        rhs_dilate = [1, 1], reverse = [false, false]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (T, T) -> T

`batching_dims`, `precision` and each `window` field are printed only when
present; the generic form uses StableHLO's property names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    I1,
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.attributes import (
    ConvDimensionNumbersAttr,
    DotAlgorithmAttr,
    DotDimensionNumbersAttr,
    parse_conv_dimension_layouts,
)
from xlir.dialects.stablehlo.enums import (
    Precision,
    PrecisionAttr,
)
from xlir.dialects.stablehlo.shape_rules import check_rule
from xlir.dialects.stablehlo.types import (
    element_type,
    is_bool,
    is_float,
    is_integer,
    shape,
)
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    parse_int_list,
    parse_trailing_types,
    print_function_type,
    print_int_list,
    print_operands,
    resolve_operands,
)

# --- shared pieces ---------------------------------------------------------------


def element_kind(t: Attribute) -> str:
    """The class of an element type: bool, integer, float, or the type itself."""
    if is_bool(t):
        return "bool"
    if is_integer(t):
        return "integer"
    if is_float(t):
        return "float"
    return str(t)


def check_operand_element_kinds(op: Operation, lhs: SSAValue, rhs: SSAValue) -> None:
    """lhs and rhs elements are of one class (both float, both integer, ...)."""
    a, b = element_type(lhs.type), element_type(rhs.type)
    if element_kind(a) != element_kind(b):
        raise VerifyException(
            f"'{op.name}' op lhs and rhs must have the same kind of element type, "
            f"but lhs has {a} and rhs has {b}"
        )


def verify_result_shape(op: Operation, infer: Callable[[], Sequence[int]]) -> None:
    """Run a shape rule; the op's result shape must equal what it infers (a `?`
    matches any size). Rule violations become the op's verify error."""
    check_rule(
        op,
        lambda: shape_rules.check_compatible(
            tuple(shape(op.results[0].type)), tuple(infer())
        ),
    )


def check_precision_config(op: Operation, config: ArrayAttr | None) -> None:
    if config is not None and len(config.data) > 2:
        raise VerifyException(
            f"'{op.name}' op precision_config must have at most 2 entries (one per "
            f"operand), but has {len(config.data)}"
        )


def precision_array(values: Sequence[Precision | str]) -> ArrayAttr[PrecisionAttr]:
    return ArrayAttr([PrecisionAttr(Precision(v)) for v in values])


def parse_precision_list(parser: Parser) -> ArrayAttr[PrecisionAttr]:
    """`[DEFAULT, HIGHEST]` (after `precision =`)."""
    return ArrayAttr(
        parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: PrecisionAttr(parser.parse_str_enum(Precision)),
        )
    )


def print_precision(printer: Printer, config: ArrayAttr | None) -> None:
    """`, precision = [DEFAULT, DEFAULT]`, or nothing when absent or empty."""
    if config is None or not config.data:
        return
    names = []
    for entry in config.data:
        assert isinstance(entry, PrecisionAttr)
        names.append(str(entry.data))
    printer.print_string(", precision = [" + ", ".join(names) + "]")


def _parse_operands_and_types(
    parser: Parser,
    op_type: type[IRDLOperation],
    operands: Sequence[UnresolvedOperand],
    pos: int,
    properties: dict[str, Attribute],
) -> IRDLOperation:
    attributes = parser.parse_optional_attr_dict()
    operand_types, result_types = parse_trailing_types(parser, len(operands))
    op = op_type.create(
        operands=resolve_operands(parser, operands, operand_types, pos),
        result_types=result_types,
        properties=properties,
    )
    op.attributes.update(attributes)
    return op


# --- dot_general -----------------------------------------------------------------


@irdl_op_definition
class DotGeneralOp(IRDLOperation):
    """Dot products over contracting dims, batched over batching dims; the result
    dims are the batch dims, then lhs's free dims, then rhs's free dims."""

    name = "stablehlo.dot_general"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    algorithm = opt_prop_def(DotAlgorithmAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        dimension_numbers: DotDimensionNumbersAttr,
        precision_config: ArrayAttr[PrecisionAttr] | None = None,
        result_type: Attribute | None = None,
        algorithm: DotAlgorithmAttr | None = None,
    ):
        """A rewrite that rebuilds a dot with its operands in the same roles
        passes the old dot's `algorithm` on (it says how the products may
        be computed)."""
        if result_type is None:
            result_shape = shape_rules.infer_dot_general(
                shape(lhs.type),
                shape(rhs.type),
                dimension_numbers.lhs_batching_dimensions.data,
                dimension_numbers.rhs_batching_dimensions.data,
                dimension_numbers.lhs_contracting_dimensions.data,
                dimension_numbers.rhs_contracting_dimensions.data,
            )
            result_type = TensorType(element_type(lhs.type), result_shape)
        properties: dict[str, Attribute] = {"dot_dimension_numbers": dimension_numbers}
        if precision_config is not None:
            properties["precision_config"] = precision_config
        if algorithm is not None:
            properties["algorithm"] = algorithm
        super().__init__(
            operands=[lhs, rhs], result_types=[result_type], properties=properties
        )

    @classmethod
    def parse(cls, parser: Parser) -> DotGeneralOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        lhs_batch: tuple[int, ...] = ()
        rhs_batch: tuple[int, ...] = ()
        if parser.parse_optional_keyword("batching_dims") is not None:
            lhs_batch, rhs_batch = _parse_dims_pair(parser)
            parser.parse_punctuation(",")
        parser.parse_keyword("contracting_dims")
        lhs_contract, rhs_contract = _parse_dims_pair(parser)
        properties: dict[str, Attribute] = {
            "dot_dimension_numbers": DotDimensionNumbersAttr.get(
                lhs_batch, rhs_batch, lhs_contract, rhs_contract
            )
        }
        while parser.parse_optional_punctuation(",") is not None:
            keyword_pos = parser.pos
            keyword = parser.parse_identifier(" (precision or algorithm)")
            parser.parse_punctuation("=")
            if keyword == "precision" and "precision_config" not in properties:
                properties["precision_config"] = parse_precision_list(parser)
            elif keyword == "algorithm" and "algorithm" not in properties:
                properties["algorithm"] = DotAlgorithmAttr.new(
                    DotAlgorithmAttr.parse_parameters(parser)
                )
            else:
                parser.raise_error(
                    f"expected precision or algorithm (once each), found '{keyword}'",
                    keyword_pos,
                )
        op = _parse_operands_and_types(parser, cls, operands, pos, properties)
        assert isinstance(op, DotGeneralOp)
        return op

    def print(self, printer: Printer) -> None:
        dims = self.dot_dimension_numbers
        printer.print_string(" ")
        print_operands(printer, self.operands)
        if dims.lhs_batching_dimensions.data or dims.rhs_batching_dimensions.data:
            printer.print_string(
                ", batching_dims = "
                f"{print_int_list(dims.lhs_batching_dimensions.data)} x "
                f"{print_int_list(dims.rhs_batching_dimensions.data)}"
            )
        printer.print_string(
            ", contracting_dims = "
            f"{print_int_list(dims.lhs_contracting_dimensions.data)} x "
            f"{print_int_list(dims.rhs_contracting_dimensions.data)}"
        )
        print_precision(printer, self.precision_config)
        if self.algorithm is not None:
            printer.print_string(", algorithm = ")
            self.algorithm.print_parameters(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        check_operand_element_kinds(self, self.lhs, self.rhs)
        check_precision_config(self, self.precision_config)
        dims = self.dot_dimension_numbers
        verify_result_shape(
            self,
            lambda: shape_rules.infer_dot_general(
                shape(self.lhs.type),
                shape(self.rhs.type),
                dims.lhs_batching_dimensions.data,
                dims.rhs_batching_dimensions.data,
                dims.lhs_contracting_dimensions.data,
                dims.rhs_contracting_dimensions.data,
            ),
        )


def _parse_dims_pair(parser: Parser) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`= [1] x [0]`."""
    parser.parse_punctuation("=")
    lhs = parse_int_list(parser)
    parser.parse_characters("x")
    return lhs, parse_int_list(parser)


# --- dot ---------------------------------------------------------------------------


@irdl_op_definition
class DotOp(IRDLOperation):
    """Legacy matrix/vector product: the last dim of lhs is contracted with the
    first of rhs; both operands have rank 1 or 2."""

    name = "stablehlo.dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        precision_config: ArrayAttr[PrecisionAttr] | None = None,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            result_type = TensorType(
                element_type(lhs.type),
                shape_rules.infer_dot(shape(lhs.type), shape(rhs.type)),
            )
        properties: dict[str, Attribute] = {}
        if precision_config is not None:
            properties["precision_config"] = precision_config
        super().__init__(
            operands=[lhs, rhs], result_types=[result_type], properties=properties
        )

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("precision")
            parser.parse_punctuation("=")
            properties["precision_config"] = parse_precision_list(parser)
        op = _parse_operands_and_types(parser, cls, operands, pos, properties)
        assert isinstance(op, DotOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_precision(printer, self.precision_config)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        check_operand_element_kinds(self, self.lhs, self.rhs)
        check_precision_config(self, self.precision_config)
        verify_result_shape(
            self,
            lambda: shape_rules.infer_dot(shape(self.lhs.type), shape(self.rhs.type)),
        )


# --- convolution -------------------------------------------------------------------

_WINDOW_FIELDS = {
    "stride": "window_strides",
    "pad": "padding",
    "lhs_dilate": "lhs_dilation",
    "rhs_dilate": "rhs_dilation",
    "reverse": "window_reversal",
}
"""Pretty `window = {...}` keys and the properties they stand for, in print order."""

_DICT_PROPERTIES = ("batch_group_count", "feature_group_count", "precision_config")
"""Properties that the pretty form prints inside the attribute dictionary."""


def padding_attr(pads: Sequence[tuple[int, int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`."""
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(pads), 2]), [v for pair in pads for v in pair]
    )


def padding_pairs(attr: DenseIntOrFPElementsAttr) -> list[tuple[int, int]]:
    values = [v for v in attr.get_values() if isinstance(v, int)]
    return [(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]


@irdl_op_definition
class ConvolutionOp(IRDLOperation):
    """Windowed dot products of lhs (input) with rhs (kernel), with strides,
    padding, input (lhs) and window (rhs) dilation, and feature or batch groups."""

    name = "stablehlo.convolution"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase[I64])
    rhs_dilation = opt_prop_def(DenseArrayBase[I64])
    window_reversal = opt_prop_def(DenseArrayBase[I1])
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr[I64])
    batch_group_count = prop_def(IntegerAttr[I64])
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        dimension_numbers: ConvDimensionNumbersAttr,
        result_type: Attribute,
        *,
        window_strides: Sequence[int] | None = None,
        padding: Sequence[tuple[int, int]] | None = None,
        lhs_dilation: Sequence[int] | None = None,
        rhs_dilation: Sequence[int] | None = None,
        window_reversal: Sequence[bool] | None = None,
        feature_group_count: int = 1,
        batch_group_count: int = 1,
        precision_config: ArrayAttr[PrecisionAttr] | None = None,
    ):
        properties: dict[str, Attribute] = {
            "dimension_numbers": dimension_numbers,
            "feature_group_count": IntegerAttr(feature_group_count, i64),
            "batch_group_count": IntegerAttr(batch_group_count, i64),
        }
        for name, values in (
            ("window_strides", window_strides),
            ("lhs_dilation", lhs_dilation),
            ("rhs_dilation", rhs_dilation),
        ):
            if values is not None:
                properties[name] = i64_array(values)
        if padding is not None:
            properties["padding"] = padding_attr(padding)
        if window_reversal is not None:
            properties["window_reversal"] = DenseArrayBase.from_list(
                i1, [int(v) for v in window_reversal]
            )
        if precision_config is not None:
            properties["precision_config"] = precision_config
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties=dict(sorted(properties.items())),
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConvolutionOp:
        pos = parser.pos
        parser.parse_punctuation("(")
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(")")
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        properties: dict[str, Attribute] = {
            "dimension_numbers": ConvDimensionNumbersAttr(
                *parse_conv_dimension_layouts(parser)
            )
        }
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("window")
            parser.parse_punctuation("=")
            properties.update(_parse_window(parser))
        attributes = parser.parse_optional_attr_dict()
        for name in _DICT_PROPERTIES:
            if name in attributes:
                properties[name] = attributes.pop(name)
        for name in ("batch_group_count", "feature_group_count"):
            properties.setdefault(name, IntegerAttr(1, i64))
        operand_types, result_types = parse_trailing_types(parser, 2)
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties=dict(sorted(properties.items())),  # in MLIR's order
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        print_operands(printer, self.operands)
        printer.print_string(") dim_numbers = ")
        numbers = self.dimension_numbers
        if numbers.layouts_are_permutations():
            printer.print_string(numbers.layout_text())
        else:
            printer.print_attribute(numbers)
        # StableHLO's assembly format requires the window, empty or not
        printer.print_string(", window = {" + ", ".join(self._window_text()) + "}")
        shown: dict[str, Attribute] = dict(self.attributes)
        for name in _DICT_PROPERTIES:
            value = self.properties.get(name)
            if value is not None:
                shown[name] = value
        printer.print_op_attributes(dict(sorted(shown.items())))
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def _window_text(self) -> list[str]:
        parts = []
        for key, prop in _WINDOW_FIELDS.items():
            value = self.properties.get(prop)
            if value is None:
                continue
            if isinstance(value, DenseIntOrFPElementsAttr):
                pairs = padding_pairs(value)
                text = "[" + ", ".join(print_int_list(p) for p in pairs) + "]"
            elif prop == "window_reversal":
                assert isinstance(value, DenseArrayBase)
                flags = ["true" if v else "false" for v in value.get_values()]
                text = "[" + ", ".join(flags) + "]"
            else:
                assert isinstance(value, DenseArrayBase)
                text = print_int_list(array_values(value))
            parts.append(f"{key} = {text}")
        return parts

    def _optional_values(self, name: str) -> tuple[int, ...] | None:
        value = self.properties.get(name)
        if value is None:
            return None
        assert isinstance(value, DenseArrayBase)
        return array_values(value)

    def verify_(self) -> None:
        check_operand_element_kinds(self, self.lhs, self.rhs)
        check_precision_config(self, self.precision_config)
        if self.padding is not None:
            pad_type = self.padding.type
            pad_shape = tuple(self.padding.get_shape())
            if (
                self.padding.get_element_type() != i64
                or len(pad_shape) != 2
                or pad_shape[1] != 2
            ):
                raise VerifyException(
                    f"'{self.name}' op padding must be a tensor<Nx2xi64> of (low, "
                    f"high) pairs, but has type {pad_type}"
                )
        verify_result_shape(self, self.inferred_shape)

    def inferred_shape(self) -> tuple[int, ...]:
        """The result shape the operands' shapes and the attributes imply
        (the verifier's rule, and refine-shapes')."""
        numbers = self.dimension_numbers
        reversal = self.window_reversal
        return shape_rules.infer_convolution(
            shape(self.lhs.type),
            shape(self.rhs.type),
            input_batch=numbers.input_batch,
            input_feature=numbers.input_feature,
            input_spatial=numbers.input_spatial_dimensions.data,
            kernel_input_feature=numbers.kernel_input_feature,
            kernel_output_feature=numbers.kernel_output_feature,
            kernel_spatial=numbers.kernel_spatial_dimensions.data,
            output_batch=numbers.output_batch,
            output_feature=numbers.output_feature,
            output_spatial=numbers.output_spatial_dimensions.data,
            window_strides=self._optional_values("window_strides"),
            padding=None if self.padding is None else padding_pairs(self.padding),
            lhs_dilation=self._optional_values("lhs_dilation"),
            rhs_dilation=self._optional_values("rhs_dilation"),
            num_window_reversal=(
                None if reversal is None else len(reversal.get_values())
            ),
            feature_group_count=self.feature_group_count.value.data,
            batch_group_count=self.batch_group_count.value.data,
        )


def _parse_window(parser: Parser) -> dict[str, Attribute]:
    """`{stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate = [..],
    reverse = [false, ..]}`, any subset in any order."""
    properties: dict[str, Attribute] = {}

    def parse_pair() -> tuple[int, int]:
        pos = parser.pos
        pair = parse_int_list(parser)
        if len(pair) != 2:
            parser.raise_error(
                f"expected a [low, high] padding pair, got {list(pair)}", pos
            )
        return pair[0], pair[1]

    def parse_field() -> None:
        pos = parser.pos
        key = parser.parse_identifier(" (a window field)")
        if key not in _WINDOW_FIELDS:
            parser.raise_error(
                f"unknown window field '{key}', expected one of "
                + ", ".join(_WINDOW_FIELDS),
                pos,
            )
        prop = _WINDOW_FIELDS[key]
        if prop in properties:
            parser.raise_error(f"window field '{key}' given twice", pos)
        parser.parse_punctuation("=")
        if key == "pad":
            pairs = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parse_pair
            )
            properties[prop] = padding_attr(pairs)
        elif key == "reverse":
            flags = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_integer(allow_boolean=True),
            )
            properties[prop] = DenseArrayBase.from_list(
                i1, [int(bool(f)) for f in flags]
            )
        else:
            properties[prop] = i64_array(parse_int_list(parser))

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, parse_field)
    return properties


CONTRACTION_OPS: list[type[IRDLOperation]] = [DotGeneralOp, DotOp, ConvolutionOp]
