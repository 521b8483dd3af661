"""Contractions of narrow unsigned integers into a wider result (ui8 x ui8
-> ui32, ui8 -> f32) zero-extend their operands on every target, alone and
with an epilogue fused in: cpu sign-extended them (200 * 250 gave 56 * 6)."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets

NHWC = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"


def dot(element: str, result: str, epilogue: bool) -> str:
    tail = (
        f"%r = stablehlo.add %d, %d : tensor<3x2x{result}>"
        if epilogue
        else f"%r = stablehlo.reshape %d : (tensor<3x2x{result}>) -> tensor<3x2x{result}>"
    )
    return f"""
func.func @main(%a: tensor<3x4x{element}>, %b: tensor<4x2x{element}>) -> tensor<3x2x{result}> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x{element}>, tensor<4x2x{element}>) -> tensor<3x2x{result}>
  {tail}
  return %r : tensor<3x2x{result}>
}}"""


def convolution(element: str, result: str, epilogue: bool) -> str:
    out = f"tensor<1x3x3x1x{result}>"
    tail = (
        f"%r = stablehlo.add %d, %d : {out}"
        if epilogue
        else f"%r = stablehlo.reshape %d : ({out}) -> {out}"
    )
    return f"""
func.func @main(%a: tensor<1x4x4x1x{element}>, %b: tensor<2x2x1x1x{element}>) -> {out} {{
  %d = stablehlo.convolution(%a, %b) dim_numbers = {NHWC}, window = {{}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x4x4x1x{element}>, tensor<2x2x1x1x{element}>) -> {out}
  {tail}
  return %r : {out}
}}"""


@pytest.mark.parametrize("epilogue", [False, True], ids=["alone", "fused"])
@pytest.mark.parametrize("result", ["ui32", "f32"])
@pytest.mark.parametrize("make", [dot, convolution])
def test_unsigned_operands_zero_extend(make, result: str, epilogue: bool):
    text = make("ui8", result, epilogue)
    signature = xlir.compile(text, pipeline="").signature.arguments
    rng = np.random.default_rng(0)
    arrays = [rng.integers(128, 256, s.shape).astype(np.uint8) for s in signature]
    wide = [a.astype(np.int64) for a in arrays]
    if make is dot:
        exact = wide[0] @ wide[1]
    else:
        kernel = wide[1][:, :, 0, 0]
        image = wide[0][0, :, :, 0]
        exact = np.array(
            [
                [np.sum(image[i : i + 2, j : j + 2] * kernel) for j in range(3)]
                for i in range(3)
            ]
        ).reshape(1, 3, 3, 1)
    want = (exact * (2 if epilogue else 1)).astype(
        np.uint32 if result == "ui32" else np.float32
    )
    for target in runnable_targets():
        got = xlir.compile(text, target=target)(*arrays)
        np.testing.assert_array_equal(got, want, err_msg=target)
