"""xDSL's `llvm` dialect as xlir loads it:

* its `llvm.func` is a kernel that `device.launch` may name
  (`LaunchableKernel`), as a target's own kernel op is. Between
  `loop-to-llvm` and `device-to-llvm` the host schedule launches the kernels
  lowered to LLVM (`LLVMEmitter.kernel_function`: the cpu's, the nvptx
  targets'); the trait is added through xDSL's `OpTraits.add_trait`, as the
  op is xDSL's.
* `llvm.select` takes a vector of i1 as its condition too, as LLVM's does
  (the vector selects of register tiles: `lowering/llvm/scalars.py`). xDSL's
  class counts it as its own (`register`), so its translation to LLVM IR
  (a match on xDSL's class) takes it.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import I1, VectorType
from xdsl.dialects.llvm import LLVM as XdslLLVM
from xdsl.dialects.llvm import FastMathAttr, FuncOp
from xdsl.ir import Dialect, Operation, SSAValue
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
from xdsl.traits import Pure
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


llvm.SelectOp.register(SelectOp)

LLVM = Dialect(
    "llvm",
    [*(op for op in XdslLLVM.operations if op.name != SelectOp.name), SelectOp],
    [*XdslLLVM.attributes],
)

__all__ = ["LLVM", "FuncOp", "SelectOp"]
