"""Half precision on the cpu target, one op at a time, against the
interpreter: `remainder` (an f16 `fma`, which LLVM computes in f64),
`convert` f64 -> f16 and `dot_general` (accumulated in f32 and rounded
once: a sum whose f16 partial sums would overflow to inf - inf = NaN is
inf, as the interpreter and XLA give).

Where the CPU has no instruction for an f64 -> f16 conversion (x86 without
AVX512-FP16), LLVM calls `__truncdfhf2`, which the JIT once left unresolved
(a call to address 0: a segfault on the first call). So each program also
runs in a subprocess compiled for this CPU without its native f16
features, and again without F16C (tests/cpu_features.py), where the JIT
links its own conversions (lowering/llvm/half_conversions.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import xlir
from tests.cpu_features import X86

ROOT = Path(__file__).resolve().parents[2]

N = 64

PROGRAMS = {
    "remainder": f"""
func.func @main(%a: tensor<{N}xf16>, %b: tensor<{N}xf16>) -> tensor<{N}xf16> {{
  %0 = stablehlo.remainder %a, %b : tensor<{N}xf16>
  return %0 : tensor<{N}xf16>
}}""",
    "convert_f64_f16": f"""
func.func @main(%a: tensor<{N}xf64>) -> tensor<{N}xf16> {{
  %0 = stablehlo.convert %a : (tensor<{N}xf64>) -> tensor<{N}xf16>
  return %0 : tensor<{N}xf16>
}}""",
    "dot_general": """
func.func @main(%a: tensor<8x24xf16>, %b: tensor<24x8xf16>) -> tensor<8x8xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x24xf16>, tensor<24x8xf16>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}""",
}


def _arguments(name: str) -> list[np.ndarray]:
    """Random values with the edges each op has: zeros, infinities, NaNs,
    subnormals, halfway cases of the f16 rounding, overflow."""
    rng = np.random.default_rng(7)
    if name == "remainder":
        a = (rng.standard_normal(N) * 100).astype(np.float16)
        b = (rng.standard_normal(N) * 3).astype(np.float16)
        a[:8] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 5.0, 65504, 6e-8]
        b[:8] = [2.0, 3.0, 1.0, 0.0, 7.0, np.inf, 3.0, 4e-8]
        return [a, b]
    if name == "convert_f64_f16":
        a = rng.standard_normal(N) * 10.0 ** rng.integers(-9, 6, N)
        a[:7] = [np.inf, -np.nan, 65504, 65519.99, 65520, -1e300, 2.0**-25]
        a[7:12] = [2.0**-25 * 1.5, 1 + 2.0**-11, 1 + 3 * 2.0**-11, -0.0, 5e-324]
        return [a]
    a = rng.standard_normal((8, 24)).astype(np.float16)
    b = rng.standard_normal((24, 8)).astype(np.float16)
    a[0, 0], b[0, 0] = np.inf, 0.0  # inf * 0: NaN
    a[1, :], b[:, 1] = 300.0, 300.0  # partial sums beyond f16's range
    b[12:, 1] = -300.0  # ... which cancel: 0
    a[2, :3], b[:3, 2] = 300.0, 300.0  # 3 * 90000: inf
    b[2, 2] = -300.0  # inf + inf - inf in f16 steps; inf summed in f32
    a[3, 5] = np.nan
    return [a, b]


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


def check(name: str) -> None:
    """The cpu's outputs of program `name` equal the interpreter's."""
    text, arguments = PROGRAMS[name], _arguments(name)
    want = xlir.compile(text)(*arguments)
    for _ in range(2):
        _same(xlir.compile(text, target="cpu")(*arguments), want)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("name", PROGRAMS)
def test_cpu_matches_interpreter(name: str) -> None:
    check(name)


def test_dot_general_sums_in_f32() -> None:
    """The cases of `_arguments`, spelled out."""
    a, b = _arguments("dot_general")
    got = xlir.compile(PROGRAMS["dot_general"], target="cpu")(a, b)
    assert np.isnan(got[0, 0]) and np.isnan(got[3, 0])
    assert got[1, 1] == 0.0
    assert got[2, 2] == np.inf


RUN_WITHOUT_NATIVE_HALF = """
import sys
from tests.cpu_features import without_native_half
without_native_half(f16c=sys.argv[2] == "1")
from tests.e2e.test_f16_one_op import check
check(sys.argv[1])
"""


@pytest.mark.skipif(not X86, reason="drops x86 features")
@pytest.mark.parametrize("f16c", [True, False], ids=["f16c", "no-f16c"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_cpu_without_native_half_matches_interpreter(name: str, f16c: bool) -> None:
    result = subprocess.run(
        [sys.executable, "-c", RUN_WITHOUT_NATIVE_HALF, name, "1" if f16c else "0"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "XLIR_CACHE": "0"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
