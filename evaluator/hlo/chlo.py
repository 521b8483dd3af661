"""chlo ops: special functions (computed in float64, then rounded to the
result type), hyperbolic and inverse trigonometry, is_inf and kin, top_k,
square, next_after, mulhi, scan and ragged_dot."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.chlo import (
    AcoshOp,
    AcosOp,
    AsinhOp,
    AsinOp,
    AtanhOp,
    AtanOp,
    BesselI1eOp,
    ConjOp,
    CoshOp,
    DigammaOp,
    ErfcOp,
    ErfInvOp,
    ErfOp,
    IsInfOp,
    IsNegInfOp,
    IsPosInfOp,
    LgammaOp,
    MulhiOp,
    NextAfterOp,
    SinhOp,
    SquareOp,
    TanOp,
    TopKOp,
)
from xlir.dialects.chlo_structured import RaggedDotOp, ScanOp
from xlir.evaluator.hlo.contraction import compute_dtype, dims_field, dot_general
from xlir.evaluator.hlo.data_movement import int_attr
from xlir.evaluator.hlo.elementwise import attribute, total_order_key
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import (
    Unsupported,
    dtype_of,
    rounding,
    tensor_shape,
)

Array = Any


def _vectorize(fn: Callable[[float], float]) -> Callable[[Array], np.ndarray]:
    ufunc = np.frompyfunc(fn, 1, 1)
    return lambda x: np.asarray(
        ufunc(np.asarray(x, dtype=np.float64)), dtype=np.float64
    )


erf = _vectorize(math.erf)
erfc = _vectorize(math.erfc)


def _lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return math.inf


lgamma = _vectorize(_lgamma)


def erf_inv(y: Array) -> np.ndarray:
    y = np.asarray(y, dtype=np.float64)
    # Giles' approximation as a start, then Newton steps on erf in float64.
    w = -np.log((1.0 - y) * (1.0 + y))
    small = w < 5.0
    ws = w - 2.5
    p_small = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):  # fmt: skip
        p_small = c + p_small * ws
    wl = np.sqrt(np.where(small, 5.0, w)) - 3.0
    p_large = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):  # fmt: skip
        p_large = c + p_large * wl
    x = np.where(small, p_small, p_large) * y
    finite = np.isfinite(x)
    # Near 0, Newton on erf(x) - y; in the tails, where 1 - |y| (exact in
    # float64) carries the information, Newton on log erfc(|x|) - log(1 - |y|).
    core = finite & (np.abs(y) < 0.5)
    for _ in range(3):
        xc = np.where(core, x, 0.0)
        step = (erf(xc) - y) / (2.0 / math.sqrt(math.pi) * np.exp(-(xc**2)))
        x = np.where(core, x - step, x)
    tail = finite & (np.abs(y) >= 0.5) & (np.abs(y) < 1)
    a = np.where(tail, np.abs(x), 1.0)
    log_t = np.log(np.where(tail, 1.0 - np.abs(y), 0.5))
    for _ in range(4):
        ec = erfc(a)
        slope = -2.0 / math.sqrt(math.pi) * np.exp(-(a**2)) / ec
        a = np.where(tail, a - (np.log(ec) - log_t) / slope, a)
    x = np.where(tail, np.copysign(a, y), x)
    x = np.where(y == 1, np.inf, np.where(y == -1, -np.inf, x))
    return np.where(np.abs(y) > 1, np.nan, x)


def digamma(x: Array) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    reflect = x < 0.5
    z = np.where(reflect, 1.0 - x, x)
    result = np.zeros_like(z)
    for _ in range(6):
        small = z < 6.0
        result = np.where(small, result - 1.0 / z, result)
        z = np.where(small, z + 1.0, z)
    inv = 1.0 / z
    inv2 = inv * inv
    series = (
        np.log(z)
        - 0.5 * inv
        - inv2
        * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    )
    result = result + series
    result = np.where(reflect, result - math.pi / np.tan(math.pi * x), result)
    return np.where(pole, np.nan, result)


def bessel_i1e(x: Array) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    small = ax <= 30.0
    xs = np.where(small, ax, 0.0)
    term = xs / 2.0
    total = term.copy()
    quarter = xs * xs / 4.0
    for k in range(1, 80):
        term = term * quarter / (k * (k + 1))
        total = total + term
    series = total * np.exp(-xs)
    xl = np.where(small, 1.0, ax)
    mu = 4.0
    asymptotic = 1.0 / np.sqrt(2.0 * math.pi * xl)
    correction = np.ones_like(xl)
    term = np.ones_like(xl)
    for k in range(1, 12):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * xl)
        correction = correction + term
    large = asymptotic * correction
    return np.sign(x) * np.where(small, series, large)


_SPECIAL: dict[type[Operation], Callable[[Array], Array]] = {
    ErfOp: erf,
    ErfcOp: erfc,
    ErfInvOp: erf_inv,
    LgammaOp: lgamma,
    DigammaOp: digamma,
    BesselI1eOp: bessel_i1e,
    AcosOp: np.arccos,
    AcoshOp: np.arccosh,
    AsinOp: np.arcsin,
    AsinhOp: np.arcsinh,
    AtanOp: np.arctan,
    AtanhOp: np.arctanh,
    CoshOp: np.cosh,
    SinhOp: np.sinh,
    TanOp: np.tan,
}


def _special_factory(fn: Callable[[Array], Array]):
    """Floats in float64; complex numbers (for the numpy functions, which
    take them) in complex128."""

    def factory(op: Operation, interp: ModuleInterpreter):
        dtype = dtype_of(op.results[0].type)
        if dtype.kind == "c" and isinstance(fn, np.ufunc):
            return lambda x: fn(np.asarray(x, dtype=np.complex128)).astype(dtype)
        if dtype.kind != "f":
            raise Unsupported(f"needs float elements, not {op.results[0].type}")
        return lambda x: fn(np.asarray(x, dtype=np.float64)).astype(dtype)

    return factory


for _op_class, _fn in _SPECIAL.items():
    impl(_op_class)(_special_factory(_fn))


@impl(ConjOp)
def _conj(op: Operation, interp: ModuleInterpreter):
    return np.conj


@impl(SquareOp)
def _square(op: Operation, interp: ModuleInterpreter):
    return lambda x: np.multiply(x, x)


@impl(NextAfterOp)
def _next_after(op: Operation, interp: ModuleInterpreter):
    if rounding(op.operands[0].type) is not None:
        raise Unsupported(
            f"next_after of {op.operands[0].type} is not supported (only f16, f32 "
            "and f64)"
        )
    return next_after


def next_after(x: Array, y: Array) -> np.ndarray:
    """numpy's `nextafter`, except that equal operands give `y` (as C and
    XLA do; numpy's float16 gives `x`, so `nextafter(0, -0)` was +0)."""
    return np.where(x == y, y, np.nextafter(x, y))


def _high_product_64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The high 64 bits of the 128-bit product of unsigned 64-bit integers,
    from 32-bit halves."""
    low_mask, half = np.uint64(0xFFFFFFFF), np.uint64(32)
    a_low, a_high = a & low_mask, a >> half
    b_low, b_high = b & low_mask, b >> half
    low_low = a_low * b_low
    middle = a_high * b_low + (low_low >> half)
    carry = (middle & low_mask) + a_low * b_high
    return a_high * b_high + (middle >> half) + (carry >> half)


def mulhi(a: Array, b: Array) -> np.ndarray:
    """The high half of the double-width product (signed for signed types)."""
    a, b = np.asarray(a), np.asarray(b)
    dtype = a.dtype
    width = dtype.itemsize * 8
    if width < 64:
        wide = np.int64 if dtype.kind == "i" else np.uint64
        product = a.astype(wide) * b.astype(wide)
        return (product >> wide(width)).astype(dtype)
    unsigned_a, unsigned_b = a.view(np.uint64), b.view(np.uint64)
    high = _high_product_64(unsigned_a, unsigned_b)
    if dtype.kind == "i":  # two's complement: subtract the other factor per sign
        high = high - np.where(a < 0, unsigned_b, 0) - np.where(b < 0, unsigned_a, 0)
    return high.view(dtype)


@impl(MulhiOp)
def _mulhi(op: Operation, interp: ModuleInterpreter):
    if dtype_of(op.operands[0].type).kind not in "iu":
        raise Unsupported("needs integer elements")
    if rounding(op.operands[0].type) is not None:
        raise Unsupported("mulhi of 2- and 4-bit integers is not supported")
    return mulhi


@impl(ScanOp)
def _scan(op: Operation, interp: ModuleInterpreter):
    body = interp.compile_region(op.regions[0])
    dimension = int_attr(op, "dimension")
    reverse = attribute(op, "is_reverse")
    reverse = bool(reverse is not None and reverse.value.data)
    sizes = attribute(op, "operandSegmentSizes")
    inputs = int(next(iter(sizes.iter_values())))
    carries = len(op.operands) - inputs
    outputs = len(op.results) - carries

    def scan(*values: Array) -> list[Array]:
        xs, state = values[:inputs], list(values[inputs:])
        length = np.shape(xs[0])[dimension]
        steps = range(length - 1, -1, -1) if reverse else range(length)
        slices: list[list[Array]] = [[None] * length for _ in range(outputs)]
        for i in steps:
            results = body.run([np.take(x, i, axis=dimension) for x in xs] + state)
            for k in range(outputs):
                slices[k][i] = results[k]
            state = list(results[outputs:])
        stacked = [np.stack(s, axis=dimension) for s in slices]
        return [*stacked, *state]

    return scan


@impl(RaggedDotOp)
def _ragged_dot(op: Operation, interp: ModuleInterpreter):
    numbers = attribute(op, "ragged_dot_dimension_numbers")
    lb, rb = (
        dims_field(numbers, "lhs_batching_dimensions"),
        dims_field(numbers, "rhs_batching_dimensions"),
    )
    lc, rc = (
        dims_field(numbers, "lhs_contracting_dimensions"),
        dims_field(numbers, "rhs_contracting_dimensions"),
    )
    (ragged,) = dims_field(numbers, "lhs_ragged_dimensions")
    if ragged in lc or ragged in lb:
        raise Unsupported(
            "only a ragged non-contracting lhs dimension is supported (ragged "
            "contracting or batch dimensions are not)"
        )
    (group,) = dims_field(numbers, "rhs_group_dimensions")
    rb_g = [d - (d > group) for d in rb]
    rc_g = [d - (d > group) for d in rc]
    lhs_rank = len(tensor_shape(op.operands[0].type))
    lhs_free = [d for d in range(lhs_rank) if d not in lb + lc]
    ragged_axis = len(lb) + lhs_free.index(ragged)
    dtype = compute_dtype(op)

    def ragged_dot(lhs: Array, rhs: Array, group_sizes: Array) -> Array:
        rows = np.shape(lhs)[ragged]
        owner = np.repeat(np.arange(len(group_sizes)), np.asarray(group_sizes))
        owner = np.concatenate([owner, np.full(rows, -1)])[:rows]
        result = None
        for g in range(len(group_sizes)):
            part = dot_general(
                lhs, np.take(rhs, g, axis=group), lb, rb_g, lc, rc_g, dtype
            )
            mask_shape = [1] * part.ndim
            mask_shape[ragged_axis] = rows
            masked = np.where((owner == g).reshape(mask_shape), part, 0)
            result = masked if result is None else result + masked
        assert result is not None
        return result

    return ragged_dot


@impl(IsInfOp)
def _is_inf(op: Operation, interp: ModuleInterpreter):
    return np.isinf


@impl(IsPosInfOp)
def _is_pos_inf(op: Operation, interp: ModuleInterpreter):
    return np.isposinf


@impl(IsNegInfOp)
def _is_neg_inf(op: Operation, interp: ModuleInterpreter):
    return np.isneginf


@impl(TopKOp)
def _top_k(op: Operation, interp: ModuleInterpreter):
    k = int_attr(op, "k")
    index_dtype = dtype_of(op.results[1].type)

    def top_k(x: Array) -> list[Array]:
        x = np.asarray(x)
        if x.dtype.kind == "f":
            key = ~total_order_key(x)
        elif x.dtype.kind == "b":
            key = ~x.astype(np.int8)
        else:
            key = ~x
        order = np.argsort(key, axis=-1, kind="stable")[..., :k]
        return [np.take_along_axis(x, order, axis=-1), order.astype(index_dtype)]

    return top_k
