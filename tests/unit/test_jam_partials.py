"""`jam-partials` computes a blocked sum's chunks side by side without
changing the order of any add: on random floats, whose sums round
differently in any other order, the loop interpreter gives the same bits
before and after it."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

_SUMS = """
func.func @main(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> (tensor<f32>, tensor<f32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<8x64xf32>
  %all = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<8x64xf32>, tensor<f32>) -> tensor<f32>
  %d = stablehlo.subtract %x, %y : tensor<8x64xf32>
  %ad = stablehlo.abs %d : tensor<8x64xf32>
  %l1 = stablehlo.reduce(%ad init: %z) applies stablehlo.add across dimensions = [0, 1]
      : (tensor<8x64xf32>, tensor<f32>) -> tensor<f32>
  %rows = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  return %all, %l1, %rows : tensor<f32>, tensor<f32>, tensor<8xf32>
}
"""

BLOCKED = "hlo-opt,hlo-to-loop,block-sums{block=16}"


def _lowered(pipeline: str):
    module = parse_module(make_context(), _SUMS, "<program>")
    run_pipeline(make_context(), module, pipeline)
    return module


def _widest_carry(module) -> int:
    return max(len(op.results) for op in module.walk() if op.name == "loop.for")


def _outputs(module, arguments: list[np.ndarray]) -> list[np.ndarray]:
    return list(xlir.compile(module, target="interpreter")(*arguments))


@pytest.mark.parametrize("count", [2, 4])
def test_same_bits_on_random_floats(count: int) -> None:
    before = _lowered(BLOCKED)
    jammed = _lowered(f"{BLOCKED},jam-partials{{count={count} max-ops=64}}")
    assert _widest_carry(jammed) == count * _widest_carry(before), "nothing jammed"
    rng = np.random.default_rng(7)
    arguments = [rng.standard_normal((8, 64)).astype(np.float32) for _ in range(2)]
    want = _outputs(before, arguments)
    got = _outputs(jammed, arguments)
    for expected, actual in zip(want, got, strict=True):
        np.testing.assert_array_equal(actual.view(np.uint32), expected.view(np.uint32))
