"""A while loop state that stays a constant (the body passes it through, and
`simplify` made its initial value constant) runs on every target (fuzz
finding programs/091, an assertion in hlo-to-loop)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.registry import target_names

import xlir
from tests.conftest import skip_without_device

PROGRAM = """
func.func @main(%x: tensor<3xui32>) -> (tensor<3xui32>, tensor<3xui32>) {
  %same = stablehlo.compare NE, %x, %x, UNSIGNED : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xi1>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %w:4 = stablehlo.while(%k = %zero, %a = %x, %flag = %same, %b = %x) : tensor<i32>, tensor<3xui32>, tensor<3xi1>, tensor<3xui32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %k1 = stablehlo.add %k, %one : tensor<i32>
    %nb = stablehlo.not %b : tensor<3xui32>
    %pick = stablehlo.select %flag, %a, %nb : tensor<3xi1>, tensor<3xui32>
    %a1 = stablehlo.add %a, %pick : tensor<3xui32>
    stablehlo.return %k1, %a1, %flag, %nb : tensor<i32>, tensor<3xui32>, tensor<3xi1>, tensor<3xui32>
  }
  %r = stablehlo.convert %w#2 : (tensor<3xi1>) -> tensor<3xui32>
  return %w#1, %r : tensor<3xui32>, tensor<3xui32>
}"""


@pytest.mark.parametrize("target", target_names())
def test_constant_loop_state(target: str):
    skip_without_device(target)
    x = np.array([1, 7, 0xFFFFFFF0], np.uint32)
    want = xlir.compile(PROGRAM, pipeline="")(x)
    got = xlir.compile(PROGRAM, target=target)(x)
    for have, expected in zip(got, want, strict=True):
        np.testing.assert_array_equal(have, expected)
