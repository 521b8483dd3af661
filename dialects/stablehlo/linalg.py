"""Linear algebra and transforms: triangular_solve, cholesky and fft.

%x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true,
       unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}
       : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
%y = stablehlo.fft %x, type = FFT, length = [4]
       : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    TensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
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
from xdsl.utils.str_enum import StrEnum
from xlir.dialects.stablehlo.types import element_type, is_float, shape
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    parse_function_type_tail,
    parse_int_list,
    print_attr_dict,
    print_function_type,
    print_int_list,
    resolve_operands,
)


class Transpose(StrEnum):
    TRANSPOSE_INVALID = "TRANSPOSE_INVALID"
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.transpose"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.fft_type"


def _fail(op: IRDLOperation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _is_float_or_complex(element: Attribute) -> bool:
    return is_float(element) or isinstance(element, ComplexType)


@irdl_op_definition
class TriangularSolveOp(IRDLOperation):
    """Solves `op(a) x = b` (left side) or `x op(a) = b` for x, batched over
    the leading dimensions; a's `lower` (or upper) triangle is used, with ones
    on its diagonal if `unit_diagonal`, and op is the identity, a transpose or
    the conjugate transpose."""

    name = "stablehlo.triangular_solve"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a_shape, b_shape = shape(self.a.type), shape(self.b.type)
        element = element_type(self.a.type)
        if not _is_float_or_complex(element):
            raise _fail(self, f"a must have float or complex elements, not {element}")
        if element_type(self.b.type) != element:
            raise _fail(
                self,
                f"a and b must have one element type, but have {element} and "
                f"{element_type(self.b.type)}",
            )
        if len(a_shape) < 2 or a_shape[-1] != a_shape[-2]:
            raise _fail(
                self, f"a must be square matrices, but has shape {list(a_shape)}"
            )
        if len(b_shape) != len(a_shape) or b_shape[:-2] != a_shape[:-2]:
            raise _fail(
                self,
                f"b must have a's rank and batch dimensions {list(a_shape[:-2])}, "
                f"but has shape {list(b_shape)}",
            )
        solved = b_shape[-2] if self.left_side.value.data else b_shape[-1]
        if solved != a_shape[-1]:
            side = "rows" if self.left_side.value.data else "columns"
            raise _fail(
                self,
                f"b must have {a_shape[-1]} {side} to match a, but has shape "
                f"{list(b_shape)}",
            )
        if self.result.type != self.b.type:
            raise _fail(
                self, f"result type {self.result.type} must equal b's {self.b.type}"
            )
        if self.transpose_a.data == Transpose.TRANSPOSE_INVALID:
            raise _fail(self, "transpose_a must not be TRANSPOSE_INVALID")


@irdl_op_definition
class FftOp(IRDLOperation):
    """The (inverse, real) discrete Fourier transform over the trailing
    `length` dimensions."""

    name = "stablehlo.fft"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> FftOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_characters("type")
        parser.parse_punctuation("=")
        kind = parser.parse_str_enum(FftType)
        parser.parse_punctuation(",")
        parser.parse_characters("length")
        parser.parse_punctuation("=")
        length = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, [operand], operand_types, pos)
        if len(result_types) != 1:
            parser.raise_error("expected one result type", pos)
        op = cls.create(
            operands=list(values),
            result_types=list(result_types),
            properties={
                "fft_type": FftTypeAttr(kind),
                "fft_length": i64_array(length),
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        length = print_int_list(array_values(self.fft_length))
        printer.print_string(f", type = {self.fft_type.data.value}, length = {length}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, [self.operand.type], [self.result.type])

    def verify_(self) -> None:
        kind = self.fft_type.data
        length = array_values(self.fft_length)
        source, target = element_type(self.operand.type), element_type(self.result.type)
        real_in, real_out = kind == FftType.RFFT, kind == FftType.IRFFT
        for what, element, real in (
            ("operand", source, real_in),
            ("result", target, real_out),
        ):
            ok = is_float(element) if real else isinstance(element, ComplexType)
            if not ok:
                want = "float" if real else "complex"
                raise _fail(
                    self,
                    f"{kind.value} needs {want} elements in its {what}, not {element}",
                )
        problem = fft_shape_problem(
            kind, length, shape(self.operand.type), shape(self.result.type)
        )
        if problem:
            raise _fail(self, problem)


def fft_shape_problem(
    kind: FftType,
    length: Sequence[int],
    in_shape: Sequence[int],
    out_shape: Sequence[int],
) -> str | None:
    """What is wrong with the shapes of an fft of `kind` over `length` (None
    when nothing is); `hlo.fft`, the same transform on real and imaginary
    parts, shares the rule."""
    if not 1 <= len(length) <= 3 or len(length) > len(in_shape):
        return (
            f"length must name 1 to 3 trailing dimensions of the operand, but "
            f"is {list(length)} for shape {list(in_shape)}"
        )
    want_shape = list(in_shape)
    if kind == FftType.RFFT:
        if list(in_shape[-len(length) :]) != list(length):
            return (
                f"RFFT needs the operand's trailing dimensions to be {list(length)}"
                f", but its shape is {list(in_shape)}"
            )
        want_shape[-1] = length[-1] // 2 + 1
    elif kind == FftType.IRFFT:
        want_in = [*length[:-1], length[-1] // 2 + 1]
        if list(in_shape[-len(length) :]) != want_in:
            return (
                f"IRFFT needs the operand's trailing dimensions to be {want_in}, "
                f"but its shape is {list(in_shape)}"
            )
        want_shape[-len(length) :] = length
    if list(out_shape) != want_shape:
        return (
            f"result shape {list(out_shape)} must be {want_shape} for "
            f"{kind.value} of length {list(length)}"
        )
    return None


@irdl_op_definition
class CholeskyOp(IRDLOperation):
    """`stablehlo.cholesky %a, lower = true : tensor<3x3xf32>`: the Cholesky
    factor of each Hermitian positive-definite matrix of `a` (lower: L with
    a = L L^H, else U with a = U^H U); the other triangle is
    implementation-defined."""

    name = "stablehlo.cholesky"
    a = operand_def(TensorType)
    result = result_def(TensorType)
    lower = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> CholeskyOp:
        operand = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_characters("lower")
            parser.parse_punctuation("=")
            properties["lower"] = BoolAttr.from_bool(parser.parse_boolean())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(operand, type_)],
            result_types=[type_],
            properties=properties,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.lower is not None:
            flag = "true" if self.lower.value.data else "false"
            printer.print_string(f", lower = {flag}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        dims = shape(self.a.type)
        element = element_type(self.a.type)
        if not _is_float_or_complex(element):
            raise _fail(self, f"a must have float or complex elements, not {element}")
        if len(dims) < 2 or dims[-1] != dims[-2]:
            raise _fail(self, f"a must be square matrices, but has shape {list(dims)}")
        if self.result.type != self.a.type:
            raise _fail(
                self, f"result type {self.result.type} must equal a's {self.a.type}"
            )


LINALG_OPS: list[type[IRDLOperation]] = [TriangularSolveOp, FftOp, CholeskyOp]
LINALG_ATTRIBUTES = [TransposeAttr, FftTypeAttr]
