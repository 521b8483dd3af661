"""is_inf, is_pos_inf, is_neg_inf as compares with infinity (NaN compares
false, so NaN is not infinite)."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.passes.hlo.decompositions.emitter import Emitter

EQ = ComparisonDirection.EQ
INF = float("inf")


def is_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.compare(EQ, e.unary(ew.AbsOp, x), e.const(INF))


def is_pos_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.compare(EQ, x, e.const(INF))


def is_neg_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.compare(EQ, x, e.const(-INF))
