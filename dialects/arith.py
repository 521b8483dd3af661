"""xDSL's `arith` dialect with what MLIR's arith has and xDSL's lacks:

* `arith.remf`, the float remainder of C's `fmod` (the result has the sign
  of the dividend and is exact), lowered to LLVM's `frem`. A remainder
  computed as `a - trunc(a / b) * b` is wrong once the quotient no longer
  fits the mantissa (f32 `1e30 rem 7`).
* `arith.extsi`, `extui`, `trunci`, `sitofp` and `fptosi` on vectors as
  well as scalars: register tiles (`passes/loop/jam_vector.py`) widen vectors
  of i8 lanes in an int8 contraction, and convert its sums back from f32
  (`passes/hlo/int_dot_in_f32.py`), which xDSL's scalar-only definitions
  refuse to verify.
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
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import AnyFloat, IntegerType, VectorType, container_of
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
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
class FPToSIOp(IRDLOperation):
    """A float-to-signed-integer cast (of vectors too), in xDSL's syntax."""

    name = "arith.fptosi"
    input = operand_def(FLOAT_LIKE)
    result = result_def(INTEGER_LIKE)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, op: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[op], result_types=[target_type])


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
    xdsl_arith.FPToSIOp: FPToSIOp,
}
"""xDSL's scalar-only casts -> the forms above that also take vectors."""

_OWN = [RemfOp, DotQuadsOp, *VECTOR_FORMS.values()]

Arith = Dialect(
    "arith",
    [
        *(op for op in XdslArith.operations if op.name not in {o.name for o in _OWN}),
        *_OWN,
    ],
    [*XdslArith.attributes],
)
