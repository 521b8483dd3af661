"""A maximum (minimum) reduction whose result is zero is IEEE's: +0.0 (-0.0)
if any term is, whatever order the terms come in, as the elementwise ops
are; the reference evaluator and the cpu target agree on it, for reduce
and reduce_window, f32, f16 and bf16."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xlir

REDUCE = """
func.func public @main(%a: tensor<4x4x{t}>) -> tensor<4x{t}> {{
  %c = stablehlo.constant dense<{init}> : tensor<{t}>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.{op} across dimensions = [1]
      : (tensor<4x4x{t}>, tensor<{t}>) -> tensor<4x{t}>
  return %0 : tensor<4x{t}>
}}"""

WINDOW = """
func.func public @main(%a: tensor<4x4x{t}>) -> tensor<4x2x{t}> {{
  %c = stablehlo.constant dense<{init}> : tensor<{t}>
  %0 = "stablehlo.reduce_window"(%a, %c) ({{
  ^bb0(%x: tensor<{t}>, %y: tensor<{t}>):
    %m = stablehlo.{op} %x, %y : tensor<{t}>
    stablehlo.return %m : tensor<{t}>
  }}) {{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}}
      : (tensor<4x4x{t}>, tensor<{t}>) -> tensor<4x2x{t}>
  return %0 : tensor<4x2x{t}>
}}"""

TYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
INFINITIES = {  # (+inf, -inf) bits: a minimum's and a maximum's identity
    "f32": ("0x7F800000", "0xFF800000"),
    "f16": ("0x7C00", "0xFC00"),
    "bf16": ("0x7F80", "0xFF80"),
}
ROWS = np.array(
    [
        [-0.0, 0.0, -0.0, -1.0],
        [0.0, -0.0, -2.0, -0.0],
        [-0.0, -0.0, -3.0, -0.0],
        [0.0, 0.0, 2.0, 0.0],
    ]
)


@pytest.mark.parametrize("program", [REDUCE, WINDOW], ids=["reduce", "reduce_window"])
@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("type_", sorted(TYPES))
def test_zero_results_take_ieee_signs(program: str, op: str, type_: str) -> None:
    init = INFINITIES[type_][op == "maximum"]
    text = program.format(t=type_, op=op, init=init)
    rows = ROWS.astype(TYPES[type_])
    reduce = np.maximum if op == "maximum" else np.minimum
    kept = ROWS if program is REDUCE else ROWS.reshape(4, 2, 2)
    want_zero_sign = (
        np.all(np.signbit(kept) | (kept != 0), axis=-1)
        if op == "maximum"
        else np.any(np.signbit(kept) & (kept == 0), axis=-1)
    )
    for target in ("interpreter", "cpu"):
        got = np.asarray(xlir.compile(text, target=target)(rows)).astype(np.float32)
        np.testing.assert_array_equal(got, reduce.reduce(kept, axis=-1))
        zero = got == 0
        assert (np.signbit(got)[zero] == want_zero_sign[zero]).all(), target
