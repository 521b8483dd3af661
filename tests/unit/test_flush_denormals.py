"""The evaluator computing as XLA:CPU does, with denormals flushed to zero
(`xlir.evaluator.hlo.flush`): the second reference XLA is compared with."""

from __future__ import annotations

import numpy as np
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.evaluator.hlo.flush import flush

from xlir.api import load_module

TINY32, TINY64 = np.finfo(np.float32).tiny, np.finfo(np.float64).tiny


def test_flush_zeroes_only_f32_and_f64_denormals() -> None:
    got = flush(np.array([-TINY32 / 4, TINY32 / 4, TINY32, np.nan, -1], np.float32))
    np.testing.assert_array_equal(got, [-0.0, 0.0, TINY32, np.nan, -1])
    assert np.signbit(got[0]) and not np.signbit(got[1])
    assert flush(np.array([TINY64 / 8], np.float64))[0] == 0
    half = np.array([np.finfo(np.float16).tiny / 4], np.float16)
    assert flush(half) is half
    integers = np.array([1, 0], np.int32)
    assert flush(integers) is integers
    normal = np.array([TINY32, -0.0, np.inf], np.float32)
    assert flush(normal) is normal


PROGRAM = """func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xi32>)
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %q = stablehlo.divide %a, %b : tensor<2xf32>
  %r = stablehlo.divide %a, %q : tensor<2xf32>
  %d = stablehlo.bitcast_convert %c : (tensor<2xi32>) -> tensor<2xf32>
  %m = stablehlo.reverse %d, dims = [0] : tensor<2xf32>
  %s = stablehlo.add %m, %m : tensor<2xf32>
  return %r, %m, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}"""


def run(flush_denormals: bool) -> list[np.ndarray]:
    module, sources = load_module(PROGRAM, "flush.mlir")
    image = ModuleInterpreter(module, sources, flush_denormals=flush_denormals)
    a = np.array([1e-20, -1e-20], np.float32)
    b = np.array([1e20, 1e20], np.float32)  # a / b: denormals
    c = np.array([1, -(2**31) + 3], np.int32)  # the bits of two denormals
    return [np.asarray(x) for x in image.call("main", [a, b, c])]


def test_arithmetic_flushes_its_results_and_operands() -> None:
    r, moved, doubled = run(flush_denormals=True)
    np.testing.assert_array_equal(r, [np.inf, np.inf])  # divided by flushed zeros
    assert moved.view(np.int32).tolist() == [-(2**31) + 3, 1]  # bits moved as is
    np.testing.assert_array_equal(doubled, [0.0, 0.0])  # read as zeros
    assert np.signbit(doubled).tolist() == [True, False]


def test_without_it_the_evaluator_keeps_denormals() -> None:
    r, moved, doubled = run(flush_denormals=False)
    np.testing.assert_allclose(r, [1e20, 1e20], rtol=1e-3)
    assert moved.view(np.int32).tolist() == [-(2**31) + 3, 1]
    assert (doubled != 0).all()
