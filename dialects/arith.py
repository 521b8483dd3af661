"""xDSL's `arith` dialect with what MLIR's arith has and xDSL's lacks:

* `arith.remf`, the float remainder of C's `fmod` (the result has the sign
  of the dividend and is exact), lowered to LLVM's `frem`. A remainder
  computed as `a - trunc(a / b) * b` is wrong once the quotient no longer
  fits the mantissa (f32 `1e30 rem 7`).
* `arith.extsi`, `extui`, `trunci`, `sitofp`, `uitofp`, `fptosi` and
  `fptoui` on vectors as well as scalars: register tiles
  (`passes/loop/jam_vector.py`) widen vectors of i8 lanes in an int8
  contraction, convert its sums back from f32
  (`passes/hlo/int_dot_in_f32.py`) and turn a one-hot's compares into floats
  (a mixture of experts' routing), which xDSL's scalar-only definitions
  refuse to verify.
* `arith.cmpi` and `arith.cmpf` with vectors of i1 as results, and
  `arith.select` with vectors of i1 as conditions, as MLIR's arith has them:
  a register tile of a bf16 dot rounds its f32 sums to bf16 with integer
  compares and selects (NaN stays NaN: `passes/loop/float_formats.py`), a
  dot's relu epilogue compares its sums with zero, on vectors. xDSL's
  classes count these as theirs (`register`), so a check of `isinstance(op,
  arith.CmpiOp)` holds for the compares the parser builds (and so for
  `uitofp` and `fptoui`).
* `arith.dot_quads`, which MLIR's arith lacks: each i32 lane of the
  accumulator plus the dot product of the four unsigned bytes of the lane
  of `lhs` with the four signed bytes of `rhs` (x86's `vpdpbusd`, without
  saturation: the sum wraps as `arith.addi` does). `dot-quads`
  (passes/loop/dot_quads.py) makes it of an int8 dot's byte quads.
* `predicate`: a compare's predicate by name (`olt`, `slt`), as MLIR's
  arith spells it, where xDSL's keeps a table per compare op; `full_name`,
  an op's name with it (`arith.cmpf olt`): how a diagnostic names a compare
  a target cannot run, and a table of instructions keys it.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects.arith import Arith as XdslArith
from xdsl.dialects.arith import (
    CmpiHasCanonicalizationPatterns,
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
    SelectHasCanonicalizationPatterns,
    signlessIntegerLike,
)
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerAttr,
    IntegerType,
    VectorType,
    container_of,
    i1,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RemfOp(FloatingPointLikeBinaryOperation):
    name = "arith.remf"

    traits = traits_def(Pure())


INTEGER_LIKE = container_of(IntegerType)
FLOAT_LIKE = container_of(AnyFloat)


def _element_width(type_: Attribute) -> int:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    assert isinstance(element, IntegerType)
    return element.width.data


def _check_widening(op: Operation, wider: bool) -> None:
    source = _element_width(op.operands[0].type)
    target = _element_width(op.results[0].type)
    if (target > source) != wider or target == source:
        raise VerifyException(
            f"Destination bit-width must be {'larger' if wider else 'smaller'} "
            "than the input bit-width"
        )


class _IntegerCast(IRDLOperation):
    """A cast from integers (or vectors of them), in xDSL's syntax."""

    input = operand_def(INTEGER_LIKE)
    result = result_def(INTEGER_LIKE)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, op: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[op], result_types=[target_type])


@irdl_op_definition
class ExtSIOp(_IntegerCast):
    name = "arith.extsi"

    def verify_(self) -> None:
        _check_widening(self, wider=True)


@irdl_op_definition
class ExtUIOp(_IntegerCast):
    name = "arith.extui"

    def verify_(self) -> None:
        _check_widening(self, wider=True)


@irdl_op_definition
class TruncIOp(_IntegerCast):
    name = "arith.trunci"

    def verify_(self) -> None:
        _check_widening(self, wider=False)


@irdl_op_definition
class SIToFPOp(_IntegerCast):
    name = "arith.sitofp"
    result = result_def(FLOAT_LIKE)


@irdl_op_definition
class UIToFPOp(_IntegerCast):
    name = "arith.uitofp"
    result = result_def(FLOAT_LIKE)


class _FloatToIntegerCast(IRDLOperation):
    """A float-to-integer cast (of vectors too), in xDSL's syntax."""

    input = operand_def(FLOAT_LIKE)
    result = result_def(INTEGER_LIKE)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, op: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[op], result_types=[target_type])


@irdl_op_definition
class FPToSIOp(_FloatToIntegerCast):
    name = "arith.fptosi"


@irdl_op_definition
class FPToUIOp(_FloatToIntegerCast):
    name = "arith.fptoui"


@irdl_op_definition
class DotQuadsOp(IRDLOperation):
    """`acc + sum(u8(lhs byte t) * s8(rhs byte t), t < 4)` per i32 lane (module
    docstring).

    `%r = arith.dot_quads %acc, %lhs, %rhs : vector<16xi32>`"""

    name = "arith.dot_quads"
    T: ClassVar = VarConstraint("T", container_of(IntegerType(32)))
    acc = operand_def(T)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$acc `,` $lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, acc: SSAValue, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[acc, lhs, rhs], result_types=[acc.type])


def _lanes_of(type_: Attribute) -> tuple[int, ...] | None:
    """A vector type's shape; None for a scalar."""
    return tuple(type_.get_shape()) if isinstance(type_, VectorType) else None


def _booleans_like(type_: Attribute) -> Attribute:
    """i1, or a vector of i1 of the shape of a vector `type_`."""
    shape = _lanes_of(type_)
    return i1 if shape is None else VectorType(i1, shape)


def _check_booleans(compare: CmpiOp | CmpfOp) -> None:
    """A compare's result is an i1 per lane of its operands."""
    expected = _booleans_like(compare.lhs.type)
    if compare.result.type != expected:
        raise VerifyException(
            f"result type {compare.result.type} does not match operands of type "
            f"{compare.lhs.type} (expected {expected})"
        )


def _operands(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """`count` operands, separated by commas."""
    operands = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


@irdl_op_definition
class CmpiOp(IRDLOperation):
    """xDSL's `arith.cmpi`, on vectors too: an i1 per lane.

    `%c = arith.cmpi ugt, %a, %b : vector<16xi32>`"""

    name = "arith.cmpi"
    T: ClassVar = VarConstraint("T", signlessIntegerLike)
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(container_of(IntegerType(1)))
    traits = traits_def(CmpiHasCanonicalizationPatterns(), Pure())

    def __init__(
        self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, arg: int | str
    ):
        lhs = SSAValue.get(lhs)
        if isinstance(arg, str):
            arg = xdsl_arith.CMPI_COMPARISON_OPERATIONS.index(arg)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_booleans_like(lhs.type)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    def verify_(self) -> None:
        _check_booleans(self)

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        arg = parser.parse_identifier()
        parser.parse_punctuation(",")
        lhs, rhs = _operands(parser, 2)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        if arg not in xdsl_arith.CMPI_COMPARISON_OPERATIONS:
            parser.raise_error(f"Unknown comparison mnemonic: {arg}")
        return cls(lhs, rhs, arg)

    def print(self, printer: Printer) -> None:
        name = xdsl_arith.CMPI_COMPARISON_OPERATIONS[self.predicate.value.data]
        printer.print_string(f" {name}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class CmpfOp(IRDLOperation):
    """xDSL's `arith.cmpf`, on vectors too: an i1 per lane.

    `%c = arith.cmpf olt, %a, %b : vector<16xf32>`"""

    name = "arith.cmpf"
    T: ClassVar = VarConstraint("T", FLOAT_LIKE)
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    result = result_def(container_of(IntegerType(1)))
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        arg: int | str,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        lhs = SSAValue.get(lhs)
        fastmath = fastmath or FastMathFlagsAttr("none")
        if isinstance(arg, str):
            arg = xdsl_arith.CMPF_COMPARISON_OPERATIONS.index(arg)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_booleans_like(lhs.type)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    def verify_(self) -> None:
        _check_booleans(self)

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        arg = parser.parse_identifier()
        parser.parse_punctuation(",")
        lhs, rhs = _operands(parser, 2)
        fastmath = FastMathFlagsAttr("none")
        if parser.parse_optional_keyword("fastmath"):
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        if arg not in xdsl_arith.CMPF_COMPARISON_OPERATIONS:
            parser.raise_error(f"Unknown comparison mnemonic: {arg}")
        return cls(lhs, rhs, arg, fastmath)

    def print(self, printer: Printer) -> None:
        name = xdsl_arith.CMPF_COMPARISON_OPERATIONS[self.predicate.value.data]
        printer.print_string(f" {name}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.fastmath != FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """xDSL's `arith.select`, with a vector of i1 choosing lane by lane too;
    its type is printed before the result's then, as MLIR prints it.

    `%r = arith.select %c, %a, %b : vector<16xi1>, vector<16xi32>`"""

    name = "arith.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(container_of(IntegerType(1)))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), SelectHasCanonicalizationPatterns())

    def __init__(
        self,
        cond: SSAValue | Operation,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
    ):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        shape = _lanes_of(self.cond.type)
        if shape is not None and shape != _lanes_of(self.result.type):
            raise VerifyException(
                f"a condition of type {self.cond.type} chooses lanes of a "
                f"vector of that shape, not of {self.result.type}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond, lhs, rhs = _operands(parser, 3)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type: Attribute = i1
        type_ = parser.parse_type()
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, type_ = type_, parser.parse_type()
        operands = parser.resolve_operands(
            [cond, lhs, rhs], [cond_type, type_, type_], parser.pos
        )
        op = cls(*operands)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, VectorType):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


def predicate(op: xdsl_arith.CmpfOp | xdsl_arith.CmpiOp) -> str:
    if isinstance(op, xdsl_arith.CmpfOp):
        return xdsl_arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    return xdsl_arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]


def full_name(op: Operation) -> str:
    if isinstance(op, xdsl_arith.CmpfOp | xdsl_arith.CmpiOp):
        return f"{op.name} {predicate(op)}"
    return op.name


VECTOR_FORMS: dict[type[Operation], type[Operation]] = {
    xdsl_arith.ExtSIOp: ExtSIOp,
    xdsl_arith.ExtUIOp: ExtUIOp,
    xdsl_arith.TruncIOp: TruncIOp,
    xdsl_arith.SIToFPOp: SIToFPOp,
    xdsl_arith.UIToFPOp: UIToFPOp,
    xdsl_arith.FPToSIOp: FPToSIOp,
    xdsl_arith.FPToUIOp: FPToUIOp,
    xdsl_arith.CmpiOp: CmpiOp,
    xdsl_arith.CmpfOp: CmpfOp,
    xdsl_arith.SelectOp: SelectOp,
}
"""xDSL's scalar-only ops -> the forms above that also take vectors."""

xdsl_arith.CmpiOp.register(CmpiOp)
xdsl_arith.CmpfOp.register(CmpfOp)
xdsl_arith.SelectOp.register(SelectOp)
xdsl_arith.UIToFPOp.register(UIToFPOp)
xdsl_arith.FPToUIOp.register(FPToUIOp)

_OWN = [RemfOp, DotQuadsOp, *VECTOR_FORMS.values()]

Arith = Dialect(
    "arith",
    [
        *(op for op in XdslArith.operations if op.name not in {o.name for o in _OWN}),
        *_OWN,
    ],
    [*XdslArith.attributes],
)
