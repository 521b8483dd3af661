"""Differential tests of matrix products on XA-1's matrix unit
(`matmul.py`, `matrix_unit.py`): the loop level's `dot_general` kernels,
with and without an epilogue, give on the simulator, bit for bit, the
loop evaluator's sums (`mmac` adds each rounded product in k's order)."""

from __future__ import annotations

import numpy as np

import xlir
from tests.unit.test_accel_loop_lowering import _program, _same

MATMUL = """loop.kernel @k(%a: memref<64x128xf32>, %b: memref<128x96xf32>, %c: memref<64x96xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (64, 96) step (1, 1) {
    %s = loop.for %k = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<64x128xf32>
      %y = loop.load %b[%k, %j] : memref<128x96xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    loop.store %s, %c[%i, %j] : memref<64x96xf32>
  }
  loop.return
}"""

DENSE_RELU = """loop.kernel @k(%a: memref<32x80xf32>, %b: memref<80x64xf32>, %bias: memref<64xf32>, %c: memref<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (32, 64) step (1, 1) {
    %s = loop.for %k = 0 to 80 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%i, %k] : memref<32x80xf32>
      %y = loop.load %b[%k, %j] : memref<80x64xf32>
      %p = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32
    }
    %h = loop.load %bias[%j] : memref<64xf32>
    %t = arith.addf %s, %h : f32
    %r = arith.maximumf %t, %zero : f32
    loop.store %r, %c[%i, %j] : memref<32x64xf32>
  }
  loop.return
}"""


def _random(*shape: int) -> np.ndarray:
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)


def _on_the_matrix_unit(text: str) -> None:
    assert "mmac" in xlir.compile(text, target="accel").as_text()


def test_a_matrix_product_in_blocks_of_two_accumulators():
    """96 columns: blocks of 32 (two accumulators), 4 row blocks of 16."""
    text = _program(
        MATMUL, ["memref<64x128xf32>", "memref<128x96xf32>"], ["memref<64x96xf32>"]
    )
    _on_the_matrix_unit(text)
    _same(text, _random(64, 128), _random(128, 96))


def test_a_dense_layer_applies_its_epilogue_on_the_vector_unit():
    """Bias (staged whole) and ReLU on each block after `mst`."""
    arguments = ["memref<32x80xf32>", "memref<80x64xf32>", "memref<64xf32>"]
    text = _program(DENSE_RELU, arguments, ["memref<32x64xf32>"])
    _on_the_matrix_unit(text)
    _same(text, _random(32, 80), _random(80, 64), _random(64))


BATCHED = """loop.kernel @k(%a: memref<3x32x48xf32>, %b: memref<3x48x16xf32>, %c: memref<3x32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%n, %i, %j) = (0, 0, 0) to (3, 32, 16) step (1, 1, 1) {
    %s = loop.for %k = 0 to 48 step 1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %a[%n, %i, %k] : memref<3x32x48xf32>
      %y = loop.load %b[%n, %k, %j] : memref<3x48x16xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %acc, %p : f32
      loop.yield %t : f32
    }
    loop.store %s, %c[%n, %i, %j] : memref<3x32x16xf32>
  }
  loop.return
}"""


def test_a_batch_of_products_one_after_another():
    """Three products: A, B and C advance by one matrix per product."""
    arguments = ["memref<3x32x48xf32>", "memref<3x48x16xf32>"]
    text = _program(BATCHED, arguments, ["memref<3x32x16xf32>"])
    _on_the_matrix_unit(text)
    _same(text, _random(3, 32, 48), _random(3, 48, 16))


def test_columns_short_of_a_tile_are_padded_and_never_stored():
    """10 columns (a classifier's logits): one block of 16, its last 6
    columns computed from stale scratchpad and not stored; the bias read
    past its end likewise."""
    kernel = (
        DENSE_RELU.replace("x64xf32", "x10xf32")
        .replace("<64xf32>", "<10xf32>")
        .replace("(32, 64)", "(32, 10)")
    )
    arguments = ["memref<32x80xf32>", "memref<80x10xf32>", "memref<10xf32>"]
    text = _program(kernel, arguments, ["memref<32x10xf32>"])
    _on_the_matrix_unit(text)
    _same(text, _random(32, 80), _random(80, 10), _random(10))


def _transposed(kernel: str, k: int, n: int, batch: str = "") -> str:
    """`kernel` with B read as B[j, k] from an N x K buffer."""
    return kernel.replace(
        f"%b[{batch}%k, %j] : memref<{k}x{n}xf32>",
        f"%b[{batch}%j, %k] : memref<{n}x{k}xf32>",
    ).replace(f"%b: memref<{k}x{n}xf32>", f"%b: memref<{n}x{k}xf32>")


def test_b_read_transposed_loads_a_panel_column_per_descriptor():
    """C = A B^T (a gradient's product): 96 columns in blocks of 64, the
    second block's last 32 columns past B's rows, so their descriptors are
    empty."""
    kernel = _transposed(MATMUL, 128, 96)
    assert "%b[%j, %k]" in kernel
    text = _program(
        kernel, ["memref<64x128xf32>", "memref<96x128xf32>"], ["memref<64x96xf32>"]
    )
    _on_the_matrix_unit(text)
    _same(text, _random(64, 128), _random(96, 128))


def test_b_transposed_in_a_batch_with_an_epilogue():
    """A batch of A B^T, and a dense layer with B^T of 10 rows (its bias
    and ReLU after `mst`)."""
    kernel = BATCHED.replace("%b[%n, %k, %j]", "%b[%n, %j, %k]").replace(
        "memref<3x48x16xf32>", "memref<3x16x48xf32>"
    )
    arguments = ["memref<3x32x48xf32>", "memref<3x16x48xf32>"]
    text = _program(kernel, arguments, ["memref<3x32x16xf32>"])
    _on_the_matrix_unit(text)
    _same(text, _random(3, 32, 48), _random(3, 16, 48))
    dense = _transposed(
        DENSE_RELU.replace("x64xf32", "x10xf32")
        .replace("<64xf32>", "<10xf32>")
        .replace("(32, 64)", "(32, 10)"),
        80,
        10,
    )
    arguments = ["memref<32x80xf32>", "memref<10x80xf32>", "memref<10xf32>"]
    text = _program(dense, arguments, ["memref<32x10xf32>"])
    _on_the_matrix_unit(text)
    _same(text, _random(32, 80), _random(10, 80), _random(10))


def test_a_depth_short_of_a_tile_is_padded_with_zeros():
    """K = 10 (a classifier's gradient, B transposed) and K = 40: the
    panels' rows past K stay zero in the scratchpad, so the padded mmac
    steps add nothing; A's panel is then 16 rows a padded row apart."""
    for k in (10, 40):
        kernel = _transposed(
            MATMUL.replace("128", str(k)).replace("to 128", f"to {k}"), k, 96
        )
        arguments = [f"memref<64x{k}xf32>", f"memref<96x{k}xf32>"]
        text = _program(kernel, arguments, ["memref<64x96xf32>"])
        _on_the_matrix_unit(text)
        _same(text, _random(64, k), _random(96, k))
