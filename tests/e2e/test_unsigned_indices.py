"""Start indices of unsigned types are zero-extended, then clamped: a ui32
4294967295 is past the end (it clamps to the last start), not -1 (which
would clamp to the first). Found by the program fuzzer (a gather)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.registry import target_names

import xlir
from tests.conftest import skip_without_device

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
    got = xlir.compile(text, target=target)(*arguments)
    np.testing.assert_array_equal(got, want)
