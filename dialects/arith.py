"""xDSL's `arith` dialect with `arith.remf`, which MLIR's arith has and
xDSL's lacks: the float remainder of C's `fmod` (the result has the sign of
the dividend and is exact), lowered to LLVM's `frem`. A remainder computed as
`a - trunc(a / b) * b` is wrong once the quotient no longer fits the mantissa
(f32 `1e30 rem 7`)."""

from __future__ import annotations

from xdsl.dialects.arith import Arith as XdslArith
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class RemfOp(FloatingPointLikeBinaryOperation):
    name = "arith.remf"

    traits = traits_def(Pure())


Arith = Dialect(
    "arith",
    [*XdslArith.operations, RemfOp],
    [*XdslArith.attributes],
)
