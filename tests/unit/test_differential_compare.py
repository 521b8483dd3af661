"""How the differential test compares a target's outputs with the
evaluator's: integers and i1 bit for bit, floats within the element type's
tolerance with NaN and infinities in the same places."""

from __future__ import annotations

import numpy as np

from xlir.testing.differential import (
    TOLERANCES,
    compare_arrays,
    compare_outputs,
    xla_rewrite,
)


def test_integers_compare_bit_for_bit() -> None:
    want = np.array([1, -2, 2**31 - 1], np.int32)
    assert compare_arrays(want, want.copy(), "i32") is None
    got = want.copy()
    got[2] -= 1
    assert "first at [2]" in (compare_arrays(want, got, "i32") or "")
    assert compare_arrays(want, want.astype(np.int64), "i32") is not None


def test_floats_compare_within_the_tolerance_and_nan_in_place() -> None:
    want = np.array([1.0, np.nan, np.inf, -0.0], np.float32)
    close = want * np.float32(1 + TOLERANCES["f32"] / 2)
    assert compare_arrays(want, close, "f32") is None
    assert compare_arrays(want, np.array([1.0, np.nan, np.inf, 0.0], np.float32), "f32") is None  # fmt: skip
    for got in ([1.0, 0.0, np.inf, 0.0], [1.0, np.nan, -np.inf, 0.0], [1.1, np.nan, np.inf, 0.0]):  # fmt: skip
        assert compare_arrays(want, np.array(got, np.float32), "f32") is not None


def test_a_small_error_counts_against_the_largest_element() -> None:
    want = np.array([1000.0, 1e-3], np.float32)
    got = np.array([1000.0, 1e-3 + 1e-4], np.float32)  # cancellation noise
    assert compare_arrays(want, got, "f32") is None
    assert compare_arrays(want, np.array([1000.0, 1.0], np.float32), "f32")


def test_outputs_name_the_first_that_differs() -> None:
    want = [np.zeros(2, np.float16), np.ones(3, np.int8)]
    got = [np.zeros(2, np.float16), np.array([1, 2, 1], np.int8)]
    assert compare_outputs(want, got, ["f16", "i8"]).startswith("out1 (i8)")
    assert compare_outputs(want, want[:1], ["f16", "i8"]).startswith("output count")


def test_each_element_may_match_either_reference() -> None:
    """XLA against the IEEE and the flushing references: an element matching
    one of them is right, one matching neither is reported."""
    ieee = [np.array([2.0, 4.0, 2.0], np.float32)]
    flushing = [np.array([np.inf, 1.0, 2.0], np.float32)]  # 1 / a flushed 0
    got = [np.array([np.inf, 4.0, 2.0], np.float32)]
    assert compare_outputs(ieee, got, ["f32"]) is not None
    assert compare_outputs(ieee, got, ["f32"], alternative=flushing) is None
    wrong = [np.array([np.inf, 4.0, 3.0], np.float32)]
    problem = compare_outputs(ieee, wrong, ["f32"], alternative=flushing)
    assert problem is not None and "1 element(s) differ, first at [2]" in problem


def test_programs_xla_rewrites_are_not_compared_with_it() -> None:
    """XLA rewrites log(pow(a, b)) into b * log(|a|) (seed 41001050)."""
    text = """func.func @main(%arg0: tensor<5xf64>) -> tensor<5xf64> {
  %v1 = stablehlo.power %arg0, %arg0 : tensor<5xf64>
  %v8 = stablehlo.log %v1 : tensor<5xf64>
  return %v8 : tensor<5xf64>
}"""
    assert "log(pow" in (xla_rewrite(text) or "")
    assert xla_rewrite(text.replace("stablehlo.log", "stablehlo.sqrt")) is None
    assert xla_rewrite(text.replace("log %v1", "log %arg0")) is None


def test_gathers_of_dynamic_slices_are_not_compared_with_xla() -> None:
    """XLA gathers a dynamic_slice's operand at indices offset by the start,
    which clamp into the operand instead of the slice (seed 41001498)."""
    text = """func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<i32>, %arg2: tensor<1x2xi32>) -> tensor<1x2xf32> {
  %v2 = stablehlo.dynamic_slice %arg0, %arg1, %arg1, sizes = [2, 4] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  %v4 = "stablehlo.gather"(%v2, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<2x4xf32>, tensor<1x2xi32>) -> tensor<1x2xf32>
  return %v4 : tensor<1x2xf32>
}"""
    assert "gather of a dynamic_slice" in (xla_rewrite(text) or "")
