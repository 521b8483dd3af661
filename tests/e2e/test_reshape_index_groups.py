"""Reshapes fused into an elementwise kernel read the right elements when
their index is split run by run (`lowering/index_maps.py`'s `reshape`):
merges, splits, a merge beside a split, runs with no shared boundary, unit
dims on either side, and a reshape of no elements, on the cpu target
against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

PROGRAM = """
func.func @main(%x: tensor<{src}xf32>) -> tensor<{out}xf32> {{
  %r = stablehlo.reshape %x : (tensor<{src}xf32>) -> tensor<{out}xf32>
  %two = stablehlo.constant dense<2.0> : tensor<{out}xf32>
  %y = stablehlo.multiply %r, %two : tensor<{out}xf32>
  return %y : tensor<{out}xf32>
}}"""


def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape))


@pytest.mark.parametrize(
    ("src", "out"),
    [
        ((2, 5, 6, 3), (2, 5, 18)),
        ((2, 5, 18), (2, 5, 6, 3)),
        ((4, 6, 5), (2, 12, 5)),
        ((6, 4), (4, 6)),
        ((3, 1, 4, 2), (1, 12, 2, 1)),
        ((2, 3, 4, 5), (6, 20)),
        ((0, 4), (2, 0, 2)),
    ],
)
def test_reshape_in_a_fusion(src: tuple[int, ...], out: tuple[int, ...]):
    text = PROGRAM.format(src=_dims(src), out=_dims(out))
    x = np.arange(np.prod(src), dtype=np.float32).reshape(src)
    got = np.asarray(xlir.compile(text, target="cpu")(x))
    np.testing.assert_array_equal(got, (x * 2).reshape(out))
