"""`reduce_window` inside fusions of every kind (JAX's cumsum and cumprod,
max and average pooling: a producer fused into it, an elementwise consumer,
a reduce of it, several outputs), lowered through `fuse` and run on every
target against the evaluator."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets


def reducer(op: str, element: str = "f32") -> str:
    scalar = f"tensor<{element}>"
    return (
        "({\n"
        f"  ^bb0(%a: {scalar}, %b: {scalar}):\n"
        f"    %s = stablehlo.{op} %a, %b : {scalar}\n"
        f"    stablehlo.return %s : {scalar}\n"
        "  })"
    )


CUMSUM = (
    '"stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 6>, '
    "padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}> "
    + reducer("add")
    + " : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>"
)

PROGRAMS = {
    "cumsum_then_negate": f"""
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = {CUMSUM}
  %r = stablehlo.negate %c : tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}}""",
    "exp_into_cumprod": f"""
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {{
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<4x6xf32>
  %r = "stablehlo.reduce_window"(%e, %one) <{{window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}}> {reducer("multiply")} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}}""",
    "max_pool_relu": f"""
func.func @main(%x: tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32> {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<1x6x6x2xf32>
  %relu = stablehlo.maximum %x, %zero : tensor<1x6x6x2xf32>
  %r = "stablehlo.reduce_window"(%relu, %ninf) <{{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}}> {reducer("maximum")} : (tensor<1x6x6x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  return %r : tensor<1x3x3x2xf32>
}}""",
    "average_pool": f"""
func.func @main(%x: tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32> {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.reduce_window"(%x, %zero) <{{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}}> {reducer("add")} : (tensor<1x6x6x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  %four = stablehlo.constant dense<4.0> : tensor<1x3x3x2xf32>
  %r = stablehlo.divide %s, %four : tensor<1x3x3x2xf32>
  return %r : tensor<1x3x3x2xf32>
}}""",
    "dilated_then_reduced": f"""
func.func @main(%x: tensor<5x4xf32>) -> (tensor<9xf32>, tensor<9x3xf32>) {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %w = "stablehlo.reduce_window"(%x, %zero) <{{window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>}}> {reducer("add")} : (tensor<5x4xf32>, tensor<f32>) -> tensor<9x3xf32>
  %t = stablehlo.tanh %w : tensor<9x3xf32>
  %r = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x3xf32>, tensor<f32>) -> tensor<9xf32>
  return %r, %t : tensor<9xf32>, tensor<9x3xf32>
}}""",
    "variadic_argmax_window": """
func.func @main(%x: tensor<8xf32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %big = stablehlo.constant dense<2147483647> : tensor<i32>
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %big) <{window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }) : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
  %n = stablehlo.negate %r#0 : tensor<6xf32>
  return %n, %r#1 : tensor<6xf32>, tensor<6xi32>
}""",
    "integer_cumsum_add": f"""
func.func @main(%x: tensor<3x5xi32>) -> tensor<3x5xi32> {{
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %c = "stablehlo.reduce_window"(%x, %zero) <{{window_dimensions = array<i64: 3, 1>, padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>}}> {reducer("add", "i32")} : (tensor<3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
  %r = stablehlo.add %c, %x : tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}}""",
    # running reductions (lowering/prefix_scan.py): one of another's result,
    # one read back at other positions, and an init value the reducer
    # does not keep (which keeps the window loop)
    "cumsum_of_cumsum": f"""
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = {CUMSUM}
  %r = "stablehlo.reduce_window"(%c, %zero) <{{window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}}> {reducer("add")} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}}""",
    "cumsum_reversed_beside_it": f"""
func.func @main(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {{
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = {CUMSUM}
  %r = stablehlo.reverse %c, dims = [1] : tensor<4x6xf32>
  return %c, %r : tensor<4x6xf32>, tensor<4x6xf32>
}}""",
    "cumsum_from_one": f"""
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {{
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %one) <{{window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>}}> {reducer("add")} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}}""",
}


def arrays_for(text: str) -> list[np.ndarray]:
    executable = xlir.compile(text, pipeline="")
    rng = np.random.default_rng(1)
    return [
        rng.normal(size=s.shape).astype(s.dtype)
        if s.dtype.kind == "f"
        else rng.integers(-50, 50, size=s.shape).astype(s.dtype)
        for s in executable.signature.arguments
    ]


@pytest.mark.parametrize("name", PROGRAMS)
def test_reduce_window_in_fusions(name: str):
    text = PROGRAMS[name]
    arrays = arrays_for(text)
    want = xlir.compile(text, pipeline="")(*arrays)
    want = want if isinstance(want, tuple) else (want,)
    fused = xlir.compile(text, pipeline="hlo-opt")
    assert "reduce_window" in fused.as_text()
    for target in runnable_targets():
        got = xlir.compile(text, target=target)(*arrays)
        got = got if isinstance(got, tuple) else (got,)
        for have, expected in zip(got, want, strict=True):
            np.testing.assert_allclose(have, expected, rtol=1e-6, err_msg=target)
    lowered = xlir.compile(text, pipeline="hlo-opt,hlo-to-loop")(*arrays)
    lowered = lowered if isinstance(lowered, tuple) else (lowered,)
    for have, expected in zip(lowered, want, strict=True):
        np.testing.assert_allclose(have, expected, rtol=1e-6, err_msg="loop level")


RUNNING = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum}


@pytest.mark.parametrize("op", RUNNING)
def test_running_reduction_folds_in_order(op: str):
    """A cumulative reduction of 300 elements on cpu (a running loop) gives
    the bits of folding the row left to right, as the window loop it
    replaces did: no reassociation."""
    init = {"add": "0.0", "multiply": "1.0", "maximum": "0xFF800000"}[op]
    text = f"""
func.func @main(%x: tensor<3x300xf32>) -> tensor<3x300xf32> {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) <{{window_dimensions = array<i64: 1, 300>, padding = dense<[[0, 0], [299, 0]]> : tensor<2x2xi64>}}> {reducer(op)} : (tensor<3x300xf32>, tensor<f32>) -> tensor<3x300xf32>
  return %r : tensor<3x300xf32>
}}"""
    x = np.random.default_rng(2).uniform(0.9, 1.1, (3, 300)).astype(np.float32)
    got = xlir.compile(text, target="cpu")(x)
    np.testing.assert_array_equal(got, RUNNING[op].accumulate(x, axis=1))
