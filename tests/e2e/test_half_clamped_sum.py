"""A clamped, negated f16 sum (the generator's tamed reduce) compiles and
agrees with the evaluator on every target: on a host with AVX512FP16, the
kernels compiled without AVX512VL (`mask_move_fold.without_mask_move_folds`)
kept FP16 on, and LLVM aborted ("Cannot select: v8f16 X86ISD::CMOV") in
the nvptx emulator's kernels (found by the program fuzzer)."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets

CLAMPED_SUM = """
func.func @main(%x: tensor<4x5xf16>) -> tensor<15xf16> {
  %w = stablehlo.concatenate %x, %x, %x, dim = 1 : (tensor<4x5xf16>, tensor<4x5xf16>, tensor<4x5xf16>) -> tensor<4x15xf16>
  %hi = stablehlo.constant dense<2.560000e+02> : tensor<f16>
  %lo = stablehlo.constant dense<-2.560000e+02> : tensor<f16>
  %c = stablehlo.clamp %lo, %w, %hi : (tensor<f16>, tensor<4x15xf16>, tensor<f16>) -> tensor<4x15xf16>
  %f = stablehlo.is_finite %w : (tensor<4x15xf16>) -> tensor<4x15xi1>
  %s = stablehlo.select %f, %c, %w : tensor<4x15xi1>, tensor<4x15xf16>
  %a = stablehlo.abs %s : tensor<4x15xf16>
  %n = stablehlo.negate %a : tensor<4x15xf16>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f16>
  %r = stablehlo.reduce(%n init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x15xf16>, tensor<f16>) -> tensor<15xf16>
  return %r : tensor<15xf16>
}"""


@pytest.mark.parametrize("target", runnable_targets())
def test_clamped_half_sum(target: str) -> None:
    x = np.array([1.5, -300, np.inf, -0.0, 2] * 4, np.float16).reshape(4, 5)
    want = xlir.compile(CLAMPED_SUM, pipeline="")(x)
    assert want[0] == -6 and want[1] == -1024 and want[2] == -np.inf
    np.testing.assert_array_equal(xlir.compile(CLAMPED_SUM, target=target)(x), want)
