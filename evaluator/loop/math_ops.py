"""`math` ops on register values, with the HLO interpreter's functions where
StableHLO defines the same operation (erf, rounding half away from zero,
integer powers, bit counts), so both levels compute the same bits."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.evaluator.hlo.chlo import erf
from xlir.evaluator.hlo.elementwise import (
    _clz,  # pyright: ignore[reportPrivateUsage]
    _popcnt,  # pyright: ignore[reportPrivateUsage]
    _round_afz,  # pyright: ignore[reportPrivateUsage]
    int_power,
)
from xlir.evaluator.loop.arith import Fn, elementwise
from xlir.evaluator.loop.engine import Scope, Step, implements
from xlir.evaluator.loop.values import register_dtype


def _fma(a: Any, b: Any, c: Any) -> Any:
    """Fused: one rounding, computed in float64 (exact for f16/f32 products)."""
    wide = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    return wide + np.asarray(c, np.float64)


_FUNCTIONS: dict[str, Fn] = {
    "math.absf": np.abs,
    "math.absi": np.abs,
    "math.acos": np.arccos,
    "math.acosh": np.arccosh,
    "math.asin": np.arcsin,
    "math.asinh": np.arcsinh,
    "math.atan": np.arctan,
    "math.atan2": np.arctan2,
    "math.atanh": np.arctanh,
    "math.cbrt": np.cbrt,
    "math.ceil": np.ceil,
    "math.copysign": np.copysign,
    "math.cos": np.cos,
    "math.cosh": np.cosh,
    "math.erf": erf,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.floor": np.floor,
    "math.fma": _fma,
    "math.fpowi": lambda x, n: np.power(x, np.asarray(n, np.float64)),
    "math.ipowi": int_power,
    "math.log": np.log,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.log2": np.log2,
    "math.powf": np.power,
    "math.roundeven": np.rint,
    "math.rsqrt": lambda x: np.reciprocal(np.sqrt(x)),
    "math.sin": np.sin,
    "math.sinh": np.sinh,
    "math.sqrt": np.sqrt,
    "math.tan": np.tan,
    "math.tanh": np.tanh,
    "math.trunc": np.trunc,
}
_FACTORIES = {"math.round": _round_afz, "math.ctlz": _clz, "math.ctpop": _popcnt}


def _cttz(op: Operation) -> Fn:
    dtype = register_dtype(op.operands[0].type)
    width = dtype.itemsize * 8
    clz = _clz(op, None)  # pyright: ignore[reportArgumentType]

    def cttz(x: Any) -> Any:
        lowest = np.asarray(x) & -np.asarray(x)
        return np.where(lowest == 0, width, width - 1 - clz(lowest))

    return cttz


@implements(*_FUNCTIONS, *_FACTORIES, "math.cttz")
def _math(op: Operation, scope: Scope) -> Step:
    if op.name in _FACTORIES:
        fn = _FACTORIES[op.name](op, None)  # pyright: ignore[reportArgumentType]
    elif op.name == "math.cttz":
        fn = _cttz(op)
    else:
        fn = _FUNCTIONS[op.name]
    dtype = register_dtype(op.results[0].type)
    return elementwise(op, scope, lambda *args: np.asarray(fn(*args)).astype(dtype)[()])
