"""xDSL's `llvm` dialect as xlir loads it:

* its `llvm.func` is a kernel that `device.launch` may name
  (`LaunchableKernel`), as a target's own kernel op is. Between
  `loop-to-llvm` and `device-to-llvm` the host schedule launches the kernels
  lowered to LLVM (`LLVMEmitter.kernel_function`: the cpu's, the nvptx
  targets'); the trait is added through xDSL's `OpTraits.add_trait`, as the
  op is xDSL's.
* `llvm.select` takes a vector of i1 as its condition too, and `llvm.fcmp`
  compares vectors of floats into a vector of i1, as LLVM's do (the vector
  selects and compares of register tiles: `lowering/llvm/scalars.py`).
  xDSL's classes count them as their own (`register`), so its translation
  to LLVM IR (a match on xDSL's class) takes them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I1,
    AnyFloat,
    IntegerAttr,
    VectorType,
    container_of,
    i1,
    i64,
)
from xdsl.dialects.llvm import LLVM as XdslLLVM
from xdsl.dialects.llvm import FastMathAttr, FCmpPredicateFlag, FuncOp
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.device import LaunchableKernel

FuncOp.traits.add_trait(LaunchableKernel())


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`%r = llvm.select %c, %a, %b : vector<16xi1>, vector<16xi32>`"""

    name = "llvm.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(I1 | VectorType[I1])
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))
    traits = traits_def(Pure())
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        cond: Operation | SSAValue,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
    ):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`%c = llvm.fcmp "olt" %a, %b : vector<16xf32>` (a `vector<16xi1>`)"""

    name = "llvm.fcmp"
    T: ClassVar = VarConstraint("T", container_of(AnyFloat))
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(container_of(I1))
    predicate = prop_def(IntegerAttr[i64])
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: int,
        attributes: dict[str, Attribute] | None = None,
    ):
        lhs = SSAValue.get(lhs)
        type_ = lhs.type
        result = (
            VectorType(i1, type_.get_shape()) if isinstance(type_, VectorType) else i1
        )
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result],
            attributes=attributes or {},
            properties={"predicate": IntegerAttr(predicate, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        flag = FCmpPredicateFlag(parser.parse_str_literal())
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        return cls(lhs, rhs, flag.to_int(), attributes)

    def verify_(self) -> None:
        type_ = self.lhs.type
        shape = type_.get_shape() if isinstance(type_, VectorType) else None
        lanes = self.res.type
        if shape != (lanes.get_shape() if isinstance(lanes, VectorType) else None):
            raise VerifyException(
                f"result type {lanes} does not match operands of type {type_}"
            )

    def print(self, printer: Printer) -> None:
        flag = FCmpPredicateFlag.from_int(self.predicate.value.data)
        printer.print_string(f' "{flag}" ')
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


llvm.SelectOp.register(SelectOp)
llvm.FCmpOp.register(FCmpOp)

_OWN = (SelectOp, FCmpOp)

LLVM = Dialect(
    "llvm",
    [
        *(op for op in XdslLLVM.operations if op.name not in {o.name for o in _OWN}),
        *_OWN,
    ],
    [*XdslLLVM.attributes],
)

__all__ = ["LLVM", "FCmpOp", "FuncOp", "SelectOp"]
