"""`block-sums` changes only the order of float additions: on data whose
sums are exact in any order (small integers), every program gives the same
outputs on the loop interpreter before and after it, bit for bit, with a
block that leaves remainders at every level."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

_SUM = """
func.func @main(%x: tensor<6x10x9xf32>) -> (tensor<f32>, tensor<10xf32>, tensor<6x10xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %all = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1, 2]
      : (tensor<6x10x9xf32>, tensor<f32>) -> tensor<f32>
  %cols = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 2]
      : (tensor<6x10x9xf32>, tensor<f32>) -> tensor<10xf32>
  %rows = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2]
      : (tensor<6x10x9xf32>, tensor<f32>) -> tensor<6x10xf32>
  return %all, %cols, %rows : tensor<f32>, tensor<10xf32>, tensor<6x10xf32>
}
"""

_DOTS = """
func.func @main(%a: tensor<6x10x9xf32>, %b: tensor<9x13xf32>) -> (tensor<f32>, tensor<6x10x13xf32>) {
  %all = stablehlo.dot_general %a, %a, contracting_dims = [0, 1, 2] x [0, 1, 2]
      : (tensor<6x10x9xf32>, tensor<6x10x9xf32>) -> tensor<f32>
  %mm = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0]
      : (tensor<6x10x9xf32>, tensor<9x13xf32>) -> tensor<6x10x13xf32>
  return %all, %mm : tensor<f32>, tensor<6x10x13xf32>
}
"""

_SOFTMAX_SUMS = """
func.func @main(%x: tensor<6x10x9xf32>) -> tensor<6x90xf32> {
  %r = stablehlo.reshape %x : (tensor<6x10x9xf32>) -> tensor<6x90xf32>
  %e = stablehlo.multiply %r, %r : tensor<6x90xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<6x90xf32>, tensor<f32>) -> tensor<6xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<6xf32>) -> tensor<6x90xf32>
  %d = stablehlo.subtract %b, %e : tensor<6x90xf32>
  return %d : tensor<6x90xf32>
}
"""

PROGRAMS = {"sums": _SUM, "dots": _DOTS, "sums_in_fusions": _SOFTMAX_SUMS}
CPU_LOOP_PASSES = "fuse-kernels,register-tile,vectorize,pack-panels"


def _lowered(text: str, pipeline: str):
    module = parse_module(make_context(), text, "<program>")
    run_pipeline(make_context(), module, pipeline)
    return module


def _outputs(executable, arguments: list[np.ndarray]) -> list[np.ndarray]:
    outputs = executable(*arguments)
    return list(outputs) if isinstance(outputs, tuple) else [outputs]


def _loops(module) -> int:
    return sum(op.name == "loop.for" for op in module.walk())


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("after", ["hlo-to-loop", f"hlo-to-loop,{CPU_LOOP_PASSES}"])
def test_same_sums_on_exact_data(name: str, after: str) -> None:
    text = PROGRAMS[name]
    before = _lowered(text, f"hlo-opt,{after}")
    blocked = _lowered(text, f"hlo-opt,{after},block-sums{{block=7}}")
    assert _loops(blocked) > _loops(before), "nothing was blocked"
    reference = xlir.compile(before, target="interpreter")
    rng = np.random.default_rng(3)
    arguments = [
        rng.integers(-8, 9, spec.shape).astype(spec.dtype)
        for spec in reference.signature.arguments
    ]
    want = _outputs(reference, arguments)
    got = _outputs(xlir.compile(blocked, target="interpreter"), arguments)
    for expected, actual in zip(want, got, strict=True):
        np.testing.assert_array_equal(actual, expected)
