"""`merge-kernels` in the cpu target's compile: copies of a kernel become
one LLVM function, except where bounds checks or launch timers name each
kernel (passes/loop/merge_kernels.py; its lit tests check the pass)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xlir.targets.target import CompileOptions

import xlir

# Two means of a 16 x 16 array: one fusion sums both, and each division by
# the count is a fusion of its own, the two alike but for their buffers.
MEANS = """func.func @main(%a: tensor<16x16xf32>) -> (tensor<f32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<256.0> : tensor<f32>
  %sq = stablehlo.multiply %a, %a : tensor<16x16xf32>
  %ab = stablehlo.abs %a : tensor<16x16xf32>
  %0 = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%ab init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.divide %0, %n : tensor<f32>
  %3 = stablehlo.divide %1, %n : tensor<f32>
  return %2, %3 : tensor<f32>, tensor<f32>
}"""


def _defined(executable: xlir.Executable) -> list[str]:
    ir = executable.llvm_ir
    return re.findall(r'^define [^@]*@"([^"]+)"', ir, re.M)


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


def test_copies_of_a_kernel_compile_once() -> None:
    executable = xlir.compile(MEANS, target="cpu")
    assert _defined(executable) == ["fusion_1", "fusion_2", "main"]
    a = np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32)
    squares, magnitudes = executable(a)
    np.testing.assert_allclose(squares, (a * a).mean(), rtol=1e-5)
    np.testing.assert_allclose(magnitudes, np.abs(a).mean(), rtol=1e-5)


@pytest.mark.parametrize(
    "options", [CompileOptions(bounds_check=True), CompileOptions(time_launches=True)]
)
def test_modes_that_name_each_kernel_keep_them(options: CompileOptions) -> None:
    executable = xlir.compile(MEANS, target="cpu", options=options)
    assert _defined(executable) == ["fusion_1", "fusion_2", "fusion_3", "main"]
