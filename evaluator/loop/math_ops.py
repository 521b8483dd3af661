"""`math` ops on register values, with the HLO interpreter's functions where
StableHLO defines the same operation (erf, rounding half away from zero,
integer powers, bit counts), so both levels compute the same bits."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation
from xlir.evaluator.hlo.chlo import erf
from xlir.evaluator.hlo.elementwise import (
    _clz,  # pyright: ignore[reportPrivateUsage]
    _popcnt,  # pyright: ignore[reportPrivateUsage]
    _round_afz,  # pyright: ignore[reportPrivateUsage]
    int_power,
)
from xlir.evaluator.loop.arith import Fn, elementwise
from xlir.evaluator.loop.engine import Scope, Step, impl
from xlir.evaluator.loop.values import register_dtype


def _fma(a: Any, b: Any, c: Any) -> Any:
    """Fused: one rounding, computed in float64 (exact for f16/f32 products)."""
    wide = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    return wide + np.asarray(c, np.float64)


_FUNCTIONS: dict[type[Operation], Fn] = {
    math.AbsFOp: np.abs,
    math.AbsIOp: np.abs,
    math.AcosOp: np.arccos,
    math.AcoshOp: np.arccosh,
    math.AsinOp: np.arcsin,
    math.AsinhOp: np.arcsinh,
    math.AtanOp: np.arctan,
    math.Atan2Op: np.arctan2,
    math.AtanhOp: np.arctanh,
    math.CbrtOp: np.cbrt,
    math.CeilOp: np.ceil,
    math.CopySignOp: np.copysign,
    math.CosOp: np.cos,
    math.CoshOp: np.cosh,
    math.ErfOp: erf,
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.FloorOp: np.floor,
    math.FmaOp: _fma,
    math.FPowIOp: lambda x, n: np.power(x, np.asarray(n, np.float64)),
    math.IPowIOp: int_power,
    math.LogOp: np.log,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.PowFOp: np.power,
    math.RoundEvenOp: np.rint,
    math.RsqrtOp: lambda x: np.reciprocal(np.sqrt(x)),
    math.SinOp: np.sin,
    math.SinhOp: np.sinh,
    math.SqrtOp: np.sqrt,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
    math.TruncOp: np.trunc,
}
_FACTORIES = {
    math.RoundOp: _round_afz,
    math.CountLeadingZerosOp: _clz,
    math.CtPopOp: _popcnt,
}


def _cttz(op: Operation) -> Fn:
    dtype = register_dtype(op.operands[0].type)
    width = dtype.itemsize * 8
    clz = _clz(op, None)  # pyright: ignore[reportArgumentType]

    def cttz(x: Any) -> Any:
        lowest = np.asarray(x) & -np.asarray(x)
        return np.where(lowest == 0, width, width - 1 - clz(lowest))

    return cttz


@impl(*_FUNCTIONS, *_FACTORIES, math.CountTrailingZerosOp)
def _math(op: Operation, scope: Scope) -> Step:
    if type(op) in _FACTORIES:
        fn = _FACTORIES[type(op)](op, None)  # pyright: ignore[reportArgumentType]
    elif isinstance(op, math.CountTrailingZerosOp):
        fn = _cttz(op)
    else:
        fn = _FUNCTIONS[type(op)]
    dtype = register_dtype(op.results[0].type)
    return elementwise(op, scope, lambda *args: np.asarray(fn(*args)).astype(dtype)[()])
