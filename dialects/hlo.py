"""The `hlo` dialect: XLA-internal ops that StableHLO lacks.

`hlo.fusion` holds a group of ops that the `fuse` pass decided to compute in one
loop nest (one kernel). Its operands are the fusion's inputs; its single-block
region takes one block argument per operand, uses nothing defined outside
(it is isolated from above), and ends in `hlo.yield`, whose operands become the
fusion's results. The fusion's `kind` is XLA's:

* `loop` — elementwise and data-movement ops, one output element per iteration;
* `input` — a reduction fusion: a `stablehlo.reduce` or `stablehlo.reduce_window`
  with the ops that feed it;
* `output` — a `stablehlo.dot_general` or `stablehlo.convolution` with the
  elementwise ops that consume its result.

Syntax (the attribute dictionary is optional; `-> T` for a single result):

    %r:2 = hlo.fusion kind = loop (%a, %b) {name = "f1"} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
      %p = stablehlo.add %x, %y : tensor<4xf32>
      %q = stablehlo.multiply %x, %y : tensor<4xf32>
      hlo.yield %p, %q : tensor<4xf32>, tensor<4xf32>
    }

The generic form carries the kind as `<{kind = #hlo<fusion_kind loop>}>`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ComplexType,
    DenseArrayBase,
    DictionaryAttr,
    TensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.hlo_buffers import HLO_BUFFER_ATTRIBUTES
from xlir.dialects.stablehlo.linalg import FftType, FftTypeAttr, fft_shape_problem
from xlir.dialects.stablehlo.types import element_type, is_float, shape
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    op_name,
    parse_function_type_tail,
    parse_int_list,
    parse_optional_operand_list,
    parse_terminator_values,
    print_attr_dict,
    print_function_type,
    print_int_list,
    print_operands,
    print_terminator_values,
    resolve_operands,
)


class FusionKind(StrEnum):
    LOOP = "loop"
    INPUT = "input"
    OUTPUT = "output"


@irdl_attr_definition
class FusionKindAttr(EnumAttribute[FusionKind], SpacedOpaqueSyntaxAttribute):
    """`#hlo<fusion_kind loop>`."""

    name = "hlo.fusion_kind"


REQUIRED_OPS: dict[FusionKind, tuple[str, ...]] = {
    FusionKind.INPUT: ("stablehlo.reduce", "stablehlo.reduce_window"),
    FusionKind.OUTPUT: ("stablehlo.dot_general", "stablehlo.convolution"),
}
"""The ops a fusion of each kind must contain (one of them, at least)."""


@dataclass(frozen=True)
class FusionIsolatedFromAbove(IsolatedFromAbove):
    """IsolatedFromAbove, with a diagnostic that names the fusion and the
    offending op."""

    def verify(self, op: Operation) -> None:
        for inner in _walk_regions(op.regions):
            for index, operand in enumerate(inner.operands):
                if not op.is_ancestor(operand.owner) or operand.owner is op:
                    raise VerifyException(
                        f"'{op.name}' op is isolated from above, but operand #{index} "
                        f"of '{op_name(inner)}' inside it is defined outside; pass the "
                        "value in as a fusion operand"
                    )


def _walk_regions(regions: Sequence[Region]) -> Iterator[Operation]:
    for region in regions:
        for block in region.blocks:
            for inner in block.ops:
                yield inner
                yield from _walk_regions(inner.regions)


@irdl_op_definition
class FusionOp(IRDLOperation):
    """A region of fused ops computed as one kernel; see the module docstring."""

    name = "hlo.fusion"
    inputs = var_operand_def()
    kind = prop_def(FusionKindAttr)
    outputs = var_result_def()
    body = region_def()
    traits = traits_def(FusionIsolatedFromAbove(), RecursiveEffects())

    def __init__(
        self,
        kind: FusionKind,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_types],
            properties={"kind": FusionKindAttr(kind)},
            regions=[body],
        )

    @property
    def fusion_kind(self) -> FusionKind:
        return self.kind.data

    @property
    def block(self) -> Block:
        block = self.body.block
        assert block is not None
        return block

    @property
    def yield_op(self) -> YieldOp:
        op = self.block.last_op
        assert isinstance(op, YieldOp)
        return op

    @classmethod
    def parse(cls, parser: Parser) -> FusionOp:
        parser.parse_keyword("kind")
        parser.parse_punctuation("=")
        kind = parser.parse_str_enum(FusionKind)
        pos = parser.pos
        parser.parse_punctuation("(")
        operands = parse_optional_operand_list(parser)
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text != "(":  # pyright: ignore[reportPrivateUsage]
            parser.raise_error(
                "expected the fusion's function type `(operand types) -> result types`"
            )
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, operands, operand_types, pos)
        body = parser.parse_region()
        op = cls(kind, values, result_types, body)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" kind = {self.fusion_kind.value} (")
        print_operands(printer, self.inputs)
        printer.print_string(")")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.inputs.types, self.outputs.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    def verify_(self) -> None:
        if len(self.body.blocks) != 1:
            raise VerifyException(
                f"'{self.name}' op region must have exactly one block, but has "
                f"{len(self.body.blocks)}"
            )
        block = self.block
        arg_types = list(block.arg_types)
        operand_types = list(self.inputs.types)
        if arg_types != operand_types:
            raise VerifyException(
                f"'{self.name}' op block argument types "
                f"({', '.join(map(str, arg_types))}) must equal the operand types "
                f"({', '.join(map(str, operand_types))})"
            )
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            found = "nothing" if terminator is None else f"'{op_name(terminator)}'"
            raise VerifyException(
                f"'{self.name}' op region must end in 'hlo.yield', but ends in {found}"
            )
        yielded = list(terminator.values.types)
        result_types = list(self.outputs.types)
        if yielded != result_types:
            raise VerifyException(
                f"'{self.name}' op yielded types ({', '.join(map(str, yielded))}) "
                f"must equal the result types ({', '.join(map(str, result_types))})"
            )
        required = REQUIRED_OPS.get(self.fusion_kind)
        if required is not None and not any(
            op_name(inner) in required for inner in _walk_regions([self.body])
        ):
            raise VerifyException(
                f"'{self.name}' op of kind {self.fusion_kind.value} must contain "
                + " or ".join(f"'{name}'" for name in required)
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a fusion's region; its operands are the fusion's results.

    `hlo.yield %p, %q : tensor<4xf32>, tensor<4xf32>` (or `hlo.yield` for none)."""

    name = "hlo.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(FusionOp), Pure())

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        values, attributes = parse_terminator_values(parser)
        op = cls(*values)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_terminator_values(printer, self.values, self.attributes)


@irdl_op_definition
class FftOp(IRDLOperation):
    """`stablehlo.fft` on complex numbers held as their real and imaginary
    parts (what `split-complex` makes of it: passes/hlo/split_complex.py):

        %re, %im = hlo.fft %x_re, %x_im, type = FFT, length = [8]
            : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)

    A complex side is two tensors (real parts, imaginary parts), a real side
    one: FFT and IFFT take two and give two, RFFT takes one and gives two,
    IRFFT takes two and gives one. Shapes follow `stablehlo.fft`'s rule."""

    name = "hlo.fft"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        kind: FftType,
        length: Sequence[int],
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_types],
            properties={"fft_type": FftTypeAttr(kind), "fft_length": i64_array(length)},
        )

    @property
    def kind(self) -> FftType:
        return self.fft_type.data

    @property
    def length(self) -> tuple[int, ...]:
        return array_values(self.fft_length)

    @classmethod
    def parse(cls, parser: Parser) -> FftOp:
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        while True:
            parser.parse_punctuation(",")
            if parser.parse_optional_keyword("type") is not None:
                break
            operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("=")
        kind = parser.parse_str_enum(FftType)
        parser.parse_punctuation(",")
        parser.parse_characters("length")
        parser.parse_punctuation("=")
        length = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, operands, operand_types, pos)
        op = cls(values, kind, length, result_types)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.inputs)
        length = print_int_list(self.length)
        printer.print_string(f", type = {self.kind.value}, length = {length}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.inputs.types, self.outputs.types)

    def verify_(self) -> None:
        kind = self.kind
        want = (
            1 if kind == FftType.RFFT else 2,
            1 if kind == FftType.IRFFT else 2,
        )
        got = (len(self.inputs), len(self.outputs))
        if got != want:
            raise VerifyException(
                f"'{self.name}' op {kind.value} takes {want[0]} and gives {want[1]} "
                f"tensor(s) (a complex side is its real and imaginary parts), but "
                f"has {got[0]} operand(s) and {got[1]} result(s)"
            )
        types = [*self.inputs.types, *self.outputs.types]
        elements = {element_type(t) for t in types}
        if len(elements) != 1 or not is_float(next(iter(elements))):
            raise VerifyException(
                f"'{self.name}' op needs one float element type for every operand "
                f"and result, but has {', '.join(sorted(map(str, elements)))}"
            )
        for group in (self.inputs.types, self.outputs.types):
            if len({shape(t) for t in group}) != 1:
                raise VerifyException(
                    f"'{self.name}' op real and imaginary parts must have one shape, "
                    f"but have {', '.join(str(t) for t in group)}"
                )
        in_shape = shape(self.inputs.types[0])
        problem = fft_shape_problem(
            kind, self.length, in_shape, shape(self.outputs.types[0])
        )
        trailing = list(in_shape[-len(self.length) :])
        complex_in = kind in (FftType.FFT, FftType.IFFT)
        if not problem and complex_in and trailing != list(self.length):
            problem = (
                f"{kind.value} needs the operand's trailing dimensions to be "
                f"{list(self.length)}, but its shape is {list(in_shape)}"
            )
        if problem:
            raise VerifyException(f"'{self.name}' op {problem}")


COMPLEX_ATTRIBUTE = "xlir.complex"
"""Marks a function argument or result of type S x 2 x F that holds the
complex<F> tensor of shape S (real and imaginary parts interleaved)."""


def complex_signature_type(type_: Attribute, attributes: Attribute | None) -> Attribute:
    """The type a host passes for an argument or result: its complex type
    where `attributes` (its dictionary) carries `xlir.complex`."""
    if not (
        isinstance(attributes, DictionaryAttr)
        and COMPLEX_ATTRIBUTE in attributes.data
        and isinstance(type_, TensorType)
    ):
        return type_
    return TensorType(ComplexType(type_.get_element_type()), type_.get_shape()[:-1])


HLO_OPS: list[type[IRDLOperation]] = [FusionOp, YieldOp, FftOp]

Hlo = Dialect("hlo", [*HLO_OPS], [FusionKindAttr, *HLO_BUFFER_ATTRIBUTES])
"""The hlo dialect."""
