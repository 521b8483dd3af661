"""Clamps against constants as `vfmin`/`vfmax` (`targets/accel/clamps.py`)
and hardware loops counting addresses (`strength_reduction.py`): the same
kernels on the loop evaluator and on the simulator, bit for bit, with the
special values where a min or max could differ from a compare and select."""

from __future__ import annotations

import numpy as np

import xlir
from tests.unit.test_accel_loop_lowering import _program, _same

N = 37
"""Two lane steps and a scalar remainder of 5."""

KERNEL = f"""loop.kernel @k(%x: memref<{N}xf32>, %y: memref<{N}xf32>) {{
  %high = arith.constant 9.1 : f32
  %low = arith.constant -88.0 : f32
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %v = loop.load %x[%i] : memref<{N}xf32>
    %above = arith.cmpf ogt, %v, %high : f32
    %a = arith.select %above, %high, %v : f32
    %below = arith.cmpf olt, %a, %low : f32
    %b = arith.select %below, %low, %a : f32
    loop.store %b, %y[%i] : memref<{N}xf32>
  }}
  loop.return
}}"""


def test_clamps_match_the_loop_on_special_values() -> None:
    text = _program(KERNEL, [f"memref<{N}xf32>"], [f"memref<{N}xf32>"])
    assembly = xlir.compile(text, target="accel").as_text()
    assert "vfmin" in assembly and "vfmax" in assembly
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 9.1, -88.0, 9.2, -88.5, 1e-45]
    x = np.random.default_rng(6).uniform(-100, 100, N).astype(np.float32)
    x[: len(special)] = special
    x[-len(special) :] = special  # in the scalar remainder too
    _same(text, x)
