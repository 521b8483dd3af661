"""Start indices of unsigned types are zero-extended, then clamped: a ui32
4294967295 is past the end (it clamps to the last start), not -1 (which
would clamp to the first). Found by the program fuzzer (a gather); and so
is a ui64 one past the largest i64, in the evaluator too (the fuzzer with
XLA as a second reference)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.registry import target_names

import xlir
from tests.conftest import may_refuse, skip_without_device
from xlir.diagnostics import XlirError

GATHER = """
func.func @main(%i: tensor<4x1xui32>, %x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4xf64>, tensor<4x1xui32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}"""

DYNAMIC_SLICE = """
func.func @main(%i: tensor<ui32>, %x: tensor<6xf32>) -> tensor<2xf32> {
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<6xf32>, tensor<ui32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"""

DYNAMIC_UPDATE_SLICE = """
func.func @main(%i: tensor<ui8>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %u = stablehlo.constant dense<[7.0, 8.0]> : tensor<2xf32>
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<6xf32>, tensor<2xf32>, tensor<ui8>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}"""

GATHER_UI64 = """
func.func @main(%i: tensor<3x1xui64>, %x: tensor<5xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<3x1xui64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}"""

DYNAMIC_SLICE_UI64 = DYNAMIC_SLICE.replace("ui32", "ui64")

CASES = {
    "gather": (
        GATHER,
        [
            np.array([[0xFFFFFFFF], [12], [1], [0]], np.uint32),
            np.array([4.5, 3.5, -1, 3]),
        ],
        np.array([3.0, 3.0, 3.5, 4.5]),
    ),
    "dynamic_slice": (
        DYNAMIC_SLICE,
        [np.array(0xFFFFFFFF, np.uint32), np.arange(6, dtype=np.float32)],
        np.array([4.0, 5.0], np.float32),
    ),
    "gather_ui64": (
        GATHER_UI64,
        [
            np.array([[2**64 - 1], [2**63], [1]], np.uint64),
            np.arange(5, dtype=np.float32),
        ],
        np.array([4.0, 4.0, 1.0], np.float32),
    ),
    "dynamic_slice_ui64": (
        DYNAMIC_SLICE_UI64,
        [np.array(2**63, np.uint64), np.arange(6, dtype=np.float32)],
        np.array([4.0, 5.0], np.float32),
    ),
    "dynamic_update_slice": (
        DYNAMIC_UPDATE_SLICE,
        [np.array(255, np.uint8), np.zeros(6, np.float32)],
        np.array([0, 0, 0, 0, 7, 8], np.float32),
    ),
}


@pytest.mark.parametrize("target", target_names())
@pytest.mark.parametrize("name", sorted(CASES))
def test_unsigned_start_indices_clamp_to_the_end(name: str, target: str) -> None:
    skip_without_device(target)
    text, arguments, want = CASES[name]
    try:
        got = xlir.compile(text, target=target)(*arguments)
    except XlirError as error:
        if not may_refuse(target):
            raise
        pytest.xfail(str(error))  # refused with one diagnostic, not computed wrong
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_evaluator_clamps_unsigned_start_indices_to_the_end(name: str) -> None:
    text, arguments, want = CASES[name]
    np.testing.assert_array_equal(xlir.compile(text, pipeline="")(*arguments), want)
