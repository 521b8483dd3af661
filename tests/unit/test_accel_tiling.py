"""Differential tests of `accel-tile` and its DMA streaming: kernels whose
buffers do not fit the scratchpad (shrunk to 4 KiB for the compiler, so
that small kernels take many tiles) give on the simulator, bit for bit,
what the loop evaluator gives: tiles of rows and of columns (2-D
descriptors), an odd last tile, buffers staged whole beside tiled ones,
narrow types converted by DMA, vector lanes over a tile."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from xlir.targets.accel import target as accel_target
from xlir.targets.accel.tiling import TILE_SIZE, TileScratchpadPass
from xlir.targets.target import CompileOptions

from tests.unit.test_accel_loop_lowering import _program, _same
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

SCRATCHPAD = 4096


@pytest.fixture(autouse=True)
def small_scratchpad(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiler plans for 4 KiB beside the stack (the chip keeps 512)."""
    info = replace(
        accel_target.INFO, scratchpad_bytes=accel_target.STACK_BYTES + SCRATCHPAD
    )
    monkeypatch.setattr(accel_target.AccelTarget, "info", lambda self, options: info)


def _same_tiled(text: str, *inputs: np.ndarray) -> None:
    """`_same`, for a program whose kernel `accel-tile` tiles."""
    module = parse_module(make_context(), text, "test")
    capacity = accel_target.AccelTarget().info(CompileOptions()).scratchpad_bytes
    run_pipeline(
        make_context(), module, [TileScratchpadPass(capacity, accel_target.STACK_BYTES)]
    )
    assert any(TILE_SIZE in op.attributes for op in module.walk())
    _same(text, *inputs)


def _random(shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    rng = np.random.default_rng(sum(shape))
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def test_rows_with_a_row_vector_staged_whole():
    """y = x * scale[j] + x: x and y in tiles of rows (8 tiles of 2 rows of
    100 columns, so 6 lanes and a remainder of 4 per row), scale whole."""
    kernel = """loop.kernel @k(%x: memref<16x100xf32>, %s: memref<100xf32>, %y: memref<16x100xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (16, 100) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<16x100xf32>
    %c = loop.load %s[%j] : memref<100xf32>
    %p = arith.mulf %v, %c : f32
    %r = arith.addf %p, %v : f32
    loop.store %r, %y[%i, %j] : memref<16x100xf32>
  }
  loop.return
}"""
    text = _program(
        kernel, ["memref<16x100xf32>", "memref<100xf32>"], ["memref<16x100xf32>"]
    )
    _same_tiled(text, _random((16, 100)), _random((100,)))


def test_columns_of_a_column_sum_with_an_odd_last_tile():
    """Column sums: the tile cuts the input's second index (a strided 2-D
    descriptor per tile), 3 tiles of 32 columns, the last in slot 0."""
    kernel = """loop.kernel @k(%x: memref<12x96xf32>, %y: memref<96xf32>) {
  %zero = arith.constant 0.0 : f32
  loop.parallel (%j) = (0) to (96) step (1) {
    %s = loop.for %i = 0 to 12 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<12x96xf32>
      %n = arith.addf %acc, %v : f32
      loop.yield %n : f32
    }
    loop.store %s, %y[%j] : memref<96xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<12x96xf32>"], ["memref<96xf32>"])
    _same_tiled(text, _random((12, 96)))


def test_one_dimension_on_the_lanes():
    """A 1-D elementwise kernel: tiles a multiple of 16 elements, all of
    each on the lanes."""
    kernel = """loop.kernel @k(%x: memref<1536xf32>, %y: memref<1536xf32>, %z: memref<1536xf32>) {
  loop.parallel (%i) = (0) to (1536) step (1) {
    %a = loop.load %x[%i] : memref<1536xf32>
    %b = loop.load %y[%i] : memref<1536xf32>
    %c = arith.maximumf %a, %b : f32
    loop.store %c, %z[%i] : memref<1536xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<1536xf32>"] * 2, ["memref<1536xf32>"])
    _same_tiled(text, _random((1536,)), _random((1536,)) * 2)


def test_narrow_integers_move_in_their_dma_mode():
    """i8 in, i16 out: each tile's descriptors widen and narrow by mode."""
    kernel = """loop.kernel @k(%x: memref<64x48xi8>, %y: memref<64x48xi16>) {
  loop.parallel (%i, %j) = (0, 0) to (64, 48) step (1, 1) {
    %a = loop.load %x[%i, %j] : memref<64x48xi8>
    %w = arith.extsi %a : i8 to i16
    %d = arith.muli %w, %w : i16
    loop.store %d, %y[%i, %j] : memref<64x48xi16>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<64x48xi8>"], ["memref<64x48xi16>"])
    _same_tiled(text, _random((64, 48), np.int8))


def test_a_whole_array_reduction_tiles_its_sequential_loop():
    """A sum and a count over a whole array: a loop.for in a nest of no
    dimension, tiled with its carried values, 5 tiles (the last after the
    pairs) of 8 rows each."""
    kernel = """loop.kernel @k(%x: memref<40x40xf32>, %sum: memref<f32>, %count: memref<i32>) {
  %zero = arith.constant 0.0 : f32
  %none = arith.constant 0 : i32
  loop.parallel () = () to () step () {
    %s, %c = loop.for %i = 0 to 40 step 1 iter_args(%a = %zero, %n = %none) -> (f32, i32) {
      %t, %m = loop.for %j = 0 to 40 step 1 iter_args(%b = %a, %k = %n) -> (f32, i32) {
        %v = loop.load %x[%i, %j] : memref<40x40xf32>
        %u = arith.addf %b, %v : f32
        %p = arith.cmpf ogt, %v, %zero : f32
        %e = arith.extui %p : i1 to i32
        %q = arith.addi %k, %e : i32
        loop.yield %u, %q : f32, i32
      }
      loop.yield %t, %m : f32, i32
    }
    loop.store %s, %sum[] : memref<f32>
    loop.store %c, %count[] : memref<i32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<40x40xf32>"], ["memref<f32>", "memref<i32>"])
    _same_tiled(text, _random((40, 40)))
