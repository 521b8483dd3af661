"""StableHLO's structured attributes: dimension numbers, channel handles,
operand aliases and dot algorithms (the enums are in `enums`).

Each prints and parses exactly as StableHLO's own generic form, so that
`--print-op-generic` output stays readable by upstream MLIR tools:
`#stablehlo.dot<lhs_contracting_dimensions = [1], ...>`,
`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`, and so on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.syntax import (
    I64Tuple,
    parse_int_list,
    print_int_list,
)


class _DimensionFields(ParametrizedAttribute):
    """A struct of named integer lists (and integer scalars), printed as
    `<field = [..], field = N>` with empty lists left out, as StableHLO does.
    A missing integer field is 0, its default: StableHLO's printer (and so
    JAX) leaves out `index_vector_dim = 0`."""

    LIST_FIELDS: ClassVar[tuple[str, ...]] = ()
    INT_FIELDS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[I64Tuple]:
        values: dict[str, tuple[int, ...]] = {}
        fields = (*cls.LIST_FIELDS, *cls.INT_FIELDS)

        def parse_field() -> None:
            pos = parser.pos
            key = parser.parse_identifier(f" (one of {', '.join(fields)})")
            if key not in fields:
                parser.raise_error(
                    f"unknown field '{key}' in #{cls.name}, expected one of "
                    + ", ".join(fields),
                    pos,
                )
            if key in values:
                parser.raise_error(f"field '{key}' given twice in #{cls.name}", pos)
            parser.parse_punctuation("=")
            if key in cls.INT_FIELDS:
                values[key] = (parser.parse_integer(allow_boolean=False),)
            else:
                values[key] = parse_int_list(parser)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
        for key in cls.INT_FIELDS:
            values.setdefault(key, (0,))
        return [I64Tuple(values.get(f, ())) for f in fields]

    def print_parameters(self, printer: Printer) -> None:
        parts: list[str] = []
        params = self.parameters
        for field, value in zip(self.LIST_FIELDS, params, strict=False):
            assert isinstance(value, I64Tuple)
            if value.data:
                parts.append(f"{field} = {print_int_list(value.data)}")
        for field, value in zip(
            self.INT_FIELDS, params[len(self.LIST_FIELDS) :], strict=True
        ):
            assert isinstance(value, I64Tuple)
            parts.append(f"{field} = {value.data[0]}")
        printer.print_string("<" + ", ".join(parts) + ">")

    def field(self, name: str) -> tuple[int, ...]:
        index = (*self.LIST_FIELDS, *self.INT_FIELDS).index(name)
        value = self.parameters[index]
        assert isinstance(value, I64Tuple)
        return value.data


@irdl_attr_definition
class ChannelHandleAttr(_DimensionFields):
    """`#stablehlo.channel_handle<handle = 1, type = 1>`: the channel a
    collective or send/recv uses. `handle > 0` makes a collective cross
    partitions (the spec's `channel_id`); `type` is XLA's channel kind
    (0 invalid, 1 device to device, 2 device to host, 3 host to device)."""

    name = "stablehlo.channel_handle"
    INT_FIELDS = ("handle", "type")
    handle: I64Tuple = param_def()
    channel_type: I64Tuple = param_def()

    @staticmethod
    def get(handle: int, channel_type: int) -> ChannelHandleAttr:
        return ChannelHandleAttr(I64Tuple((handle,)), I64Tuple((channel_type,)))


@irdl_attr_definition
class DotDimensionNumbersAttr(_DimensionFields):
    """`#stablehlo.dot<...>`: batching and contracting dimensions of dot_general."""

    name = "stablehlo.dot"
    LIST_FIELDS = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
    )
    lhs_batching_dimensions: I64Tuple = param_def()
    rhs_batching_dimensions: I64Tuple = param_def()
    lhs_contracting_dimensions: I64Tuple = param_def()
    rhs_contracting_dimensions: I64Tuple = param_def()

    @staticmethod
    def get(
        lhs_batch: Sequence[int],
        rhs_batch: Sequence[int],
        lhs_contract: Sequence[int],
        rhs_contract: Sequence[int],
    ) -> DotDimensionNumbersAttr:
        return DotDimensionNumbersAttr(
            I64Tuple(tuple(lhs_batch)),
            I64Tuple(tuple(rhs_batch)),
            I64Tuple(tuple(lhs_contract)),
            I64Tuple(tuple(rhs_contract)),
        )


@irdl_attr_definition
class GatherDimensionNumbersAttr(_DimensionFields):
    """`#stablehlo.gather<...>`: how gather indexes its operand."""

    name = "stablehlo.gather"
    LIST_FIELDS = (
        "offset_dims",
        "collapsed_slice_dims",
        "operand_batching_dims",
        "start_indices_batching_dims",
        "start_index_map",
    )
    INT_FIELDS = ("index_vector_dim",)
    offset_dims: I64Tuple = param_def()
    collapsed_slice_dims: I64Tuple = param_def()
    operand_batching_dims: I64Tuple = param_def()
    start_indices_batching_dims: I64Tuple = param_def()
    start_index_map: I64Tuple = param_def()
    index_vector_dim: I64Tuple = param_def()

    @staticmethod
    def get(
        *,
        offset_dims: Sequence[int] = (),
        collapsed_slice_dims: Sequence[int] = (),
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
        start_index_map: Sequence[int] = (),
        index_vector_dim: int,
    ) -> GatherDimensionNumbersAttr:
        return GatherDimensionNumbersAttr(
            I64Tuple(tuple(offset_dims)),
            I64Tuple(tuple(collapsed_slice_dims)),
            I64Tuple(tuple(operand_batching_dims)),
            I64Tuple(tuple(start_indices_batching_dims)),
            I64Tuple(tuple(start_index_map)),
            I64Tuple((index_vector_dim,)),
        )


@irdl_attr_definition
class ScatterDimensionNumbersAttr(_DimensionFields):
    """`#stablehlo.scatter<...>`: how scatter places its updates."""

    name = "stablehlo.scatter"
    LIST_FIELDS = (
        "update_window_dims",
        "inserted_window_dims",
        "input_batching_dims",
        "scatter_indices_batching_dims",
        "scatter_dims_to_operand_dims",
    )
    INT_FIELDS = ("index_vector_dim",)
    update_window_dims: I64Tuple = param_def()
    inserted_window_dims: I64Tuple = param_def()
    input_batching_dims: I64Tuple = param_def()
    scatter_indices_batching_dims: I64Tuple = param_def()
    scatter_dims_to_operand_dims: I64Tuple = param_def()
    index_vector_dim: I64Tuple = param_def()

    @staticmethod
    def get(
        *,
        update_window_dims: Sequence[int] = (),
        inserted_window_dims: Sequence[int] = (),
        input_batching_dims: Sequence[int] = (),
        scatter_indices_batching_dims: Sequence[int] = (),
        scatter_dims_to_operand_dims: Sequence[int] = (),
        index_vector_dim: int,
    ) -> ScatterDimensionNumbersAttr:
        return ScatterDimensionNumbersAttr(
            I64Tuple(tuple(update_window_dims)),
            I64Tuple(tuple(inserted_window_dims)),
            I64Tuple(tuple(input_batching_dims)),
            I64Tuple(tuple(scatter_indices_batching_dims)),
            I64Tuple(tuple(scatter_dims_to_operand_dims)),
            I64Tuple((index_vector_dim,)),
        )


@irdl_attr_definition
class OutputOperandAliasAttr(_DimensionFields):
    """`#stablehlo.output_operand_alias<...>` of custom_call."""

    name = "stablehlo.output_operand_alias"
    LIST_FIELDS = ("output_tuple_indices",)
    INT_FIELDS = ("operand_index",)
    output_tuple_indices: I64Tuple = param_def()
    operand_index: I64Tuple = param_def()
    operand_tuple_indices: I64Tuple = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[I64Tuple]:
        fields: dict[str, tuple[int, ...]] = {}

        def parse_field() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "operand_index":
                fields[key] = (parser.parse_integer(),)
            elif key in ("output_tuple_indices", "operand_tuple_indices"):
                fields[key] = parse_int_list(parser)
            else:
                parser.raise_error(f"unknown field '{key}' in #{cls.name}")

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
        return [
            I64Tuple(fields.get("output_tuple_indices", ())),
            I64Tuple(fields.get("operand_index", (0,))),
            I64Tuple(fields.get("operand_tuple_indices", ())),
        ]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<output_tuple_indices = {print_int_list(self.output_tuple_indices.data)}, "
            f"operand_index = {self.operand_index.data[0]}, "
            f"operand_tuple_indices = {print_int_list(self.operand_tuple_indices.data)}>"
        )


@irdl_attr_definition
class ConvDimensionNumbersAttr(ParametrizedAttribute):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`.

    Stored as the layouts of input, kernel and output: for each, the position
    of the batch/feature (or input/output feature) dimension and of each
    spatial dimension, in spatial order.
    """

    name = "stablehlo.conv"
    input_batch_dimension: I64Tuple = param_def()
    input_feature_dimension: I64Tuple = param_def()
    input_spatial_dimensions: I64Tuple = param_def()
    kernel_input_feature_dimension: I64Tuple = param_def()
    kernel_output_feature_dimension: I64Tuple = param_def()
    kernel_spatial_dimensions: I64Tuple = param_def()
    output_batch_dimension: I64Tuple = param_def()
    output_feature_dimension: I64Tuple = param_def()
    output_spatial_dimensions: I64Tuple = param_def()

    @property
    def input_batch(self) -> int:
        return self.input_batch_dimension.data[0]

    @property
    def input_feature(self) -> int:
        return self.input_feature_dimension.data[0]

    @property
    def kernel_input_feature(self) -> int:
        return self.kernel_input_feature_dimension.data[0]

    @property
    def kernel_output_feature(self) -> int:
        return self.kernel_output_feature_dimension.data[0]

    @property
    def output_batch(self) -> int:
        return self.output_batch_dimension.data[0]

    @property
    def output_feature(self) -> int:
        return self.output_feature_dimension.data[0]

    RAW_FIELDS: ClassVar[tuple[str, ...]] = (
        "input_batch_dimension",
        "input_feature_dimension",
        "input_spatial_dimensions",
        "kernel_input_feature_dimension",
        "kernel_output_feature_dimension",
        "kernel_spatial_dimensions",
        "output_batch_dimension",
        "output_feature_dimension",
        "output_spatial_dimensions",
    )

    @staticmethod
    def get(
        input_layout: tuple[int, int, Sequence[int]],
        kernel_layout: tuple[int, int, Sequence[int]],
        output_layout: tuple[int, int, Sequence[int]],
    ) -> ConvDimensionNumbersAttr:
        """From (batch, feature, spatial) of input and output and (input feature,
        output feature, spatial) of the kernel."""
        params: list[I64Tuple] = []
        for first, second, spatial in (input_layout, kernel_layout, output_layout):
            params += [
                I64Tuple((first,)),
                I64Tuple((second,)),
                I64Tuple(tuple(spatial)),
            ]
        return ConvDimensionNumbersAttr(*params)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[I64Tuple]:
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("raw") is not None:
            params = _parse_raw_conv_fields(parser, cls.RAW_FIELDS)
        else:
            params = parse_conv_dimension_layouts(parser)
        parser.parse_punctuation(">")
        return params

    def print_parameters(self, printer: Printer) -> None:
        if self.layouts_are_permutations():
            printer.print_string("<" + self.layout_text() + ">")
            return
        fields = []
        for name, value in zip(self.RAW_FIELDS, self.parameters, strict=True):
            assert isinstance(value, I64Tuple)
            text = (
                print_int_list(value.data)
                if name.endswith("dimensions")
                else str(value.data[0] if value.data else 0)
            )
            fields.append(f"{name} = {text}")
        printer.print_string("<raw " + ", ".join(fields) + ">")

    def _fields(self) -> list[tuple[int, ...]]:
        values = []
        for value in self.parameters:
            assert isinstance(value, I64Tuple)
            values.append(value.data)
        return values

    def layouts(self) -> list[list[int]]:
        """The input, kernel and output layouts as dimension lists: batch (or
        input feature), spatial dims in order, feature (or output feature)."""
        fields = self._fields()
        return [[*fields[i], *fields[i + 2], *fields[i + 1]] for i in range(0, 9, 3)]

    def layouts_are_permutations(self) -> bool:
        """Whether each layout names every dimension of one rank exactly once,
        the same rank for input, kernel and output."""
        fields = self._fields()
        if any(len(fields[i]) != 1 for i in (0, 1, 3, 4, 6, 7)):
            return False
        groups = self.layouts()
        n = len(groups[0])
        return all(sorted(g) == list(range(n)) for g in groups)

    def verify(self) -> None:
        fields = self._fields()
        for i in (0, 1, 3, 4, 6, 7):
            if len(fields[i]) != 1:
                raise VerifyException(
                    f"#{self.name} needs one {self.RAW_FIELDS[i]}, got "
                    f"{list(fields[i])}"
                )
        if len({len(fields[i]) for i in (2, 5, 8)}) != 1:
            raise VerifyException(
                f"#{self.name}: input, kernel and output must have the same number "
                "of spatial dimensions"
            )

    def layout_text(self) -> str:
        def layout(
            rank: int,
            first: tuple[str, int],
            second: tuple[str, int],
            spatial: I64Tuple,
        ) -> str:
            letters = [""] * rank
            letters[first[1]] = first[0]
            letters[second[1]] = second[0]
            for index, pos in enumerate(spatial.data):
                letters[pos] = str(index)
            return "[" + ", ".join(letters) + "]"

        n = len(self.input_spatial_dimensions.data) + 2
        return (
            layout(
                n,
                ("b", self.input_batch),
                ("f", self.input_feature),
                self.input_spatial_dimensions,
            )
            + "x"
            + layout(
                n,
                ("i", self.kernel_input_feature),
                ("o", self.kernel_output_feature),
                self.kernel_spatial_dimensions,
            )
            + "->"
            + layout(
                n,
                ("b", self.output_batch),
                ("f", self.output_feature),
                self.output_spatial_dimensions,
            )
        )


def parse_conv_dimension_layouts(parser: AttrParser) -> list[I64Tuple]:
    """Parse `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` into the nine fields of
    ConvDimensionNumbersAttr."""

    def parse_layout(letters: tuple[str, str]) -> list[I64Tuple]:
        start = parser.pos
        entries: list[str | int] = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: _parse_layout_entry(parser),
        )
        found: dict[str, int] = {}
        spatial: dict[int, int] = {}
        for pos, entry in enumerate(entries):
            if isinstance(entry, int):
                if entry in spatial:
                    parser.raise_error(f"spatial dimension {entry} given twice", start)
                spatial[entry] = pos
            elif entry in letters and entry not in found:
                found[entry] = pos
            else:
                parser.raise_error(
                    f"unexpected '{entry}' in convolution layout, expected "
                    f"'{letters[0]}', '{letters[1]}' and spatial dimension numbers",
                    start,
                )
        if set(found) != set(letters):
            parser.raise_error(
                f"convolution layout needs '{letters[0]}' and '{letters[1]}'", start
            )
        if sorted(spatial) != list(range(len(spatial))):
            parser.raise_error(
                "convolution layout's spatial dimensions must be 0, 1, ... in some order",
                start,
            )
        return [
            I64Tuple((found[letters[0]],)),
            I64Tuple((found[letters[1]],)),
            I64Tuple(tuple(spatial[i] for i in range(len(spatial)))),
        ]

    start = parser.pos
    params = parse_layout(("b", "f"))
    parser.parse_characters("x")
    params += parse_layout(("i", "o"))
    parser.parse_punctuation("->")
    params += parse_layout(("b", "f"))
    _check_same_spatial_count(parser, params, start)
    return params


def _check_same_spatial_count(
    parser: AttrParser, params: list[I64Tuple], pos: int
) -> None:
    counts = [len(params[i].data) for i in (2, 5, 8)]
    if len(set(counts)) != 1:
        parser.raise_error(
            "input, kernel and output layouts of a convolution must have the same "
            f"number of spatial dimensions, got {counts[0]}, {counts[1]} and "
            f"{counts[2]}",
            pos,
        )


def _parse_raw_conv_fields(
    parser: AttrParser, fields: tuple[str, ...]
) -> list[I64Tuple]:
    """`input_batch_dimension = 0, input_spatial_dimensions = [1, 2], ...` (the
    part after `raw`); every field is required."""
    values: dict[str, tuple[int, ...]] = {}

    def parse_field() -> None:
        pos = parser.pos
        key = parser.parse_identifier()
        if key not in fields or key in values:
            parser.raise_error(
                f"unexpected or repeated field '{key}' in #stablehlo.conv", pos
            )
        parser.parse_punctuation("=")
        if key.endswith("dimensions"):
            values[key] = parse_int_list(parser)
        else:
            values[key] = (parser.parse_integer(allow_boolean=False),)

    start = parser.pos
    parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_field)
    missing = [f for f in fields if f not in values]
    if missing:
        parser.raise_error(f"#stablehlo.conv is missing {', '.join(missing)}", start)
    params = [I64Tuple(values[f]) for f in fields]
    _check_same_spatial_count(parser, params, start)
    return params


def _parse_layout_entry(parser: AttrParser) -> str | int:
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    if value is not None:
        return value
    return parser.parse_identifier(" (a layout letter or spatial dimension number)")


@irdl_attr_definition
class DotAlgorithmAttr(ParametrizedAttribute):
    """`#stablehlo.dot_algorithm<lhs_precision_type = tf32, ...>`: how a
    dot_general may compute (the precision of its operands and accumulator,
    how many parts each operand is split into, how many products it takes);
    dot_general's pretty form writes it `algorithm = <...>`."""

    name = "stablehlo.dot_algorithm"
    TYPE_FIELDS: ClassVar[tuple[str, ...]] = (
        "lhs_precision_type",
        "rhs_precision_type",
        "accumulation_type",
    )
    INT_FIELDS: ClassVar[tuple[str, ...]] = (
        "lhs_component_count",
        "rhs_component_count",
        "num_primitive_operations",
    )
    lhs_precision_type: Attribute = param_def()
    rhs_precision_type: Attribute = param_def()
    accumulation_type: Attribute = param_def()
    lhs_component_count: IntAttr = param_def()
    rhs_component_count: IntAttr = param_def()
    num_primitive_operations: IntAttr = param_def()
    allow_imprecise_accumulation: BoolAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields = (*cls.TYPE_FIELDS, *cls.INT_FIELDS, "allow_imprecise_accumulation")
        values: dict[str, Attribute] = {}

        def parse_field() -> None:
            pos = parser.pos
            key = parser.parse_identifier(f" (one of {', '.join(fields)})")
            if key not in fields or key in values:
                parser.raise_error(
                    f"unexpected field '{key}' in #{cls.name}, expected each of "
                    + ", ".join(fields),
                    pos,
                )
            parser.parse_punctuation("=")
            if key in cls.TYPE_FIELDS:
                values[key] = parser.parse_type()
            elif key in cls.INT_FIELDS:
                count_pos = parser.pos
                count = parser.parse_integer(allow_boolean=False)
                if count < 1:
                    parser.raise_error(
                        f"{key} must be at least 1, but is {count}", count_pos
                    )
                values[key] = IntAttr(count)
            else:
                values[key] = BoolAttr.from_bool(parser.parse_boolean())

        pos = parser.pos
        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
        missing = [f for f in fields if f not in values]
        if missing:
            parser.raise_error(f"#{cls.name} needs {', '.join(missing)}", pos)
        return [values[f] for f in fields]

    def print_parameters(self, printer: Printer) -> None:
        fields = (*self.TYPE_FIELDS, *self.INT_FIELDS)
        printer.print_string("<")
        for field, value in zip(fields, self.parameters, strict=False):
            printer.print_string(f"{field} = ")
            if isinstance(value, IntAttr):
                printer.print_string(str(value.data))
            else:
                printer.print_attribute(value)
            printer.print_string(", ")
        flag = "true" if self.allow_imprecise_accumulation.value.data else "false"
        printer.print_string(f"allow_imprecise_accumulation = {flag}>")

    def verify(self) -> None:
        for field in self.INT_FIELDS:
            value = getattr(self, field).data
            if value < 1:
                raise VerifyException(
                    f"#{self.name} {field} must be at least 1, but is {value}"
                )


STABLEHLO_ATTRIBUTES = [
    ChannelHandleAttr,
    DotDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
    OutputOperandAliasAttr,
    ConvDimensionNumbersAttr,
    DotAlgorithmAttr,
]
