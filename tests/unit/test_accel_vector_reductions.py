"""Row reductions on the vector lanes (`targets/accel/vector_reductions.py`):
the same kernel on the loop evaluator and on the simulator. Integer sums,
maxima and minima and float maxima and minima are exact; float sums add in
another order, within the documented tolerance."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.unit.test_accel_loop_lowering import _program, _same

COLUMNS = 37
"""Two lane steps and a remainder of 5."""


def _kernel(combine: str, type_: str, init: str) -> str:
    return f"""loop.kernel @k(%x: memref<3x{COLUMNS}x{type_}>, %y: memref<3x{type_}>) {{
  %init = arith.constant {init} : {type_}
  loop.parallel (%i) = (0) to (3) step (1) {{
    %s = loop.for %j = 0 to {COLUMNS} step 1 iter_args(%acc = %init) -> ({type_}) {{
      %v = loop.load %x[%i, %j] : memref<3x{COLUMNS}x{type_}>
      %n = {combine} %acc, %v : {type_}
      loop.yield %n : {type_}
    }}
    loop.store %s, %y[%i] : memref<3x{type_}>
  }}
  loop.return
}}"""


def _text(combine: str, type_: str, init: str) -> str:
    return _program(
        _kernel(combine, type_, init),
        [f"memref<3x{COLUMNS}x{type_}>"],
        [f"memref<3x{type_}>"],
    )


@pytest.mark.parametrize(
    ("combine", "init"),
    [("arith.addi", "5"), ("arith.maxsi", "-7"), ("arith.minsi", "7")],
)
def test_integer_reductions_are_exact(combine: str, init: str) -> None:
    x = np.random.default_rng(1).integers(-(2**31), 2**31, (3, COLUMNS), np.int32)
    text = _text(combine, "i32", init)
    assert "vred" in xlir.compile(text, target="accel").as_text()
    _same(text, x)


@pytest.mark.parametrize(
    ("combine", "init"), [("arith.maximumf", "-1.0"), ("arith.minimumf", "1.0")]
)
def test_float_maxima_and_minima_are_exact(combine: str, init: str) -> None:
    x = np.random.default_rng(2).standard_normal((3, COLUMNS)).astype(np.float32)
    x[1, 33] = np.nan  # in the remainder: propagates
    x[2, 3] = np.nan  # on the lanes: propagates through vredmax/vredmin
    text = _text(combine, "f32", init)
    assert "vred" in xlir.compile(text, target="accel").as_text()
    _same(text, x)


def test_float_sums_are_within_the_reduction_tolerance() -> None:
    x = np.random.default_rng(3).standard_normal((3, COLUMNS)).astype(np.float32)
    text = _text("arith.addf", "f32", "0.5")
    assembly = xlir.compile(text, target="accel").as_text()
    assert "vredsum.f" in assembly
    got = xlir.compile(text, target="accel")(x)
    expected = xlir.compile(text, target="interpreter")(x)
    bound = COLUMNS * np.finfo(np.float32).eps * (np.abs(x).sum(axis=1) + 0.5)
    assert np.all(np.abs(got - expected) <= bound)
