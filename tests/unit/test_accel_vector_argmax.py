"""Argmax and argmin on the vector lanes (`targets/accel/vector_argmax.py`):
the same kernel on the loop evaluator and on the simulator, bit for bit
(values and indices), with NaNs, ties and signed zeros where the lanes'
order differs from the loop's."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.unit.test_accel_loop_lowering import _program, _same

ROWS, COLUMNS = 8, 37
"""Two lane steps and a remainder of 5."""


def _kernel(type_: str, predicate: str, init: str, nan_check: bool = True) -> str:
    compare = "arith.cmpf" if type_ == "f32" else "arith.cmpi"
    equal = "oeq" if type_ == "f32" else "eq"
    pick = (
        f"""%c = {compare} {predicate}, %acc, %v : {type_}
      %nan = {compare} {"une" if type_ == "f32" else "ne"}, %acc, %acc : {type_}
      %pick = arith.ori %c, %nan : i1"""
        if nan_check
        else f"%pick = {compare} {predicate}, %acc, %v : {type_}"
    )
    return f"""loop.kernel @k(%x: memref<{ROWS}x{COLUMNS}x{type_}>, %y: memref<{ROWS}x{type_}>, %z: memref<{ROWS}xi32>) {{
  %init = arith.constant {init} : {type_}
  %first = arith.constant 0 : i32
  loop.parallel (%i) = (0) to ({ROWS}) step (1) {{
    %s, %t = loop.for %j = 0 to {COLUMNS} step 1 iter_args(%acc = %init, %at = %first) -> ({type_}, i32) {{
      %v = loop.load %x[%i, %j] : memref<{ROWS}x{COLUMNS}x{type_}>
      %n = arith.index_cast %j : index to i32
      {pick}
      %eq = {compare} {equal}, %acc, %v : {type_}
      %lt = arith.cmpi slt, %at, %n : i32
      %tie = arith.andi %eq, %lt : i1
      %keep = arith.ori %pick, %tie : i1
      %value = arith.select %pick, %acc, %v : {type_}
      %index = arith.select %keep, %at, %n : i32
      loop.yield %value, %index : {type_}, i32
    }}
    loop.store %s, %y[%i] : memref<{ROWS}x{type_}>
    loop.store %t, %z[%i] : memref<{ROWS}xi32>
  }}
  loop.return
}}"""


def _text(kernel: str, type_: str) -> str:
    return _program(
        kernel,
        [f"memref<{ROWS}x{COLUMNS}x{type_}>"],
        [f"memref<{ROWS}x{type_}>", f"memref<{ROWS}xi32>"],
    )


def _floats() -> np.ndarray:
    x = np.random.default_rng(4).standard_normal((ROWS, COLUMNS)).astype(np.float32)
    x[1, 20] = x[1, 5] = np.nan  # NaNs in lanes 4 and 5: the first wins
    x[2, 35] = x[2, 33] = np.nan  # only in the remainder
    x[3, 2] = x[3, 18] = x[3, 34] = 9.0  # ties across lanes and the remainder
    x[4, :] = -np.inf  # every element equals the initial value
    x[5, :] = 0.0
    x[5, 7] = x[5, 30] = -0.0  # signed zeros tie
    x[6, 19] = np.nan  # a NaN in a later lane than ...
    x[6, 21] = np.nan  # ... one at a later index in an earlier lane
    x[7, :] = 0.0
    x[7, 3] = -0.0  # -0 first: its sign is what the loop keeps
    return x


@pytest.mark.parametrize(
    ("predicate", "init"), [("ogt", "0xFF800000"), ("olt", "0x7F800000")]
)
def test_float_argmax_and_argmin_are_exact(predicate: str, init: str) -> None:
    text = _text(_kernel("f32", predicate, init), "f32")
    assert "vredmin" in xlir.compile(text, target="accel").as_text()
    _same(text, _floats())
    _same(text, -_floats())


@pytest.mark.parametrize(("predicate", "init"), [("sgt", "-2147483648"), ("slt", "5")])
@pytest.mark.parametrize("nan_check", [True, False])
def test_integer_argmax_and_argmin_are_exact(
    predicate: str, init: str, nan_check: bool
) -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(-4, 4, (ROWS, COLUMNS)).astype(np.int32)  # many ties
    x[0, :] = -(2**31)
    x[1, :] = 2**31 - 1
    text = _text(_kernel("i32", predicate, init, nan_check), "i32")
    assert "vredmin" in xlir.compile(text, target="accel").as_text()
    _same(text, x)


def test_a_float_select_reduction_without_the_nan_check_stays_in_order() -> None:
    """Without `acc != acc` a NaN is not sticky: the lanes' rule would not
    be the loop's, so the loop stays scalar (and still matches)."""
    text = _text(_kernel("f32", "ogt", "0xFF800000", nan_check=False), "f32")
    assert "vredmin" not in xlir.compile(text, target="accel").as_text()
    _same(text, _floats())


ARGMAX = f"""func.func @main(%x: tensor<{ROWS}x{COLUMNS}xf32>) -> (tensor<{ROWS}xf32>, tensor<{ROWS}xi32>) {{
  %iota = stablehlo.iota dim = 1 : tensor<{ROWS}x{COLUMNS}xi32>
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %low), (%iota init: %zero) across dimensions = [1] : (tensor<{ROWS}x{COLUMNS}xf32>, tensor<{ROWS}x{COLUMNS}xi32>, tensor<f32>, tensor<i32>) -> (tensor<{ROWS}xf32>, tensor<{ROWS}xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {{
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %keep = stablehlo.or %pick, %tie : tensor<i1>
    %value = stablehlo.select %pick, %a, %b : tensor<i1>, tensor<f32>
    %index = stablehlo.select %keep, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %value, %index : tensor<f32>, tensor<i32>
  }}
  return %r#0, %r#1 : tensor<{ROWS}xf32>, tensor<{ROWS}xi32>
}}"""
"""JAX's `jnp.argmax` (with the maximum kept) as StableHLO."""


def test_jax_argmax_program_matches_the_interpreter() -> None:
    """JAX's argmax as StableHLO (a variadic reduce), through hlo-to-loop."""
    text = ARGMAX
    x = _floats()
    assert "vredmin" in xlir.compile(text, target="accel").as_text()
    _same(text, x)
