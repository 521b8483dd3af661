"""bf16, f16 and the float8, float6 and float4 types on the cpu target
(`widen-floats`: computed in f32, converted by integer code) against the
evaluator: conversions bit for bit over every code and a sweep of f32 and
f64 values, sums accumulated in f32 and rounded once, and the programs the
random program fuzzer once found failing on cpu."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xlir
from xlir.element_dtypes import NARROW_FLOATS, ml_dtype_of

N = 2048
FORMATS = ["bf16", *(str(float_type()) for float_type in NARROW_FLOATS)]


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit for bit, except that any NaN matches any NaN."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    nan = np.isnan(want)
    return bool(
        np.array_equal(np.isnan(got), nan)
        and np.array_equal(got[~nan], want[~nan])
        and np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))
    )


def _conversions() -> str:
    """Every format from f32, from f64, and back to f32 from each code."""
    args, lines, results = ["%a: tensor<N x f32>", "%d: tensor<N x f64>"], [], []
    for index, name in enumerate(FORMATS):
        args.append(f"%c{index}: tensor<256x{name}>")
        for source, value in (("f32", "%a"), ("f64", "%d")):
            lines.append(
                f"%{source}_{index} = stablehlo.convert {value} "
                f": (tensor<N x {source}>) -> tensor<N x {name}>"
            )
            results.append((f"%{source}_{index}", f"tensor<N x {name}>"))
        lines.append(
            f"%back{index} = stablehlo.convert %c{index} "
            f": (tensor<256x{name}>) -> tensor<256xf32>"
        )
        results.append((f"%back{index}", "tensor<256xf32>"))
    text = (
        f"func.func @main({', '.join(args)}) -> ({', '.join(t for _, t in results)}) {{\n"
        + "\n".join(f"  {line}" for line in lines)
        + f"\n  return {', '.join(v for v, _ in results)} : "
        + f"{', '.join(t for _, t in results)}\n}}"
    )
    return text.replace("N x ", f"{N}x")


def _conversion_inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    f32 = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    f32[:32] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 2**-127, 1.5, 3, 0.75,
                448, 464, 465, 480, 57344, 61440, 61439, 15.5, 15.75, 6.5, 7, 28,
                30, 31, 2**-133, 2**-134, 1 + 2**-8, 240, 248, 0.25, -1e-30, 1e30]  # fmt: skip
    f64 = rng.standard_normal(N) * 2.0 ** rng.integers(-140, 140, N)
    # rounded to f32 first, these land on a tie of the narrow type
    f64[:4] = [1 + 2**-8 + 2**-40, 1 + 2**-4 + 2**-40, 1 + 2**-3 + 2**-50, 2**-150]
    codes = []
    for name in FORMATS:
        dtype = ml_dtype_of(name)
        if dtype.itemsize == 2:
            bits = rng.integers(0, 2**16, 256).astype(np.uint16)
        else:
            bits = np.arange(256, dtype=np.uint8)
            width = {"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}.get(name, 8)
            bits &= (1 << width) - 1
        codes.append(bits.view(dtype).astype(np.float32))
    return [f32, f64, *codes]


def test_conversions_agree_bit_for_bit() -> None:
    text = _conversions()
    arguments = _conversion_inputs()
    with np.errstate(all="ignore"):  # NaN and inf to types that lack them
        want = xlir.compile(text, target="interpreter", pipeline="")(*arguments)
        got = xlir.compile(text, target="cpu")(*arguments)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        assert _same(g, w), f"result {index}: {g[g != w][:4]} != {w[g != w][:4]}"
    # f64 rounded once: 1 + 2^-8 + 2^-40 is above bf16's tie at 1 + 2^-8
    assert want[FORMATS.index("bf16") * 3 + 1][0] == np.float32(1 + 2**-7)


SUMS = """
func.func @main(%a: tensor<4096xf16>, %b: tensor<4096xbf16>) -> (tensor<f16>, tensor<bf16>) {
  %z = stablehlo.constant dense<0.0> : tensor<f16>
  %zb = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096xf16>, tensor<f16>) -> tensor<f16>
  %1 = stablehlo.reduce(%b init: %zb) applies stablehlo.add across dimensions = [0] : (tensor<4096xbf16>, tensor<bf16>) -> tensor<bf16>
  return %0, %1 : tensor<f16>, tensor<bf16>
}"""


@pytest.mark.parametrize("target", ["interpreter", "cpu"])
def test_sums_accumulate_in_f32(target: str) -> None:
    """4096 ones: an f16 accumulator stops at 2048 (2048 + 1 rounds to
    2048), a bf16 one at 256; summed in f32 and rounded once, 4096."""
    ones = np.ones(4096, np.float16), np.ones(4096, np.float32)
    f16, bf16 = xlir.compile(SUMS, target=target)(*ones)
    assert (float(f16), float(bf16)) == (4096.0, 4096.0)


FOUND_BY_THE_FUZZER = {
    # vectorize built vector<2xi8> IR for the and-reduce before the convert
    "and_reduce_to_bf16": """
func.func @main(%a: tensor<8x16xi8>) -> tensor<16xbf16> {
  %c = stablehlo.constant dense<-1> : tensor<i8>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.and across dimensions = [0] : (tensor<8x16xi8>, tensor<i8>) -> tensor<16xi8>
  %1 = stablehlo.convert %0 : (tensor<16xi8>) -> tensor<16xbf16>
  return %1 : tensor<16xbf16>
}""",
    # loop-to-llvm refused the bf16 ops of the dot's epilogue, unlocated
    "dot_broadcast_bf16": """
func.func @main(%a: tensor<32x64xbf16>, %b: tensor<64x48xbf16>, %c: tensor<48xbf16>) -> (tensor<32x48xbf16>, tensor<32x48xbf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x64xbf16>, tensor<64x48xbf16>) -> tensor<32x48xbf16>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<48xbf16>) -> tensor<32x48xbf16>
  %2 = stablehlo.add %0, %1 : tensor<32x48xbf16>
  %3 = stablehlo.tanh %2 : tensor<32x48xbf16>
  return %2, %3 : tensor<32x48xbf16>, tensor<32x48xbf16>
}""",
    # an internal error in loop-to-llvm
    "zero_size_bf16": """
func.func @main(%a: tensor<0x3xf32>) -> (tensor<0x3xbf16>, tensor<0x2xbf16>) {
  %c = stablehlo.constant dense<> : tensor<0x2xbf16>
  %1 = stablehlo.convert %a : (tensor<0x3xf32>) -> tensor<0x3xbf16>
  return %1, %c : tensor<0x3xbf16>, tensor<0x2xbf16>
}""",
}


@pytest.mark.parametrize("name", FOUND_BY_THE_FUZZER)
def test_fuzzer_findings_run_on_cpu(name: str) -> None:
    text = FOUND_BY_THE_FUZZER[name]
    reference = xlir.compile(text, target="interpreter", pipeline="")
    rng = np.random.default_rng(5)
    arguments = []
    for spec in reference.signature.arguments:
        values = rng.standard_normal(spec.shape) * 4
        if spec.element_type == "bf16":  # bf16 values, held as float32
            values = values.astype(ml_dtype_of("bf16"))
        arguments.append(np.asarray(values).astype(spec.dtype))
    want = reference(*arguments)
    got = xlir.compile(text, target="cpu")(*arguments)
    if not isinstance(want, tuple):
        want, got = (want,), (got,)
    for g, w in zip(got, want, strict=True):
        # the dot's sums may be added in another order; the rest is exact
        np.testing.assert_allclose(g, w, rtol=1e-2 if name.startswith("dot") else 0)


SORT = """
func.func @main(%a: tensor<256xT>) -> tensor<256xT> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<T>, tensor<T>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<256xT>) -> tensor<256xT>
  return %0 : tensor<256xT>
}"""


@pytest.mark.parametrize("name", [n for n in FORMATS if n.startswith("f8")])
def test_total_order_sorts_as_the_evaluator(name: str) -> None:
    """Every code of a float8 type sorted by TOTALORDER: by value, as the
    evaluator orders the float32 values it holds (the bits of an unsigned
    `f8E8M0FNU` or of an `FNUZ` NaN, 0x80, ordered as sign and magnitude,
    put NaN first or among the small values)."""
    text = SORT.replace("T>", f"{name}>")
    codes = np.arange(256, dtype=np.uint8)[::-1].copy()
    values = codes.view(ml_dtype_of(name)).astype(np.float32)
    want = xlir.compile(text, target="interpreter", pipeline="")(values)
    got = xlir.compile(text, target="cpu")(values)
    assert _same(got, want)


ZERO_TESTS = """
func.func @main(%a: tensor<256xT>) -> (tensor<256xT>, tensor<256xi1>) {
  %0 = stablehlo.sign %a : tensor<256xT>
  %1 = stablehlo.convert %a : (tensor<256xT>) -> tensor<256xi1>
  return %0, %1 : tensor<256xT>, tensor<256xi1>
}"""


@pytest.mark.parametrize("name", [n for n in FORMATS if n.startswith("f8")])
def test_sign_and_truth_as_the_evaluator(name: str) -> None:
    """`sign` and the convert to i1 of every code of a float8 type, which
    compare with zero: `f8E8M0FNU` has none (its constant 0.0 rounded to
    2^-127, whose sign was then itself and whose truth false; fuzzer seed
    43500970, elementwise mode)."""
    text = ZERO_TESTS.replace("T>", f"{name}>")
    dtype = ml_dtype_of(name)
    assert dtype is not None
    values = np.arange(256, dtype=np.uint8).view(dtype).astype(np.float32)
    want = xlir.compile(text, target="interpreter", pipeline="")(values)
    got = xlir.compile(text, target="cpu")(values)
    assert _same(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_bf16_rounding_at_every_exponent() -> None:
    """f32 to bf16 (`float_formats.encode`'s same-exponent case) for every
    sign, exponent and top mantissa bits, with the dropped bits at each
    rounding boundary: as `ml_dtypes` rounds, and a NaN stays a NaN of its
    sign and top payload bits, made quiet."""
    high = np.arange(1 << 16, dtype=np.uint32) << 16
    dropped = np.array(
        [0, 1, 0x3FFF, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF], np.uint32
    )
    bits = (high[:, None] | dropped[None, :]).reshape(-1)
    text = (
        f"func.func @main(%a: tensor<{bits.size}xf32>) -> tensor<{bits.size}xbf16> {{\n"
        f"  %0 = stablehlo.convert %a : (tensor<{bits.size}xf32>) -> "
        f"tensor<{bits.size}xbf16>\n  return %0 : tensor<{bits.size}xbf16>\n}}"
    )
    got = xlir.compile(text, target="cpu")(bits.view(np.float32)).view(np.uint16)
    values = bits.view(np.float32)
    nan = np.isnan(values)
    with np.errstate(invalid="ignore"):
        want = values.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    quiet = ((bits[nan] >> 16) | 0x40).astype(np.uint16)
    np.testing.assert_array_equal(got[nan], quiet)


def test_bf16_dot_rounds_its_sums_at_every_exponent() -> None:
    """A bf16 dot's register tiles round each f32 sum to bf16 in vector code
    (`passes/loop/jam_vector.py`): exact sums `h + l1 + l2` (h the sum's
    top 16 bits, l1 and l2 bf16 pieces of the dropped bits) for both signs,
    the exponents where the pieces are bf16 values, a few top mantissas and
    the dropped bits at each rounding boundary, as `ml_dtypes` rounds them
    (overflow to infinity included)."""
    exponents = np.arange(17, 255, dtype=np.uint32) << 23
    signs = np.array([0, 1 << 31], np.uint32)
    mantissas = np.array([0, 1, 0x40, 0x7F], np.uint32) << 16
    dropped = np.array(
        [0, 1, 0x3FFF, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF], np.uint32
    )
    high = (signs[:, None, None] | exponents[None, :, None] | mantissas).reshape(-1)
    bits = (high[:, None] | dropped[None, :]).reshape(-1)
    middle = bits & 0xFFFFFF00
    h, m, t = (x.view(np.float32) for x in (bits & 0xFFFF0000, middle, bits))
    rhs = np.stack([h, m - h, t - m])
    assert np.array_equal(rhs.astype(ml_dtypes.bfloat16).astype(np.float32), rhs)
    n = bits.size
    text = (
        f"func.func @main(%a: tensor<2x3xbf16>, %b: tensor<3x{n}xbf16>) -> tensor<2x{n}xbf16> {{\n"
        f"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
        f"(tensor<2x3xbf16>, tensor<3x{n}xbf16>) -> tensor<2x{n}xbf16>\n"
        f"  return %0 : tensor<2x{n}xbf16>\n}}"
    )
    ones = np.ones((2, 3), ml_dtypes.bfloat16)
    got = xlir.compile(text, target="cpu")(ones, rhs.astype(ml_dtypes.bfloat16))
    want = t.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(got.view(np.uint16), np.stack([want, want]))
