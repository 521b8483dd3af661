"""Float `remainder` is C's `fmod` (IEEE: exact, with the dividend's sign) on
every target, also where the quotient no longer fits the mantissa (f32
`1e30 rem 7`, f16 `-65504 rem -24`), at signed zeros, infinities and NaN."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def operands(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of edge values, then dividends up to the largest finite
    value over small and odd divisors."""
    info = np.finfo(dtype)
    edges = [0.0, -0.0, 1.0, -2.5, 3.0, 7.0, info.tiny, info.smallest_subnormal]
    edges += [float(info.max), -float(info.max), np.inf, -np.inf, np.nan]
    a = [x for x in edges for _ in edges]
    b = [y for _ in edges for y in edges]
    rng = np.random.default_rng(0)
    exponents = rng.uniform(0, np.log2(float(info.max)), 200)
    a += list(rng.choice([-1, 1], 200) * np.exp2(exponents))
    b += list(rng.choice([-24, -7, 3, 0.1, 1e-3, 7.5], 200))
    with np.errstate(over="ignore"):
        return np.array(a).astype(dtype), np.array(b).astype(dtype)


@pytest.mark.parametrize("element", DTYPES)
@pytest.mark.parametrize(
    "options",
    [
        {"target": "interpreter", "pipeline": "fuse,assign-buffers,hlo-to-loop"},
        {"target": "cpu"},
    ],
)
def test_remainder_is_fmod(element: str, options: dict[str, str]):
    a, b = operands(DTYPES[element])
    n = a.size
    text = (
        f"func.func @main(%a: tensor<{n}x{element}>, %b: tensor<{n}x{element}>) "
        f"-> tensor<{n}x{element}> {{\n"
        f"  %r = stablehlo.remainder %a, %b : tensor<{n}x{element}>\n"
        f"  return %r : tensor<{n}x{element}>\n}}"
    )
    with np.errstate(invalid="ignore"):
        want = np.fmod(a, b)
        evaluated = xlir.compile(text, pipeline="")(a, b)
        got = xlir.compile(text, **options)(a, b)
    np.testing.assert_array_equal(evaluated, want)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_f32_remainder_of_a_huge_quotient():
    """The case issue 28 reported: the cpu gave -2.8e22."""
    text = """func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %seven = stablehlo.constant dense<7.0> : tensor<f32>
  %r = stablehlo.remainder %a, %seven : tensor<f32>
  return %r : tensor<f32>
}"""
    a = np.float32(1e30)
    got = xlir.compile(text, target="cpu")(a)
    assert got == np.fmod(a, np.float32(7)) and 0 <= got < 7
