"""Column reductions jammed by several vectors side by side
(passes/loop/vectorize.py, `COLUMN_VECTORS`): each column's terms are added
in the same order as the columns one by one, in the loop interpreter and in
the cpu target's code."""

from __future__ import annotations

import numpy as np
from xlir.evaluator.loop import LoopModule

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

ROWS, COLUMNS = 300, 70
"""More rows than a block of `block-sums` (256), and columns that leave
remainders: at 8 lanes, 2 tiles of 4 vectors (64 columns), then 3 vectors
of 2 lanes."""

STATISTICS = f"""
loop.kernel @k(%x: memref<{ROWS}x{COLUMNS}xf32>, %mean: memref<{COLUMNS}xf32>, %var: memref<{COLUMNS}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %n = arith.constant {ROWS}.0 : f32
  loop.parallel (%j) = (0) to ({COLUMNS}) step (1) {{
    %s = loop.for %i = 0 to {ROWS} step 1 iter_args(%acc = %zero) -> (f32) {{
      %v = loop.load %x[%i, %j] : memref<{ROWS}x{COLUMNS}xf32>
      %a = arith.addf %acc, %v : f32
      loop.yield %a : f32
    }}
    %m = arith.divf %s, %n : f32
    loop.store %m, %mean[%j] : memref<{COLUMNS}xf32>
  }}
  loop.parallel (%j) = (0) to ({COLUMNS}) step (1) {{
    %m = loop.load %mean[%j] : memref<{COLUMNS}xf32>
    %s = loop.for %i = 0 to {ROWS} step 1 iter_args(%acc = %zero) -> (f32) {{
      %v = loop.load %x[%i, %j] : memref<{ROWS}x{COLUMNS}xf32>
      %d = arith.subf %v, %m : f32
      %q = arith.mulf %d, %d : f32
      %a = arith.addf %acc, %q : f32
      loop.yield %a : f32
    }}
    %w = arith.divf %s, %n : f32
    loop.store %w, %var[%j] : memref<{COLUMNS}xf32>
  }}
  loop.return
}}
func.func @main(%x: memref<{ROWS}x{COLUMNS}xf32>) -> (memref<{COLUMNS}xf32>, memref<{COLUMNS}xf32>) {{
  %s = device.default_stream
  %mean = device.alloc : memref<{COLUMNS}xf32>
  %var = device.alloc : memref<{COLUMNS}xf32>
  device.launch @k(%x, %mean, %var) on %s : memref<{ROWS}x{COLUMNS}xf32>, memref<{COLUMNS}xf32>, memref<{COLUMNS}xf32>
  device.synchronize %s
  func.return %mean, %var : memref<{COLUMNS}xf32>, memref<{COLUMNS}xf32>
}}
"""


def run_after(pipeline: str, x: np.ndarray) -> list[np.ndarray]:
    module = parse_module(make_context(), STATISTICS, "statistics.mlir")
    run_pipeline(make_context(), module, pipeline)
    if pipeline.startswith("vectorize"):
        assert str(module).count("jam = array<i64: 32>") == 2  # 4 vectors of 8
    return LoopModule(module).call("main", [x])


def test_column_vectors_sum_as_the_columns_one_by_one() -> None:
    """A mean and a variance per column, jammed 4 vectors of 8 at a time
    (and the remainder by what is left), give the bits of the plain nests
    blocked as `block-sums` blocks them."""
    x = np.random.default_rng(0).normal(1.0, 2.0, (ROWS, COLUMNS)).astype(np.float32)
    old = run_after("block-sums", x)
    new = run_after("vectorize{width=8},block-sums", x)
    for before, after in zip(old, new, strict=True):
        np.testing.assert_array_equal(before.view(np.uint32), after.view(np.uint32))
    np.testing.assert_allclose(new[0], x.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(new[1], x.var(axis=0), rtol=1e-4)


BATCH_NORM = """
func.func public @main(%x: tensor<4x10x10x66xf32>) -> (tensor<66xf32>, tensor<66xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<400.0> : tensor<66xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x10x10x66xf32>, tensor<f32>) -> tensor<66xf32>
  %m = stablehlo.divide %s, %n : tensor<66xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [3] : (tensor<66xf32>) -> tensor<4x10x10x66xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x10x10x66xf32>
  %q = stablehlo.multiply %d, %d : tensor<4x10x10x66xf32>
  %t = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x10x10x66xf32>, tensor<f32>) -> tensor<66xf32>
  %v = stablehlo.divide %t, %n : tensor<66xf32>
  return %m, %v : tensor<66xf32>, tensor<66xf32>
}
"""


def test_cpu_batch_norm_statistics_columns_agree() -> None:
    """On the cpu target the first 64 channels are vector copies (4 of 16
    lanes, or 2 tiles of 4 of 8) and the last 2 a remainder: given the data
    of channels 0 and 37, they give those channels' bits."""
    x = np.random.default_rng(1).normal(0.5, 3.0, (4, 10, 10, 66)).astype(np.float32)
    x[..., 64] = x[..., 0]
    x[..., 65] = x[..., 37]
    mean, var = xlir.compile(BATCH_NORM, target="cpu")(x)
    for out in (mean, var):
        bits = out.view(np.uint32)
        assert bits[64] == bits[0] and bits[65] == bits[37]
    np.testing.assert_allclose(mean, x.mean(axis=(0, 1, 2)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var, x.var(axis=(0, 1, 2)), rtol=1e-4)
