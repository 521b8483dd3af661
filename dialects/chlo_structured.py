"""chlo ops with a body or dimension numbers: `chlo.scan` and `chlo.ragged_dot`.

%out, %carry = chlo.scan(%x) inits(%init) dimension=0 {
^bb0(%element: tensor<i32>, %running: tensor<i32>):
  ...
  stablehlo.return %next, %next : tensor<i32>, tensor<i32>
} : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)

%r = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {
       ragged_dot_dimension_numbers = #chlo.ragged_dot<...>} : ...
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.stablehlo.attributes import (
    _DimensionFields,
)
from xlir.dialects.stablehlo.control_flow import check_region_signature
from xlir.dialects.stablehlo.enums import (
    Precision,
)
from xlir.dialects.stablehlo.types import element_type, is_integer, shape
from xlir.dialects.syntax import (
    I64Tuple,
    parse_function_type_tail,
    print_attr_dict,
    print_function_type,
    print_operands,
    resolve_operands,
)


def _fail(op: IRDLOperation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _without(dims: Sequence[int], dimension: int) -> list[int]:
    return [d for i, d in enumerate(dims) if i != dimension]


@irdl_op_definition
class ScanOp(IRDLOperation):
    """A scan along `dimension`: the body takes one slice of each input and
    the carries, and returns one slice of each output and the next carries.
    The results are the outputs (slices stacked along `dimension`), then the
    final carries. `is_reverse` scans from the end."""

    name = "chlo.scan"
    inputs = var_operand_def(TensorType)
    inits = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    body = region_def()
    dimension = prop_def(IntegerAttr[I64])
    is_reverse = opt_prop_def(BoolAttr)
    traits = traits_def(RecursiveEffects())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        pos = parser.pos
        inputs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_characters("inits")
        inits = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_characters("dimension")
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False, allow_negative=False)
        attributes: dict[str, Attribute] = {}
        if parser.parse_optional_characters("attributes") is not None:
            attributes = parser.parse_optional_attr_dict()
        body = parser.parse_region()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, [*inputs, *inits], operand_types, pos)
        properties: dict[str, Attribute] = {"dimension": IntegerAttr(dimension, i64)}
        reverse = attributes.pop("is_reverse", None)
        if reverse is not None:
            properties["is_reverse"] = reverse
        op = cls.create(
            operands=list(values),
            result_types=list(result_types),
            properties=properties,
            regions=[body],
        )
        op.properties["operandSegmentSizes"] = cls._segments(len(inputs), len(inits))
        op.attributes.update(attributes)
        return op

    @staticmethod
    def _segments(inputs: int, inits: int) -> Attribute:
        return DenseArrayBase.from_list(i32, [inputs, inits])

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        print_operands(printer, self.inputs)
        printer.print_string(") inits(")
        print_operands(printer, self.inits)
        printer.print_string(f") dimension={self.dimension.value.data}")
        extra = dict(self.attributes)
        if self.is_reverse is not None:
            extra["is_reverse"] = self.is_reverse
        if extra:
            printer.print_string(" attributes")
            print_attr_dict(printer, extra)
        printer.print_string(" ")
        printer.print_region(self.body)
        printer.print_string(" : ")
        print_function_type(
            printer, [*self.inputs.types, *self.inits.types], self.results_.types
        )

    def verify_(self) -> None:
        dimension = self.dimension.value.data
        carries = list(self.inits.types)
        outputs = list(self.results_.types)[: len(self.results_) - len(carries)]
        if list(self.results_.types)[len(outputs) :] != carries:
            raise _fail(self, "the last results must have the types of the inits")
        if not self.inputs:
            raise _fail(self, "needs at least one input")
        length = None
        slices = []
        for what, value in [
            *(("input", t) for t in self.inputs.types),
            *(("output", t) for t in outputs),
        ]:
            dims = shape(value)
            if dimension >= len(dims):
                raise _fail(
                    self, f"dimension {dimension} is out of range for {what} {value}"
                )
            if length is None:
                length = dims[dimension]
            elif dims[dimension] != length:
                raise _fail(
                    self,
                    f"every input and output must have {length} elements along "
                    f"dimension {dimension}, but {what} {value} has {dims[dimension]}",
                )
            assert isinstance(value, TensorType)
            slices.append(
                TensorType(value.get_element_type(), _without(dims, dimension))
            )
        input_slices, output_slices = (
            slices[: len(self.inputs)],
            slices[len(self.inputs) :],
        )
        check_region_signature(
            self,
            self.body,
            "body",
            [*input_slices, *carries],
            [*output_slices, *carries],
        )


@irdl_attr_definition
class ChloPrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision DEFAULT>`: stablehlo's precision, spelled in chlo."""

    name = "chlo.precision"


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(_DimensionFields):
    """`#chlo.ragged_dot<...>`: dot_general's dimension numbers, plus lhs's
    ragged dimension and rhs's group dimension."""

    name = "chlo.ragged_dot"
    LIST_FIELDS = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
        "lhs_ragged_dimensions",
        "rhs_group_dimensions",
    )
    lhs_batching_dimensions: I64Tuple = param_def()
    rhs_batching_dimensions: I64Tuple = param_def()
    lhs_contracting_dimensions: I64Tuple = param_def()
    rhs_contracting_dimensions: I64Tuple = param_def()
    lhs_ragged_dimensions: I64Tuple = param_def()
    rhs_group_dimensions: I64Tuple = param_def()


def ragged_dot_result_shape(
    numbers: RaggedDotDimensionNumbersAttr,
    lhs: Sequence[int],
    rhs: Sequence[int],
    groups: int,
) -> list[int]:
    """The result shape: batch, lhs's free dimensions, rhs's free dimensions
    (a ragged contracting dimension adds the groups in front)."""
    lb, rb = (
        numbers.field("lhs_batching_dimensions"),
        numbers.field("rhs_batching_dimensions"),
    )
    lc, rc = (
        numbers.field("lhs_contracting_dimensions"),
        numbers.field("rhs_contracting_dimensions"),
    )
    ragged = numbers.field("lhs_ragged_dimensions")
    group = numbers.field("rhs_group_dimensions")
    lhs_free = [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    rhs_free = [
        rhs[d]
        for d in range(len(rhs))
        if d not in rb and d not in rc and d not in group
    ]
    front = [groups] if ragged and ragged[0] in lc else []
    return [*front, *(lhs[d] for d in lb), *lhs_free, *rhs_free]


@irdl_op_definition
class RaggedDotOp(IRDLOperation):
    """A dot_general whose lhs ragged dimension is split into groups of
    `group_sizes` rows; each group is multiplied by its own rhs (rhs's group
    dimension picks it)."""

    name = "chlo.ragged_dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    group_sizes = operand_def(TensorType)
    result = result_def(TensorType)
    ragged_dot_dimension_numbers = prop_def(RaggedDotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        numbers = self.ragged_dot_dimension_numbers
        lhs, rhs = shape(self.lhs.type), shape(self.rhs.type)
        sizes = shape(self.group_sizes.type)
        if len(numbers.field("lhs_ragged_dimensions")) != 1:
            raise _fail(self, "needs exactly one lhs ragged dimension")
        for field in RaggedDotDimensionNumbersAttr.LIST_FIELDS:
            rank = len(lhs if field.startswith("lhs") else rhs)
            for dim in numbers.field(field):
                if not 0 <= dim < rank:
                    raise _fail(
                        self,
                        f"{field} holds {dim}, but the operand has rank {rank}",
                    )
        if not is_integer(element_type(self.group_sizes.type)) or len(sizes) != 1:
            raise _fail(
                self,
                f"group_sizes must be a 1-D tensor of integers, but has type "
                f"{self.group_sizes.type}",
            )
        ragged = numbers.field("lhs_ragged_dimensions")[0]
        group = numbers.field("rhs_group_dimensions")
        is_mode_1 = ragged not in numbers.field(
            "lhs_contracting_dimensions"
        ) and ragged not in numbers.field("lhs_batching_dimensions")
        if is_mode_1 and (len(group) != 1 or rhs[group[0]] != sizes[0]):
            raise _fail(
                self,
                f"rhs group dimension must have one entry per group ({sizes[0]}), "
                f"but rhs has shape {list(rhs)} and group dimensions {list(group)}",
            )
        want = ragged_dot_result_shape(numbers, lhs, rhs, sizes[0])
        if list(shape(self.result.type)) != want:
            raise _fail(
                self,
                f"result shape {list(shape(self.result.type))} must be {want}",
            )


STRUCTURED_OPS: list[type[IRDLOperation]] = [ScanOp, RaggedDotOp]
STRUCTURED_ATTRIBUTES = [ChloPrecisionAttr, RaggedDotDimensionNumbersAttr]
