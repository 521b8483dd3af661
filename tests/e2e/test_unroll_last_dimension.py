"""Nests whose short last dimension `unroll-last-dimension` writes out run
bit for bit as the evaluator does on the cpu target: NHWC images of 1 to 4
channels flipped, cropped and scaled (u8 in, f32 and u8 out), with odd
widths; each case is checked to be unrolled (counting the pass's
rewrites), and one whose channels outnumber `max-trips` to be left alone."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.passes.loop import unroll_last_dimension

import xlir

PROGRAM = """
func.func @main(%x: tensor<2x{h}x{w}x{c}xui8>) -> (tensor<2x{h}x{w2}x{c}xf32>, tensor<2x{h}x{w2}x{c}xui8>) {{
  %s = stablehlo.slice %x [0:2, 0:{h}, 1:{w}, 0:{c}] : (tensor<2x{h}x{w}x{c}xui8>) -> tensor<2x{h}x{w2}x{c}xui8>
  %r = stablehlo.reverse %s, dims = [2] : tensor<2x{h}x{w2}x{c}xui8>
  %f = stablehlo.convert %r : (tensor<2x{h}x{w2}x{c}xui8>) -> tensor<2x{h}x{w2}x{c}xf32>
  %k = stablehlo.constant dense<1.7> : tensor<2x{h}x{w2}x{c}xf32>
  %m = stablehlo.multiply %f, %k : tensor<2x{h}x{w2}x{c}xf32>
  %u = stablehlo.convert %m : (tensor<2x{h}x{w2}x{c}xf32>) -> tensor<2x{h}x{w2}x{c}xui8>
  return %m, %u : tensor<2x{h}x{w2}x{c}xf32>, tensor<2x{h}x{w2}x{c}xui8>
}}"""


@pytest.mark.parametrize(
    ("channels", "width", "unrolled"),
    [(1, 40, False), (2, 33, True), (3, 57, True), (4, 18, True), (5, 40, False)],
)
def test_cpu_matches_the_evaluator(
    channels: int, width: int, unrolled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = []
    original = unroll_last_dimension.unroll_last_dimension

    def counted(*arguments):
        done = original(*arguments)
        made.append(done)
        return done

    monkeypatch.setattr(unroll_last_dimension, "unroll_last_dimension", counted)
    monkeypatch.setenv("XLIR_CACHE", "0")
    text = PROGRAM.format(h=5, w=width, w2=width - 1, c=channels)
    image = np.random.default_rng(channels).integers(0, 256, (2, 5, width, channels))
    image = image.astype(np.uint8)
    cpu = xlir.compile(text, target="cpu")
    want = xlir.compile(text, target="interpreter")(image)
    for got, expected in zip(cpu(image), want, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    assert any(made) == unrolled
