"""Half-precision programs that once crashed the process on every target
that compiles code for this host, each run in a subprocess (a crash there
fails the test, not the run), against the evaluator, bit for bit:

* a clamped, negated f16 sum (the program fuzzer's program_case(24940649,
  8)): code compiled without AVX512VL (`mask_move_fold.without_mask_move_folds`,
  always so for nvptx-emu's kernels) kept AVX512FP16, and LLVM aborted
  ("Cannot select: v8f16 X86ISD::CMOV");
* f64 -> f16 converts: without AVX512FP16, LLVM calls `__truncdfhf2`,
  which nvptx-emu's kernels left unresolved (a call to address 0)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets

CLAMPED_SUM = """
func.func @main(%x: tensor<4x5xf16>) -> tensor<15xf16> {
  %w = stablehlo.concatenate %x, %x, %x, dim = 1 : (tensor<4x5xf16>, tensor<4x5xf16>, tensor<4x5xf16>) -> tensor<4x15xf16>
  %hi = stablehlo.constant dense<2.560000e+02> : tensor<f16>
  %lo = stablehlo.constant dense<-2.560000e+02> : tensor<f16>
  %c = stablehlo.clamp %lo, %w, %hi : (tensor<f16>, tensor<4x15xf16>, tensor<f16>) -> tensor<4x15xf16>
  %f = stablehlo.is_finite %w : (tensor<4x15xf16>) -> tensor<4x15xi1>
  %s = stablehlo.select %f, %c, %w : tensor<4x15xi1>, tensor<4x15xf16>
  %a = stablehlo.abs %s : tensor<4x15xf16>
  %n = stablehlo.negate %a : tensor<4x15xf16>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f16>
  %r = stablehlo.reduce(%n init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x15xf16>, tensor<f16>) -> tensor<15xf16>
  return %r : tensor<15xf16>
}"""

NARROWING = """
func.func @main(%x: tensor<9xf64>) -> tensor<9xf16> {
  %r = stablehlo.convert %x : (tensor<9xf64>) -> tensor<9xf16>
  return %r : tensor<9xf16>
}"""

CASES = {
    "clamped_sum": (
        CLAMPED_SUM,
        [[1.5, -300, np.inf, -0.0, 2] * 4],
        "float16",
        (4, 5),
    ),
    "narrowing": (
        NARROWING,
        [[1.0, 65520.0, 65519.99, 2.0**-25, 1.5 * 2.0**-24, -0.0, 1e300, 0.1, -7]],
        "float64",
        (9,),
    ),
}

RUN = """
import json, sys
import numpy as np
import xlir
from xlir.diagnostics import XlirError
text, values, dtype, shape, target = json.loads(sys.stdin.read())
x = np.array(values, dtype).reshape(shape)
try:
    compiled = xlir.compile(text, target=target)
except XlirError as unsupported:
    print(json.dumps(str(unsupported)))
else:
    print(json.dumps(compiled(x).view(np.uint16).tolist()))
"""
"""Prints the result's bits, or the diagnostic of a target that does not
support the program (XA-1 has no f64)."""


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("target", runnable_targets())
def test_half_program(case: str, target: str) -> None:
    text, values, dtype, shape = CASES[case]
    x = np.array(values, dtype).reshape(shape)
    want = xlir.compile(text, pipeline="")(x).view(np.uint16).tolist()
    run = subprocess.run(
        [sys.executable, "-c", RUN],
        input=json.dumps([text, values, dtype, shape, target]),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout.splitlines()[-1])
    if isinstance(got, str):
        assert "f64" in got, got
        pytest.skip(f"{target} does not support f64: {got}")
    assert got == want
