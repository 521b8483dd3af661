"""Elementwise kernels with StableHLO semantics on numpy arrays.

Integers wrap around; integer division truncates toward zero, `x / 0` is -1
(all ones) and `x % 0` is `x`, `INT_MIN / -1` is `INT_MIN` and `INT_MIN % -1`
is 0 (XLA's semantics); shifts by the bit width or more give 0 (or the sign
for arithmetic shifts right); float maximum/minimum propagate NaN and order
-0.0 below +0.0; float -> integer conversion truncates toward zero and
saturates, NaN giving 0.

All kernels broadcast, so that reducer bodies and comparators can run on
whole arrays at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ComplexType, Float8E8M0FNUType, TensorType
from xdsl.ir import Operation
from xlir.dialects.stablehlo.elementwise import (
    AbsOp,
    AddOp,
    AndOp,
    Atan2Op,
    BitcastConvertOp,
    CbrtOp,
    CeilOp,
    ClampOp,
    CompareOp,
    ComplexOp,
    ConvertOp,
    CosineOp,
    CountLeadingZerosOp,
    DivideOp,
    ExponentialMinusOneOp,
    ExponentialOp,
    FloorOp,
    ImagOp,
    IsFiniteOp,
    LogisticOp,
    LogOp,
    LogPlusOneOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    NegateOp,
    NotOp,
    OrOp,
    PopcntOp,
    PowerOp,
    RealOp,
    ReducePrecisionOp,
    RemainderOp,
    RoundNearestAfzOp,
    RoundNearestEvenOp,
    RsqrtOp,
    SelectOp,
    ShiftLeftOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
    SignOp,
    SineOp,
    SqrtOp,
    SubtractOp,
    TanhOp,
    TanOp,
    XorOp,
)
from xlir.dialects.stablehlo.quantization import UniformDequantizeOp, UniformQuantizeOp
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import (
    Unsupported,
    bit_width,
    dequantize,
    dtype_of,
    from_bits,
    is_bf16,
    is_quantized,
    is_unsigned,
    quantize,
    round_bf16,
    rounding,
    storage_dtype,
    to_bits,
)

Array = Any


def _operand_dtype(op: Operation, index: int = 0) -> np.dtype:
    return dtype_of(op.operands[index].type)


def _result_dtype(op: Operation, index: int = 0) -> np.dtype:
    return dtype_of(op.results[index].type)


# --- float helpers ------------------------------------------------------------


def float_maximum(a: Array, b: Array) -> Array:
    """IEEE maximum: NaN if either is NaN, and max(-0.0, +0.0) = +0.0."""
    result = np.maximum(a, b)
    both_zero = (a == 0) & (b == 0)
    if np.any(both_zero):
        result = np.where(both_zero, a + b, result)  # -0 + -0 = -0, else +0
    return result


def float_minimum(a: Array, b: Array) -> Array:
    result = np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    if np.any(both_zero):
        result = np.where(both_zero, -((-a) + (-b)), result)
    return result


def total_order_key(x: Array) -> Array:
    """Signed integers that order floats as IEEE totalOrder does
    (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN)."""
    x = np.asarray(x)
    signed = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    bits = x.view(signed)
    maximum = np.iinfo(signed).max
    return np.where(bits < 0, bits ^ signed(maximum), bits)


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _signed(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"i{dtype.itemsize}")


# --- unary --------------------------------------------------------------------


def complex_cbrt(z: Array) -> Array:
    """The principal cube root of complex numbers."""
    return np.power(z, 1 / 3)


def complex_atan2(y: Array, x: Array) -> Array:
    """atan2 extended to complex numbers: -i log((x + iy) / sqrt(x^2 + y^2))."""
    return -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))


_COMPLEX_VARIANTS: dict[type[Operation], Callable[..., Array]] = {CbrtOp: complex_cbrt}
"""Complex forms of the kernels whose numpy function takes no complex."""

_REAL_ONLY = {CeilOp, FloorOp, RoundNearestEvenOp}
"""Kernels that take floats only (the others take complex numbers too)."""


def _float_only(op_class: type[Operation], fn: Callable[[Array], Array]) -> None:
    @impl(op_class)
    def factory(op: Operation, interp: ModuleInterpreter) -> Callable[[Array], Array]:
        kind = _operand_dtype(op).kind
        if kind == "c" and op_class in _COMPLEX_VARIANTS:
            return _COMPLEX_VARIANTS[op_class]
        if kind not in "fc" or (kind == "c" and op_class in _REAL_ONLY):
            raise Unsupported(f"needs float elements, not {op.operands[0].type}")
        return fn


for _op_class, _fn in {
    CbrtOp: np.cbrt,
    CeilOp: np.ceil,
    FloorOp: np.floor,
    CosineOp: np.cos,
    SineOp: np.sin,
    TanOp: np.tan,
    TanhOp: np.tanh,
    ExponentialOp: np.exp,
    ExponentialMinusOneOp: np.expm1,
    LogOp: np.log,
    LogPlusOneOp: np.log1p,
    SqrtOp: np.sqrt,
    RoundNearestEvenOp: np.rint,
}.items():
    _float_only(_op_class, _fn)


@impl(RsqrtOp)
def _rsqrt(op: Operation, interp: ModuleInterpreter):
    one = _operand_dtype(op).type(1)
    return lambda x: one / np.sqrt(x)


@impl(LogisticOp)
def _logistic(op: Operation, interp: ModuleInterpreter):
    one = _operand_dtype(op).type(1)
    return lambda x: one / (one + np.exp(-x))


@impl(RoundNearestAfzOp)
def _round_afz(op: Operation, interp: ModuleInterpreter):
    def round_afz(x: Array) -> Array:
        truncated = np.trunc(x)
        away = np.abs(x - truncated) >= 0.5
        return np.where(away, truncated + np.sign(x), truncated)

    return round_afz


@impl(AbsOp)
def _abs(op: Operation, interp: ModuleInterpreter):
    if is_unsigned(op.operands[0].type):
        return lambda x: x
    return np.abs


@impl(NegateOp)
def _negate(op: Operation, interp: ModuleInterpreter):
    return np.negative


def complex_sign(z: Array) -> Array:
    """z / |z|, 0 for 0, NaN (in both parts) where either part is NaN."""
    z = np.asarray(z)
    magnitude = np.abs(z)
    unit = z / np.where(magnitude == 0, 1, magnitude)
    nan = np.isnan(z.real) | np.isnan(z.imag)
    return np.where(nan, np.array(complex(np.nan, np.nan), z.dtype), unit)


@impl(SignOp)
def _sign(op: Operation, interp: ModuleInterpreter):
    dtype = _operand_dtype(op)
    if dtype.kind == "c":
        return complex_sign
    if dtype.kind == "f":
        # sign(±0) = ±0, sign(NaN) = NaN
        return lambda x: np.where(x == 0, x, np.sign(x))
    if dtype.kind == "u":
        return lambda x: (x != 0).astype(dtype)
    return np.sign


@impl(NotOp)
def _not(op: Operation, interp: ModuleInterpreter):
    return np.invert


@impl(PopcntOp)
def _popcnt(op: Operation, interp: ModuleInterpreter):
    dtype = _operand_dtype(op)
    unsigned, mask = _unsigned(dtype), _low_bits(op)
    return lambda x: np.bitwise_count(np.asarray(x).view(unsigned) & mask).astype(dtype)


def _low_bits(op: Operation) -> Any:
    """The mask of the operand type's bits in its host integers (a 2- or
    4-bit integer is held in 8 bits)."""
    unsigned = _unsigned(_operand_dtype(op))
    return unsigned.type((1 << bit_width(op.operands[0].type)) - 1)


@impl(CountLeadingZerosOp)
def _clz(op: Operation, interp: ModuleInterpreter):
    dtype = _operand_dtype(op)
    if dtype.kind not in "iu":
        raise Unsupported("needs integer elements")
    unsigned, mask = _unsigned(dtype), _low_bits(op)
    width = bit_width(op.operands[0].type)

    def clz(x: Array) -> Array:
        value = np.asarray(x).view(unsigned) & mask
        length = np.zeros(value.shape, dtype=np.int64)
        for shift in (32, 16, 8, 4, 2, 1):
            if shift >= width:
                continue
            high = value >> unsigned.type(shift)
            moved = high != 0
            length += np.where(moved, shift, 0)
            value = np.where(moved, high, value)
        length += value != 0
        return (width - length).astype(dtype)

    return clz


@impl(IsFiniteOp)
def _is_finite(op: Operation, interp: ModuleInterpreter):
    return np.isfinite


# --- binary -------------------------------------------------------------------


for _op_class, _fn in {
    AddOp: np.add,
    SubtractOp: np.subtract,
    MultiplyOp: np.multiply,
    AndOp: np.bitwise_and,
    OrOp: np.bitwise_or,
    XorOp: np.bitwise_xor,
}.items():
    impl(_op_class)(lambda op, interp, _fn=_fn: _fn)


@impl(Atan2Op)
def _atan2(op: Operation, interp: ModuleInterpreter):
    return complex_atan2 if _operand_dtype(op).kind == "c" else np.arctan2


def complex_greater(a: Array, b: Array) -> Array:
    """Lexicographic order of (real, imaginary) pairs."""
    a, b = np.asarray(a), np.asarray(b)
    return (a.real > b.real) | ((a.real == b.real) & (a.imag > b.imag))


@impl(MaximumOp)
def _maximum(op: Operation, interp: ModuleInterpreter):
    kind = _operand_dtype(op).kind
    if kind == "c":
        return lambda a, b: np.where(complex_greater(b, a), b, a)
    return float_maximum if kind == "f" else np.maximum


@impl(MinimumOp)
def _minimum(op: Operation, interp: ModuleInterpreter):
    kind = _operand_dtype(op).kind
    if kind == "c":
        return lambda a, b: np.where(complex_greater(a, b), b, a)
    return float_minimum if kind == "f" else np.minimum


def int_divide(a: Array, b: Array) -> Array:
    a, b = np.asarray(a), np.asarray(b)
    dtype = np.result_type(a, b)
    zero = b == 0
    if dtype.kind == "i":
        overflow = (a == np.iinfo(dtype).min) & (b == -1)
        safe = np.where(zero | overflow, dtype.type(1), b)
    else:
        safe = np.where(zero, dtype.type(1), b)
    exact = a - np.fmod(a, safe)  # moves toward zero, so it cannot overflow
    quotient = np.floor_divide(exact, safe)
    return np.where(
        zero, dtype.type(-1) if dtype.kind == "i" else ~dtype.type(0), quotient
    )


def int_remainder(a: Array, b: Array) -> Array:
    a, b = np.asarray(a), np.asarray(b)
    dtype = np.result_type(a, b)
    zero = b == 0
    if dtype.kind == "i":
        overflow = (a == np.iinfo(dtype).min) & (b == -1)
        safe = np.where(zero | overflow, dtype.type(1), b)
    else:
        safe = np.where(zero, dtype.type(1), b)
    return np.where(zero, a, np.fmod(a, safe))


@impl(DivideOp)
def _divide(op: Operation, interp: ModuleInterpreter):
    return np.true_divide if _operand_dtype(op).kind in "fc" else int_divide


@impl(RemainderOp)
def _remainder(op: Operation, interp: ModuleInterpreter):
    kind = _operand_dtype(op).kind
    if kind == "c":
        raise Unsupported("complex remainder is not supported")
    return np.fmod if kind == "f" else int_remainder


def int_power(base: Array, exponent: Array) -> Array:
    """Integer power with wrap-around; negative exponents give 0 except for
    bases 1 and -1 (XLA's semantics)."""
    base, exponent = np.broadcast_arrays(np.asarray(base), np.asarray(exponent))
    dtype = base.dtype
    result = np.ones(base.shape, dtype=dtype)
    b = base.copy()
    e = exponent.astype(np.int64)
    negative = e < 0
    e = np.where(negative, 0, e)
    while np.any(e > 0):
        odd = (e & 1) == 1
        result = np.where(odd, result * b, result)
        b = b * b
        e = e >> 1
    if dtype.kind == "i" and np.any(negative):
        one = base == 1
        minus_one = base == -1
        odd_exp = (np.asarray(exponent) & 1) == 1
        special = np.where(one, 1, np.where(minus_one, np.where(odd_exp, -1, 1), 0))
        result = np.where(negative, special.astype(dtype), result)
    return result


@impl(PowerOp)
def _power(op: Operation, interp: ModuleInterpreter):
    return np.power if _operand_dtype(op).kind in "fc" else int_power


def _shift_factory(kind: str):
    def factory(op: Operation, interp: ModuleInterpreter):
        dtype = _operand_dtype(op)
        if dtype.kind not in "iu":
            raise Unsupported("needs integer elements")
        width = bit_width(op.operands[0].type)
        unsigned, signed = _unsigned(dtype), _signed(dtype)
        mask = _low_bits(op)
        sign = unsigned.type(1 << (width - 1))

        def shift(lhs: Array, rhs: Array) -> Array:
            lhs, rhs = np.asarray(lhs), np.asarray(rhs)
            amount = rhs.view(unsigned) & mask
            inside = amount < width
            safe = np.where(inside, amount, 0).astype(unsigned)
            bits = lhs.view(unsigned) & mask
            if kind == "left":
                shifted = (bits << safe).view(dtype)
                return np.where(inside, shifted, dtype.type(0))
            if kind == "logical":
                shifted = (bits >> safe).view(dtype)
                return np.where(inside, shifted, dtype.type(0))
            # the bits as a signed number of `width` bits, in the host's width
            value = ((bits ^ sign) - sign).view(signed)
            shifted = (value >> safe.view(signed)).view(dtype)
            fill = np.where(value < 0, signed.type(-1), signed.type(0)).view(dtype)
            return np.where(inside, shifted, fill)

        return shift

    return factory


impl(ShiftLeftOp)(_shift_factory("left"))
impl(ShiftRightLogicalOp)(_shift_factory("logical"))
impl(ShiftRightArithmeticOp)(_shift_factory("arithmetic"))


# --- compare, select, clamp -------------------------------------------------------


def _enum_value(attr: Any) -> str | None:
    if attr is None:
        return None
    data = getattr(attr, "data", attr)
    return str(getattr(data, "value", data))


_DIRECTIONS = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def compare_function(direction: str, compare_type: str | None, dtype: np.dtype):
    """Floats as IEEE's quiet comparisons (or totalOrder), complex numbers as
    (real, imaginary) pairs in lexicographic order, as the spec has it."""
    fn = _DIRECTIONS[direction]
    if dtype.kind == "c" and compare_type == "TOTALORDER":
        part = compare_function(
            direction, compare_type, np.real(np.zeros(1, dtype)).dtype
        )
        key = total_order_key

        def lexicographic(a: Array, b: Array) -> Array:
            real_a, real_b = np.real(a), np.real(b)
            first_differs = key(real_a) != key(real_b)
            return np.where(
                first_differs, part(real_a, real_b), part(np.imag(a), np.imag(b))
            )

        return lexicographic
    if dtype.kind == "f" and compare_type == "TOTALORDER":
        return lambda a, b: fn(total_order_key(a), total_order_key(b))
    return fn


def attribute(op: Operation, name: str) -> Any:
    """A property or attribute of the op by its StableHLO name."""
    value = op.properties.get(name)
    if value is None:
        value = op.attributes.get(name)
    return value


@impl(CompareOp)
def _compare(op: Operation, interp: ModuleInterpreter):
    direction = _enum_value(attribute(op, "comparison_direction"))
    compare_type = _enum_value(attribute(op, "compare_type"))
    if direction not in _DIRECTIONS:
        raise Unsupported(f"unknown comparison direction {direction}")
    return compare_function(direction, compare_type, _operand_dtype(op))


@impl(SelectOp)
def _select(op: Operation, interp: ModuleInterpreter):
    return np.where


@impl(ClampOp)
def _clamp(op: Operation, interp: ModuleInterpreter):
    if _operand_dtype(op, 1).kind == "f":
        return lambda lo, x, hi: float_minimum(float_maximum(x, lo), hi)
    return lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi)


# --- conversions -------------------------------------------------------------------


def convert_array(
    x: Array, src: np.dtype, dst: np.dtype, dst_bf16: bool, narrow: bool = False
) -> Array:
    """Convert between host dtypes; complex to real keeps the real part.
    `narrow`: the result type is narrower than the float32 that holds it
    (bf16, float8, ...), so f64 and integer values are rounded to odd on the
    way (`f32_rounded_to_odd`), to be rounded once in all."""
    x = np.asarray(x)
    if src.kind == "c" and dst.kind != "c":
        x = x.real
        src = x.dtype
    if dst.kind == "b":
        return x != 0
    if src.kind == "f" and dst.kind in "iu":
        info = np.iinfo(dst)
        truncated = np.trunc(x.astype(np.float64))
        clipped = np.clip(truncated, info.min, info.max)
        clipped = np.where(np.isnan(truncated), 0, clipped)
        if dst.itemsize == 8:
            # float64 cannot hold INT64_MAX: saturate by comparison
            result = clipped.astype(dst)
            result = np.where(truncated >= float(info.max), dst.type(info.max), result)
            return np.where(truncated <= float(info.min), dst.type(info.min), result)
        return clipped.astype(dst)
    if narrow and dst == np.float32 and (src.kind in "iu" or src.itemsize > 4):
        x = f32_rounded_to_odd(x.astype(np.float64))
    if dst_bf16:
        return round_bf16(x.astype(np.float32))
    return x.astype(dst)


def f32_rounded_to_odd(x: np.ndarray) -> np.ndarray:
    """float64 values as float32 rounded to odd (toward zero, the last bit
    set where that was inexact). Rounded again to a type of at most 22 bits
    of precision (bf16, the float8 types), that is the correctly rounded
    result: rounding to nearest twice is not, where the first rounding
    lands on the second's tie (1 + 2^-8 + 2^-40 would become bf16 1.0)."""
    nearest = x.astype(np.float32)
    with np.errstate(invalid="ignore"):
        away = np.abs(nearest.astype(np.float64)) > np.abs(x)
        inexact = (nearest.astype(np.float64) != x) & ~np.isnan(x)
    bits = nearest.view(np.uint32).copy()
    bits[away] -= np.uint32(1)  # one step toward zero (an inf becomes the max)
    bits[inexact] |= np.uint32(1)
    return bits.view(np.float32)


@impl(ConvertOp)
def _convert(op: Operation, interp: ModuleInterpreter):
    """Floats saturate to 2- and 4-bit integer types as to wider ones."""
    src, dst = _operand_dtype(op), _result_dtype(op)
    dst_bf16 = is_bf16(op.results[0].type)
    result = op.results[0].type
    narrow = rounding(result) is not None and dst == np.float32
    if isinstance(result.get_element_type(), Float8E8M0FNUType):  # pyright: ignore[reportAttributeAccessIssue]
        narrow = False  # powers of two, rounded as ml_dtypes does (through f32)
    width = bit_width(result)
    if src.kind in "fc" and dst.kind in "iu" and width < 8:
        low = 0 if is_unsigned(result) else -(1 << (width - 1))
        high = (1 << width) - 1 if is_unsigned(result) else (1 << (width - 1)) - 1

        def saturate(x: Array) -> Array:
            x = np.real(np.asarray(x))
            return convert_array(np.clip(x, low, high), x.dtype, dst, dst_bf16)

        return saturate
    return lambda x: convert_array(x, src, dst, dst_bf16, narrow)


def _bit_matrix(x: Array, type_: Any) -> np.ndarray:
    """Each element's bits, least significant first, along a new last axis
    (a complex element: its real part's bits, then its imaginary part's)."""
    element = type_.get_element_type()
    if isinstance(element, ComplexType):
        x = np.asarray(x)
        parts = np.stack([x.real, x.imag], axis=-1)
        bits = _bit_matrix(parts, TensorType(element.element_type, parts.shape))
        return bits.reshape(*x.shape, -1)
    width = bit_width(type_)
    values = to_bits(x, type_).astype(np.uint64)
    shifts = np.arange(width, dtype=np.uint64)
    return ((values[..., None] >> shifts) & np.uint64(1)).astype(np.uint64)


def _from_bit_matrix(bits: np.ndarray, type_: Any) -> np.ndarray:
    """The inverse of `_bit_matrix`."""
    element = type_.get_element_type()
    if isinstance(element, ComplexType):
        parts_shape = (*bits.shape[:-1], 2)
        part_type = TensorType(element.element_type, parts_shape)
        parts = _from_bit_matrix(bits.reshape(*parts_shape, -1), part_type)
        return (parts[..., 0] + 1j * parts[..., 1]).astype(dtype_of(element))
    shifts = np.arange(bits.shape[-1], dtype=np.uint64)
    values = np.bitwise_or.reduce(bits << shifts, axis=-1)
    storage = storage_dtype(type_)
    return from_bits(values.astype(f"u{storage.itemsize}"), type_)


@impl(BitcastConvertOp)
def _bitcast_convert(op: Operation, interp: ModuleInterpreter):
    """Bits as a little-endian string: a wider element takes the trailing
    dimension's elements, first at its least significant bits."""
    in_type, out_type = op.operands[0].type, op.results[0].type
    dst_bits = bit_width(out_type)
    out_shape = tuple(out_type.get_shape())  # type: ignore[attr-defined]

    def bitcast(x: Array) -> Array:
        bits = _bit_matrix(x, in_type).reshape(*out_shape, dst_bits)
        return _from_bit_matrix(bits, out_type)

    return bitcast


@impl(RealOp)
def _real(op: Operation, interp: ModuleInterpreter):
    return np.real


@impl(ImagOp)
def _imag(op: Operation, interp: ModuleInterpreter):
    return lambda x: np.imag(x) if np.iscomplexobj(x) else np.zeros_like(x)


@impl(ComplexOp)
def _complex(op: Operation, interp: ModuleInterpreter):
    dtype = _result_dtype(op)
    return lambda re, im: (re + 1j * np.asarray(im, dtype)).astype(dtype)


def reduce_precision(x: Array, exponent_bits: int, mantissa_bits: int) -> Array:
    """Round to the nearest value (ties to even) of a float format with the
    given exponent and mantissa bits, as XLA does: exponents past the
    format's range give infinity (too large) or zero (too small), and NaN
    stays NaN unless no mantissa bits are left to hold it (then infinity)."""
    x = np.asarray(x)
    finfo = np.finfo(x.dtype)
    source_mantissa, source_exponent = finfo.nmant, finfo.nexp
    unsigned = _unsigned(x.dtype)
    one = unsigned.type(1)
    bits = x.view(unsigned).copy()
    if mantissa_bits < source_mantissa:
        dropped = unsigned.type(source_mantissa - mantissa_bits)
        last_kept = one << dropped
        bias = (last_kept >> one) - one + ((bits & last_kept) >> dropped)
        bits = (bits + bias) & ~(last_kept - one)
    if exponent_bits < source_exponent:
        width = x.dtype.itemsize * 8
        sign = bits & (one << unsigned.type(width - 1))
        exponent_mask = unsigned.type(((1 << source_exponent) - 1) << source_mantissa)
        exponent = bits & exponent_mask
        bias = (1 << (source_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        largest = unsigned.type((bias + reduced_bias) << source_mantissa)
        smallest = unsigned.type((bias - reduced_bias) << source_mantissa)
        bits = np.where(
            exponent > largest,
            sign | exponent_mask,
            np.where(exponent <= smallest, sign, bits),
        )
    result = np.asarray(bits, unsigned).view(x.dtype)
    nan_result = x if mantissa_bits > 0 else np.copysign(np.inf, x).astype(x.dtype)
    return np.where(np.isnan(x), nan_result, result)


@impl(ReducePrecisionOp)
def _reduce_precision(op: Operation, interp: ModuleInterpreter):
    exponent_bits = int(attribute(op, "exponent_bits").value.data)
    mantissa_bits = int(attribute(op, "mantissa_bits").value.data)
    return lambda x: reduce_precision(x, exponent_bits, mantissa_bits)


@impl(UniformQuantizeOp)
def _uniform_quantize(op: Operation, interp: ModuleInterpreter):
    source, target = op.operands[0].type, op.results[0].type
    if is_quantized(source):  # requantize
        return lambda q: quantize(dequantize(q, source), target)
    return lambda x: quantize(x, target)


@impl(UniformDequantizeOp)
def _uniform_dequantize(op: Operation, interp: ModuleInterpreter):
    source = op.operands[0].type
    return lambda q: dequantize(q, source)
