"""The interpreter's narrow, complex and quantized types, and the numerics of
the ops added for StableHLO's conformance suite, against independent
references (Python integers, ml_dtypes, numpy's linear algebra)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import (
    Float8E5M2Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xlir.evaluator.hlo.chlo import mulhi
from xlir.evaluator.hlo.elementwise import reduce_precision
from xlir.evaluator.hlo.linalg import solve_triangular
from xlir.evaluator.hlo.types import from_bits, round_bf16, rounding, to_bits

import xlir


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_mulhi_64_bit_matches_python_integers(dtype: type) -> None:
    rng = np.random.default_rng(0)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True)
    a[:4] = [info.min, info.max, 0, info.max]
    b[:4] = [info.min, info.max, info.max, info.min]
    want = [(int(x) * int(y)) >> 64 for x, y in zip(a, b, strict=True)]
    got = mulhi(a, b)
    assert [int(v) for v in got] == want


def test_reduce_precision_to_half_matches_float16() -> None:
    """e5m10 is f16's format: inside its range, rounding an f32 to it is a
    conversion to float16."""
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(2000) * 1000).astype(np.float32)
    x[:3] = [np.inf, -np.inf, np.nan]
    got = reduce_precision(x, 5, 10)
    want = x.astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(got, want)


def test_narrow_floats_round_like_ml_dtypes() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal(1000).astype(np.float32) * 100
    round_e5m2 = rounding(TensorType(Float8E5M2Type(), [1000]))
    assert round_e5m2 is not None
    want = x.astype(ml_dtypes.float8_e5m2).astype(np.float32)
    np.testing.assert_array_equal(round_e5m2(x), want)


@pytest.mark.parametrize("signedness", [Signedness.SIGNLESS, Signedness.UNSIGNED])
def test_four_bit_integers_wrap_and_round_trip_their_bits(
    signedness: Signedness,
) -> None:
    type_ = TensorType(IntegerType(4, signedness), [6])
    wrap = rounding(type_)
    assert wrap is not None
    values = wrap(np.arange(-3, 3) * 7)
    low = 0 if signedness == Signedness.UNSIGNED else -8
    assert values.min() >= low and values.max() <= low + 15
    assert np.array_equal(((values - np.arange(-3, 3) * 7) % 16), np.zeros(6))
    bits = to_bits(values, type_)
    assert bits.max() <= 15
    np.testing.assert_array_equal(from_bits(bits, type_), values)


@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("transpose", ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"])
def test_triangular_solve_matches_a_dense_solve(
    left_side: bool, lower: bool, transpose: str
) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4))
    a += 4 * np.eye(4)
    b = rng.standard_normal((2, 4, 3) if left_side else (2, 3, 4)) + 0j
    triangle = np.tril(a) if lower else np.triu(a)
    op = {
        "NO_TRANSPOSE": triangle,
        "TRANSPOSE": np.swapaxes(triangle, -1, -2),
        "ADJOINT": np.conj(np.swapaxes(triangle, -1, -2)),
    }[transpose]
    x = solve_triangular(a, b, left_side, lower, False, transpose)
    product = op @ x if left_side else x @ op
    np.testing.assert_allclose(product, b, atol=1e-12)


QUANTIZED = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %b = stablehlo.uniform_quantize %y : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %d = stablehlo.subtract %a, %a : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %s = stablehlo.add %d, %b : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %m = stablehlo.multiply %s, %b : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %r = stablehlo.uniform_dequantize %m : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_quantized_ops_run_on_dequantized_values_through_the_pipeline() -> None:
    """Each op dequantizes, computes in f32 and quantizes: x - x is exactly
    zero whatever the clamping, and 1.5 * 1.5 = 2.25 is 7.5 in storage,
    which rounds to even (8), i.e. 2.5."""
    executable = xlir.compile(QUANTIZED, target="interpreter")
    x = np.array([1.0, -2.0, 3.3, 100.0], np.float32)
    y = np.array([1.5, 2.0, -3.0, 7.0], np.float32)
    got = executable(x, y)
    np.testing.assert_array_equal(got, np.array([2.5, 4.0, 9.0, 49.0], np.float32))


BATCH_NORM = """
func.func @main(%x: tensor<3x2x4xf64>, %scale: tensor<2xf64>, %offset: tensor<2xf64>, %g: tensor<3x2x4xf64>) -> (tensor<3x2x4xf64>, tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>) {
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>)
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<3x2x4xf64>) -> (tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>)
  return %out, %gx, %gs, %go : tensor<3x2x4xf64>, tensor<3x2x4xf64>, tensor<2xf64>, tensor<2xf64>
}
"""


def test_batch_norm_grad_is_the_gradient_of_batch_norm_training() -> None:
    """Against central differences of <g, batch_norm_training(x, scale,
    offset)> in each input."""
    executable = xlir.compile(BATCH_NORM, target="interpreter", pipeline="")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 2, 4))
    scale, offset = rng.standard_normal(2), rng.standard_normal(2)
    g = rng.standard_normal((3, 2, 4))
    _, grad_x, grad_scale, grad_offset = executable(x, scale, offset, g)

    def loss(x: np.ndarray, scale: np.ndarray, offset: np.ndarray) -> float:
        return float(np.sum(g * executable(x, scale, offset, g)[0]))

    def numeric(which: int, value: np.ndarray) -> np.ndarray:
        grad = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            step = np.zeros_like(value)
            step[index] = 1e-6
            args_plus = [x, scale, offset]
            args_minus = [x, scale, offset]
            args_plus[which] = value + step
            args_minus[which] = value - step
            grad[index] = (loss(*args_plus) - loss(*args_minus)) / 2e-6
        return grad

    np.testing.assert_allclose(grad_x, numeric(0, x), atol=1e-5)
    np.testing.assert_allclose(grad_scale, numeric(1, scale), atol=1e-5)
    np.testing.assert_allclose(grad_offset, numeric(2, offset), atol=1e-5)


NARROW_ARGUMENTS = """
func.func @main(%x: tensor<3xf8E4M3FN>, %i: tensor<3xi4>) -> (tensor<3xf8E4M3FN>, tensor<3xi4>) {
  %y = stablehlo.add %x, %x : tensor<3xf8E4M3FN>
  %j = stablehlo.add %i, %i : tensor<3xi4>
  return %y, %j : tensor<3xf8E4M3FN>, tensor<3xi4>
}
"""


def test_narrow_arguments_are_ml_dtypes_and_rounded_on_the_way_in() -> None:
    """float8 and i4 are `ml_dtypes` arrays in and out; float32 and int8
    arrays are taken too, rounded (wrapped) to the type when they enter."""
    executable = xlir.compile(NARROW_ARGUMENTS, target="interpreter")
    specs = executable.signature.arguments
    assert [s.dtype for s in specs] == [
        np.dtype(ml_dtypes.float8_e4m3fn),
        np.dtype(ml_dtypes.int4),
    ]
    x = np.array([0.1, 1.0, 300.0], np.float32)  # 0.1 → 0.1015625, 300 → 288
    i = np.array([7, -8, 9], np.int8)  # 9 wraps to -7
    y, j = executable(x, i)
    assert y.dtype == ml_dtypes.float8_e4m3fn and j.dtype == ml_dtypes.int4
    # 288 + 288 overflows f8E4M3FN (largest 448), which has no infinity: NaN
    np.testing.assert_array_equal(
        y.astype(np.float32), np.array([0.203125, 2.0, np.nan], np.float32)
    )
    np.testing.assert_array_equal(j.astype(np.int8), np.array([-2, 0, 2], np.int8))


def _bit_ops_reference(kind: str, a: int, b: int, width: int, signed: bool) -> int:
    """Shifts, popcnt and clz on `width`-bit two's complement integers."""
    mask = (1 << width) - 1
    bits, amount = a & mask, b & mask
    if kind == "shift_left":
        result = 0 if amount >= width else (bits << amount) & mask
    elif kind == "shift_right_logical":
        result = 0 if amount >= width else bits >> amount
    elif kind == "shift_right_arithmetic":
        value = bits - (1 << width) if bits >> (width - 1) else bits
        result = (-1 if value < 0 else 0) if amount >= width else value >> amount
    elif kind == "popcnt":
        result = bin(bits).count("1")
    else:
        result = width - bits.bit_length()
    result &= mask
    return result - (1 << width) if signed and result >> (width - 1) else result


@pytest.mark.parametrize(("width", "signed"), [(2, True), (4, True), (4, False)])
def test_bit_ops_on_narrow_integers_match_a_reference(width: int, signed: bool) -> None:
    """Every pair of values: the bits of 2- and 4-bit integers are theirs,
    not those of the 8-bit integers that hold them."""
    from xlir.tools.check_runner import check_source

    spelling = f"{'i' if signed else 'ui'}{width}"
    low = -(1 << (width - 1)) if signed else 0
    values = list(range(low, low + (1 << width)))
    lhs = [a for a in values for _ in values]
    rhs = [b for _ in values for b in values]
    type_ = f"tensor<{len(lhs)}x{spelling}>"
    lines = [
        f"%a = stablehlo.constant dense<{lhs}> : {type_}",
        f"%b = stablehlo.constant dense<{rhs}> : {type_}",
    ]
    kinds = ["shift_left", "shift_right_logical", "shift_right_arithmetic"]
    for kind in [*kinds, "popcnt", "count_leading_zeros"]:
        operands = "%a, %b" if kind in kinds else "%a"
        want = [
            _bit_ops_reference(kind, a, b, width, signed)
            for a, b in zip(lhs, rhs, strict=True)
        ]
        lines.append(f"%{kind} = stablehlo.{kind} {operands} : {type_}")
        lines.append(f"check.expect_eq_const %{kind}, dense<{want}> : {type_}")
    text = "func.func @bits() {\n" + "\n".join(lines) + "\nfunc.return\n}\n"
    (result,) = check_source(text, "bits.mlir", split=False)
    assert result.passed, result.problems


BF16_DATA_MOVEMENT = """
func.func @main(%a: tensor<2x3xbf16>, %p: tensor<2x3xi1>) -> (tensor<2x3xbf16>,
    tensor<3x2xbf16>, tensor<6xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>,
    tensor<2x3xbf16>, tensor<2x3xbf16>) {
  %zero = stablehlo.constant dense<0.0> : tensor<2x3xbf16>
  %convert = stablehlo.convert %a : tensor<2x3xbf16>
  %transpose = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xbf16>) -> tensor<3x2xbf16>
  %reshape = stablehlo.reshape %a : (tensor<2x3xbf16>) -> tensor<6xbf16>
  %select = stablehlo.select %p, %a, %zero : tensor<2x3xi1>, tensor<2x3xbf16>
  %negate = stablehlo.negate %a : tensor<2x3xbf16>
  %abs = stablehlo.abs %a : tensor<2x3xbf16>
  return %a, %transpose, %reshape, %select, %negate, %abs, %convert
    : tensor<2x3xbf16>, tensor<3x2xbf16>, tensor<6xbf16>, tensor<2x3xbf16>,
      tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>
}
"""


def test_bf16_nans_keep_their_payload_through_data_movement_and_sign_ops() -> None:
    """A reshape, a transpose, a select, a bf16 -> bf16 convert and the
    result itself move bits; negate and abs change the sign bit only (NaN
    payloads of arithmetic are the implementation's, and left alone)."""
    bits = np.array(
        [[0xFFC1, 0x7FC3, 0x7F81], [0xFF85, 0x3F80, 0x7FC0]], np.uint16
    )  # quiet and signalling NaNs of both signs with payloads, 1.0
    a = bits.view(ml_dtypes.bfloat16)
    p = np.array([[True, True, True], [True, False, True]])
    outs = xlir.compile(BF16_DATA_MOVEMENT, target="interpreter")(a, p)
    got = [np.asarray(out).view(np.uint16) for out in outs]
    selected = np.where(p, bits, 0)
    for out, want in zip(got, [bits, bits.T, bits.reshape(6), selected], strict=False):
        np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(got[4], bits ^ 0x8000)
    np.testing.assert_array_equal(got[5], bits & 0x7FFF)
    np.testing.assert_array_equal(got[6], bits)


def test_bf16_rounding_quiets_and_cuts_only_nans_wider_than_bf16() -> None:
    """An f32 NaN with payload bits below bf16's is made quiet and cut; one
    that is a bf16 already keeps every bit, a signalling one included."""
    f32 = np.array([0x7F810000, 0xFF812345, 0x7FC30001], np.uint32)
    got = round_bf16(f32.view(np.float32)).view(np.uint32)
    np.testing.assert_array_equal(
        got, np.array([0x7F810000, 0xFFC10000, 0x7FC30000], np.uint32)
    )
