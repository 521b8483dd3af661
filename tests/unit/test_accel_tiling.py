"""Differential tests of `accel-tile` and its DMA streaming: kernels whose
buffers do not fit the scratchpad (shrunk to 4 KiB for the compiler, so
that small kernels take many tiles) give on the simulator, bit for bit,
what the loop evaluator gives: tiles of rows and of columns (2-D
descriptors), an odd last tile, buffers staged whole beside tiled ones,
narrow types converted by DMA, vector lanes over a tile, tiles along a
later dimension, strided and offset footprints, and buffers that stay in
DRAM when nothing else fits; and the same through the naive pipeline (no
matrix unit, no double buffering), matrix products on the vector lanes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Attribute
from xlir.dialects.syntax import i64_array
from xlir.passes.loop.fold_index import FoldIndexPass
from xlir.targets.accel import target as accel_target
from xlir.targets.accel.layout import IN_DRAM
from xlir.targets.accel.target import naive_pipeline
from xlir.targets.accel.tiling import (
    TILE_DIMENSION,
    TILE_SIZE,
    TILED_STARTS,
    TileScratchpadPass,
)
from xlir.targets.target import CompileOptions

import xlir
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


def _planned(text: str, matrix: bool = True) -> ModuleOp:
    """`text` after `accel-tile` at the test's scratchpad size."""
    module = parse_module(make_context(), text, "test")
    capacity = accel_target.AccelTarget().info(CompileOptions()).scratchpad_bytes
    tile = TileScratchpadPass(capacity, accel_target.STACK_BYTES, matrix)
    passes = [FoldIndexPass(), tile]
    run_pipeline(make_context(), module, passes)
    return module


def _tile(module: ModuleOp) -> dict[str, Attribute]:
    """The attributes of the loop `accel-tile` made in `module`."""
    return next(op.attributes for op in module.walk() if TILE_SIZE in op.attributes)


def _same_tiled(
    text: str, *inputs: np.ndarray, matrix: bool = True
) -> dict[str, Attribute]:
    """`_same`, for a program whose kernel `accel-tile` tiles (`matrix`: as
    it plans with the matrix unit or without); the tile loop's attributes."""
    attributes = _tile(_planned(text, matrix))
    _same(text, *inputs)
    return attributes


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


def test_gathered_rows_tile_along_a_later_dimension():
    """y[i, j, k] = table[idx[i], j, k]: the table's rows are picked at run
    time, so along i its footprint is computed and it would be staged
    whole (8 KiB, too big); along j every buffer is a tile (T = 1, strided
    descriptors)."""
    kernel = """loop.kernel @k(%idx: memref<4xi32>, %table: memref<16x8x16xf32>, %y: memref<4x8x16xf32>) {
  %last = arith.constant 15 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i, %j, %k) = (0, 0, 0) to (4, 8, 16) step (1, 1, 1) {
    %n = loop.load %idx[%i] : memref<4xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %row = arith.minsi %low, %last : index
    %v = loop.load %table[%row, %j, %k] : memref<16x8x16xf32>
    loop.store %v, %y[%i, %j, %k] : memref<4x8x16xf32>
  }
  loop.return
}"""
    text = _program(
        kernel, ["memref<4xi32>", "memref<16x8x16xf32>"], ["memref<4x8x16xf32>"]
    )
    indices = np.array([3, 15, 0, 7], np.int32)
    tile = _same_tiled(text, indices, _random((16, 8, 16)))
    assert tile[TILE_DIMENSION] == IntegerAttr(1, 64)


def test_a_strided_slice_reads_a_scaled_and_offset_footprint():
    """y[i, j] = x[2i, j] + x[2i + 1, j]: each tile of T rows of y reads
    rows 2t to 2t + 2T - 1 of x (a footprint of scale 2)."""
    kernel = """loop.kernel @k(%x: memref<64x32xf32>, %y: memref<32x32xf32>) {
  %two = arith.constant 2 : index
  %one = arith.constant 1 : index
  loop.parallel (%i, %j) = (0, 0) to (32, 32) step (1, 1) {
    %even = arith.muli %i, %two : index
    %odd = arith.addi %even, %one : index
    %a = loop.load %x[%even, %j] : memref<64x32xf32>
    %b = loop.load %x[%odd, %j] : memref<64x32xf32>
    %s = arith.addf %a, %b : f32
    loop.store %s, %y[%i, %j] : memref<32x32xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<64x32xf32>"], ["memref<32x32xf32>"])
    _same_tiled(text, _random((64, 32)))


def test_a_reshaped_transpose_tiles_its_strided_index():
    """y[i, j] = x[j / 8, j rem 8, i]: the tile of i cuts x's last index
    (64 rows of T elements, strided); j's division and remainder stay."""
    kernel = """loop.kernel @k(%x: memref<8x8x16xf32>, %y: memref<16x64xf32>) {
  %eight = arith.constant 8 : index
  loop.parallel (%i, %j) = (0, 0) to (16, 64) step (1, 1) {
    %a = arith.divui %j, %eight : index
    %b = arith.remui %j, %eight : index
    %v = loop.load %x[%a, %b, %i] : memref<8x8x16xf32>
    loop.store %v, %y[%i, %j] : memref<16x64xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<8x8x16xf32>"], ["memref<16x64xf32>"])
    _same_tiled(text, _random((8, 8, 16)))


def test_a_computed_footprint_is_staged_whole_beside_the_tiles():
    """A row gather from an 8x64 table: the table, read at rows computed
    from i, is staged whole; the indices and the result move in tiles."""
    kernel = """loop.kernel @k(%idx: memref<16xi32>, %table: memref<8x64xf32>, %y: memref<16x64xf32>) {
  %last = arith.constant 7 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i, %j) = (0, 0) to (16, 64) step (1, 1) {
    %n = loop.load %idx[%i] : memref<16xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %row = arith.minsi %low, %last : index
    %v = loop.load %table[%row, %j] : memref<8x64xf32>
    loop.store %v, %y[%i, %j] : memref<16x64xf32>
  }
  loop.return
}"""
    text = _program(
        kernel, ["memref<16xi32>", "memref<8x64xf32>"], ["memref<16x64xf32>"]
    )
    indices = np.arange(16, dtype=np.int32) * 5 % 9 - 1  # clamped at both ends
    tile = _same_tiled(text, indices, _random((8, 64)))
    assert tile[TILE_DIMENSION] == IntegerAttr(0, 64)


def _same_in_dram(text: str, *inputs: np.ndarray) -> None:
    """`_same`, for a program whose kernel keeps buffers in DRAM."""
    module = _planned(text)
    assert any(IN_DRAM in op.attributes for op in module.walk())
    _same(text, *inputs)


def test_elements_gathered_from_a_table_in_dram():
    """y[i] = table[idx[i]] from a 2048-element table: no tile of it fits,
    so it stays in DRAM and each read is a 4-byte descriptor."""
    kernel = """loop.kernel @k(%idx: memref<64xi32>, %table: memref<2048xf32>, %y: memref<64xf32>) {
  %last = arith.constant 2047 : index
  %zero = arith.constant 0 : index
  loop.parallel (%i) = (0) to (64) step (1) {
    %n = loop.load %idx[%i] : memref<64xi32>
    %r = arith.index_cast %n : i32 to index
    %low = arith.maxsi %r, %zero : index
    %at = arith.minsi %low, %last : index
    %v = loop.load %table[%at] : memref<2048xf32>
    loop.store %v, %y[%i] : memref<64xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<64xi32>", "memref<2048xf32>"], ["memref<64xf32>"])
    indices = np.random.default_rng(3).integers(-5, 2100, 64).astype(np.int32)
    _same_in_dram(text, indices, _random((2048,)))


def test_a_window_updated_at_run_time_offsets_in_dram():
    """A dynamic_update_slice: a copy of x, then an 8x8 window stored at
    offsets read from a buffer; two nests, so no tiling: x and y stay in
    DRAM, the copy moves 16 lanes a descriptor, the window an element."""
    kernel = """loop.kernel @k(%x: memref<64x64xf32>, %w: memref<8x8xf32>, %at: memref<2xi32>, %y: memref<64x64xf32>) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %last = arith.constant 56 : index
  loop.parallel (%i, %j) = (0, 0) to (64, 64) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<64x64xf32>
    loop.store %v, %y[%i, %j] : memref<64x64xf32>
  }
  %r = loop.load %at[%zero] : memref<2xi32>
  %c = loop.load %at[%one] : memref<2xi32>
  %ri = arith.index_cast %r : i32 to index
  %ci = arith.index_cast %c : i32 to index
  %rl = arith.maxsi %ri, %zero : index
  %row = arith.minsi %rl, %last : index
  %cl = arith.maxsi %ci, %zero : index
  %col = arith.minsi %cl, %last : index
  loop.parallel (%a, %b) = (0, 0) to (8, 8) step (1, 1) {
    %u = loop.load %w[%a, %b] : memref<8x8xf32>
    %p = arith.addi %row, %a : index
    %q = arith.addi %col, %b : index
    loop.store %u, %y[%p, %q] : memref<64x64xf32>
  }
  loop.return
}"""
    text = _program(
        kernel,
        ["memref<64x64xf32>", "memref<8x8xf32>", "memref<2xi32>"],
        ["memref<64x64xf32>"],
    )
    offsets = np.array([13, 60], np.int32)  # the column clamped to 56
    _same_in_dram(text, _random((64, 64)), _random((8, 8)), offsets)


def test_a_reversal_tiles_backwards():
    """y[i] = x[2047 - i]: x's footprint has scale -1, so the tile at t
    holds x[2048 - t - T] to x[2047 - t], read backwards."""
    kernel = """loop.kernel @k(%x: memref<2048xf32>, %y: memref<2048xf32>) {
  %last = arith.constant 2047 : index
  loop.parallel (%i) = (0) to (2048) step (1) {
    %r = arith.subi %last, %i : index
    %v = loop.load %x[%r] : memref<2048xf32>
    loop.store %v, %y[%i] : memref<2048xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<2048xf32>"], ["memref<2048xf32>"])
    tile = _same_tiled(text, _random((2048,)))
    size = tile[TILE_SIZE]
    assert isinstance(size, IntegerAttr)
    first = 2048 - size.value.data
    assert tile[TILED_STARTS] == i64_array([-1, first, 1, 0])


def _naive(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compile through the naive pipeline (`naive_pipeline`)."""
    pipeline = accel_target.AccelTarget.loop_pipeline
    monkeypatch.setattr(
        accel_target.AccelTarget,
        "loop_pipeline",
        lambda self, options: naive_pipeline(pipeline(self, options)),
    )


def test_the_naive_pipeline_waits_for_each_tile():
    """Tiles of rows with an odd last one, no tile's DMA overlapping
    another's compute: each slot's load waited for before its nest, its
    store after it."""
    kernel = """loop.kernel @k(%x: memref<14x100xf32>, %y: memref<14x100xf32>) {
  %two = arith.constant 2.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (14, 100) step (1, 1) {
    %v = loop.load %x[%i, %j] : memref<14x100xf32>
    %w = arith.mulf %v, %two : f32
    loop.store %w, %y[%i, %j] : memref<14x100xf32>
  }
  loop.return
}"""
    text = _program(kernel, ["memref<14x100xf32>"], ["memref<14x100xf32>"])
    with pytest.MonkeyPatch.context() as patch:
        _naive(patch)
        _same_tiled(text, _random((14, 100)))
        lines = [
            line.split()[0]
            for line in xlir.compile(text, target="accel").as_text().splitlines()
            if line.split()[0].startswith("dma.")
        ]
    transfers = [line for line in lines if line != "dma.cfg"]
    assert transfers.count("dma.ld") == transfers.count("dma.st") == 3  # 2 slots, 1 odd
    assert all(
        transfers[index + 1] == "dma.wait"
        for index, transfer in enumerate(transfers)
        if transfer != "dma.wait"
    )


@pytest.mark.parametrize("columns", [48, 40])
def test_the_naive_pipeline_multiplies_on_the_lanes(columns: int):
    """A matrix product too large to stage, with a bias: its rows of A and C
    in 5 tiles of 5 (the last after the pairs), B whole, 16 columns of C a `vfmadd` per step of k in
    k's order (bit for bit the loop's sums), 40 columns leaving a scalar
    remainder of 8."""
    n = columns
    kernel = f"""loop.kernel @k(%a: memref<25x8xf32>, %b: memref<8x{n}xf32>, %h: memref<{n}xf32>, %c: memref<25x{n}xf32>) {{
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i, %j) = (0, 0) to (25, {n}) step (1, 1) {{
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %zero) -> (f32) {{
      %x = loop.load %a[%i, %k] : memref<25x8xf32>
      %y = loop.load %b[%k, %j] : memref<8x{n}xf32>
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %acc, %p : f32
      loop.yield %q : f32
    }}
    %e = loop.load %h[%j] : memref<{n}xf32>
    %r = arith.addf %s, %e : f32
    loop.store %r, %c[%i, %j] : memref<25x{n}xf32>
  }}
  loop.return
}}"""
    text = _program(
        kernel,
        ["memref<25x8xf32>", f"memref<8x{n}xf32>", f"memref<{n}xf32>"],
        [f"memref<25x{n}xf32>"],
    )
    inputs = _random((25, 8)), _random((8, n)), _random((n,))
    with pytest.MonkeyPatch.context() as patch:
        _naive(patch)
        tile = _same_tiled(text, *inputs, matrix=False)
        assembly = xlir.compile(text, target="accel").as_text()
    assert tile[TILE_SIZE] == IntegerAttr(5, 64)
    assert "vfmadd" in assembly
    assert "mmac" not in assembly
