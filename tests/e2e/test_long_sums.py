"""Long float sums are accurate: sums and contractions over about 4M f32
terms of uniform [0, 1) data are within 1e-6 (relative) of the exact sum on
the cpu target (`block-sums`: blocked partial sums) and on the interpreter
(numpy's pairwise sums, f64 contractions); summed in order, they were not."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

N = 1 << 22
"""Terms per sum: 16 x 64 x 64 x 64."""

_ADD = "applies stablehlo.add"

PROGRAMS = {
    "sum_all": f"""
func.func @main(%x: tensor<16x64x64x64xf32>) -> tensor<f32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) {_ADD} across dimensions = [0, 1, 2, 3]
      : (tensor<16x64x64x64xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}}""",
    "contract_all": """
func.func @main(%x: tensor<16x64x64x64xf32>, %y: tensor<16x64x64x64xf32>) -> tensor<f32> {
  %s = stablehlo.dot_general %x, %y, contracting_dims = [0, 1, 2, 3] x [0, 1, 2, 3]
      : (tensor<16x64x64x64xf32>, tensor<16x64x64x64xf32>) -> tensor<f32>
  return %s : tensor<f32>
}""",
    "long_rows": f"""
func.func @main(%x: tensor<4x1048576xf32>) -> tensor<4xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) {_ADD} across dimensions = [1]
      : (tensor<4x1048576xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}}""",
    "long_columns": f"""
func.func @main(%x: tensor<1048576x4xf32>) -> tensor<4xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) {_ADD} across dimensions = [0]
      : (tensor<1048576x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}}""",
    "long_k_matmul": """
func.func @main(%x: tensor<4x1048576xf32>, %y: tensor<1048576x4xf32>) -> tensor<4x4xf32> {
  %s = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
      : (tensor<4x1048576xf32>, tensor<1048576x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}""",
}


def _exact(name: str, arguments: list[np.ndarray]) -> np.ndarray:
    wide = [a.astype(np.float64) for a in arguments]
    if name == "sum_all":
        return wide[0].sum()
    if name == "contract_all":
        return np.vdot(wide[0], wide[1])
    if name == "long_rows":
        return wide[0].sum(axis=1)
    if name == "long_columns":
        return wide[0].sum(axis=0)
    return wide[0] @ wide[1]


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("target", ["cpu", "interpreter"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_long_sum_is_accurate(name: str, target: str) -> None:
    executable = xlir.compile(PROGRAMS[name], target=target)
    rng = np.random.default_rng(7)
    arguments = [
        rng.random(spec.shape, dtype=np.float32)
        for spec in executable.signature.arguments
    ]
    assert all(a.size == N for a in arguments)
    exact = _exact(name, arguments)
    got = np.asarray(executable(*arguments), dtype=np.float64)
    relative = np.max(np.abs(got - exact) / np.abs(exact))
    assert relative < 1e-6, f"{name} on {target}: relative error {relative:.2e}"
