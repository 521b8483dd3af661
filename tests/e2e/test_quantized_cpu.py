"""Quantized programs on cpu (`quant-to-math`: storage integers and
arithmetic) give the interpreter's numbers: the storage integers bit for
bit, dequantized values exactly."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

PER_AXIS = "!quant.uniform<i8:f32:1, {0.1:-30,0.5:-20,0.25:0}>"
REQUANTIZED = "!quant.uniform<i8<-127:127>:f32:1, {0.2:5,0.05:-10,1.0:3}>"
PER_TENSOR = "!quant.uniform<i8:f32, 0.3:7>"
PROGRAM = f"""
func.func @main(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> (tensor<4x3xi8>, tensor<4x3xi8>, tensor<4x3xf32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<4x3xf32>) -> tensor<4x3x{PER_AXIS}>
  %r = stablehlo.uniform_quantize %q : (tensor<4x3x{PER_AXIS}>) -> tensor<4x3x{REQUANTIZED}>
  %p = stablehlo.uniform_quantize %y : (tensor<4x3xf32>) -> tensor<4x3x{PER_TENSOR}>
  %m = stablehlo.multiply %r, %p : (tensor<4x3x{REQUANTIZED}>, tensor<4x3x{PER_TENSOR}>) -> tensor<4x3x{PER_TENSOR}>
  %t = stablehlo.transpose %m, dims = [0, 1] : (tensor<4x3x{PER_TENSOR}>) -> tensor<4x3x{PER_TENSOR}>
  %b = stablehlo.bitcast_convert %r : (tensor<4x3x{REQUANTIZED}>) -> tensor<4x3xi8>
  %c = stablehlo.bitcast_convert %t : (tensor<4x3x{PER_TENSOR}>) -> tensor<4x3xi8>
  %d = stablehlo.uniform_dequantize %t : (tensor<4x3x{PER_TENSOR}>) -> tensor<4x3xf32>
  return %b, %c, %d : tensor<4x3xi8>, tensor<4x3xi8>, tensor<4x3xf32>
}}
"""


@pytest.mark.parametrize("seed", range(4))
def test_quantized_program_matches_interpreter(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # values across the storage range, past it (clamped), and ties
    x = (rng.integers(-80, 80, (4, 3)) * 0.5).astype(np.float32)
    y = rng.normal(scale=20.0, size=(4, 3)).astype(np.float32)
    want = xlir.compile(PROGRAM, target="interpreter")(x, y)
    got = xlir.compile(PROGRAM, target="cpu")(x, y)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
