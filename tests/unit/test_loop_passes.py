"""The loop-level passes (`hoist`, `unroll`, `tile`, `tile-transposes`,
`fold-index`, `split-ranges`, `split-divided`, `split-parallel`) keep every result bit for bit: each corpus
program lowered by `hlo-opt,hlo-to-loop` runs on the loop interpreter before
and after each pass (and a pipeline of all of them), and the outputs must be
identical, not merely close: none of the passes reorders floating-point
arithmetic. Kernels written by hand cover the edges the corpus lacks
(remainder loops, partial tiles, dynamic bounds)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp

import xlir
from tests.corpus import PROGRAMS, load_case
from tests.loop_level import loop_level
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

PIPELINES = [
    "hoist",
    "unroll{factor=4}",
    "unroll{factor=3}",
    "tile{sizes=4,8}",
    "tile{sizes=0,3,5}",
    "tile-transposes{min-bytes=0}",
    "fold-index",
    "split-ranges",
    "split-ranges{max-pieces=3}",
    "split-divided",
    "fuse-kernels",
    "split-parallel",
    "tile{sizes=8,8},unroll{factor=4},hoist,fold-index",
]
LOWERED = [p for p in PROGRAMS if ".export." not in p.name]


def _lowered(text: str, name: str, pipeline: str):
    module = parse_module(make_context(), text, name)
    run_pipeline(make_context(), module, pipeline)
    return module


def _run(module, arguments) -> list[np.ndarray]:
    outputs = xlir.compile(module, target="interpreter")(*arguments)
    return list(outputs) if isinstance(outputs, tuple) else [outputs]


def _assert_identical(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("path", LOWERED, ids=[p.name for p in LOWERED])
def test_corpus_outputs_unchanged(path) -> None:
    text = path.read_text()
    try:
        reference = loop_level(text, str(path))
    except XlirError as error:
        pytest.skip(f"hlo-to-loop cannot lower it yet: {error}")
    arguments, _ = load_case(path)
    want = _run(reference, arguments)
    for pipeline in PIPELINES:
        module = loop_level(text, str(path), pipeline)
        _assert_identical(_run(module, arguments), want)


def test_reshape_round_trips_fold_away() -> None:
    """A reshape there and back inside one fusion leaves no division."""
    module = _lowered(
        """
        func.func @main(%a: tensor<4x6xf32>) -> tensor<6x4xf32> {
          %0 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<2x12xf32>
          %1 = stablehlo.exponential %0 : tensor<2x12xf32>
          %2 = stablehlo.reshape %1 : (tensor<2x12xf32>) -> tensor<3x8xf32>
          %3 = stablehlo.reshape %2 : (tensor<3x8xf32>) -> tensor<4x6xf32>
          %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
          return %4 : tensor<6x4xf32>
        }
        """,
        "reshape.mlir",
        "hlo-opt,hlo-to-loop,fold-index",
    )
    names = {op.name for op in module.walk()}
    assert not names & {"arith.divui", "arith.remui", "arith.muli", "arith.addi"}
    x = np.arange(24, dtype=np.float32).reshape(4, 6) / 24
    (got,) = _run(module, [x])
    np.testing.assert_allclose(got, np.exp(x).T, rtol=1e-6)


def test_transposed_reshape_splits_its_dimension() -> None:
    """Heads put back side by side (a transpose, then a reshape merging two
    dimensions): `split-divided` leaves no division, and the same bits."""
    text = """
        func.func @main(%a: tensor<2x3x4x8xf32>) -> tensor<2x4x24xf32> {
          %0 = stablehlo.transpose %a, dims = [0, 2, 1, 3] : (tensor<2x3x4x8xf32>) -> tensor<2x4x3x8xf32>
          %1 = stablehlo.reshape %0 : (tensor<2x4x3x8xf32>) -> tensor<2x4x24xf32>
          %2 = stablehlo.exponential %1 : tensor<2x4x24xf32>
          return %2 : tensor<2x4x24xf32>
        }
        """
    before = _lowered(text, "heads.mlir", "hlo-opt,hlo-to-loop")
    after = _lowered(text, "heads.mlir", "hlo-opt,hlo-to-loop,split-divided")
    assert "arith.divui" in {op.name for op in before.walk()}
    assert not {op.name for op in after.walk()} & {"arith.divui", "arith.remui"}
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 8)).astype(np.float32)
    _assert_identical(_run(after, [x]), _run(before, [x]))


KERNELS = """
loop.kernel @edges(%x: memref<10x7xf32>, %n: index, %sum: memref<10xf32>, %out: memref<10x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2.0 : f32
  loop.parallel (%i) = (0) to (10) step (1) {
    %s = loop.for %j = 0 to 7 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<10x7xf32>
      %w = arith.mulf %v, %c2 : f32
      %a = arith.addf %acc, %w : f32
      loop.yield %a : f32
    }
    loop.store %s, %sum[%i] : memref<10xf32>
  }
  loop.parallel (%i, %j) = (0, 1) to (%n, 7) step (1, 2) {
    %c7 = arith.constant 7 : index
    %lin = arith.muli %i, %c7 : index
    %l = arith.addi %lin, %j : index
    %p = arith.divui %l, %c7 : index
    %q = arith.remui %l, %c7 : index
    %v = loop.load %x[%p, %q] : memref<10x7xf32>
    loop.store %v, %out[%i, %j] : memref<10x7xf32>
  }
  loop.return
}
func.func @main(%x: memref<10x7xf32>) -> (memref<10xf32>, memref<10x7xf32>) {
  %s = device.default_stream
  %n = arith.constant 9 : index
  %sum = device.alloc : memref<10xf32>
  %out = device.alloc : memref<10x7xf32>
  device.launch @edges(%x, %n, %sum, %out) on %s : memref<10x7xf32>, index, memref<10xf32>, memref<10x7xf32>
  device.synchronize %s
  func.return %sum, %out : memref<10xf32>, memref<10x7xf32>
}
"""


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_hand_written_edges(pipeline: str) -> None:
    """Remainder loops (7 by 3 or 4), partial tiles (10 by 4 or 8, 7 by 3),
    a dynamic bound and a delinearized index, each against the untouched
    kernel; the zero-initialized output's unwritten elements stay put."""
    x = np.random.default_rng(0).standard_normal((10, 7)).astype(np.float32)
    want = _run(_lowered(KERNELS, "edges.mlir", ""), [x])
    module = _lowered(KERNELS, "edges.mlir", pipeline)
    _assert_identical(_run(module, [x]), want)


def test_tile_and_unroll_change_the_structure() -> None:
    module = _lowered(KERNELS, "edges.mlir", "tile{sizes=4},unroll{factor=3}")
    parallels = [op for op in module.walk() if isinstance(op, ParallelOp)]
    fors = [op for op in module.walk() if isinstance(op, ForOp)]
    assert len(parallels) == 4  # two nests of tiles and elements
    assert [(f.lower, f.upper, f.step) for f in fors] == [(0, 6, 3), (6, 7, 1)]


def test_split_parallel_leaves_one_dimension_a_loop() -> None:
    """The second nest of `KERNELS` (rows up to `%n`, columns 1 to 7 by 2)
    as a loop over the rows holding one over the columns."""
    module = _lowered(KERNELS, "edges.mlir", "split-parallel")
    kernel = next(op for op in module.walk() if isinstance(op, KernelOp))
    _, rows, columns = [op for op in module.walk() if isinstance(op, ParallelOp)]
    n = kernel.body.block.args[1]
    assert columns.parent_op() is rows
    bounds = [(p.lower_bounds, p.upper_bounds, p.steps) for p in (rows, columns)]
    assert bounds == [([0], [n], [1]), ([1], [7], [2])]


@settings(max_examples=20, deadline=None)
@given(
    rows=st.integers(1, 5),
    widths=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    low=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    high=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    reverse=st.booleans(),
)
def test_split_ranges_on_random_pads_of_concatenations(
    rows: int,
    widths: list[int],
    low: tuple[int, int],
    high: tuple[int, int],
    reverse: bool,
) -> None:
    """`pad(concatenate(x_k, dim = 1))`, reversed along the rows or not,
    for random sizes: the same bits as the unsplit kernel and numpy, and
    the pieces choose nothing (no `select` left) when the budget allows."""
    total = sum(widths)
    out = (rows + low[0] + high[0], total + low[1] + high[1])
    args = ", ".join(f"%x{k}: tensor<{rows}x{w}xf32>" for k, w in enumerate(widths))
    operands = ", ".join(f"%x{k}" for k in range(len(widths)))
    types = ", ".join(f"tensor<{rows}x{w}xf32>" for w in widths)
    source = "%c" if not reverse else "%r"
    text = f"""
    func.func @main({args}) -> tensor<{out[0]}x{out[1]}xf32> {{
      %c = stablehlo.concatenate {operands}, dim = 1 : ({types}) -> tensor<{rows}x{total}xf32>
      %r = stablehlo.reverse %c, dims = [0] : tensor<{rows}x{total}xf32>
      %z = stablehlo.constant dense<-1.0> : tensor<f32>
      %p = stablehlo.pad {source}, %z, low = [{low[0]}, {low[1]}], high = [{high[0]}, {high[1]}], interior = [0, 0] : (tensor<{rows}x{total}xf32>, tensor<f32>) -> tensor<{out[0]}x{out[1]}xf32>
      return %p : tensor<{out[0]}x{out[1]}xf32>
    }}
    """
    rng = np.random.default_rng(rows * 31 + total)
    xs = [rng.standard_normal((rows, w)).astype(np.float32) for w in widths]
    joined = np.concatenate(xs, axis=1)
    joined = joined[::-1] if reverse else joined
    want = np.pad(joined, list(zip(low, high, strict=True)), constant_values=-1.0)
    whole = _run(_lowered(text, "pad.mlir", "hlo-opt,hlo-to-loop"), xs)
    split = _lowered(
        text, "pad.mlir", "hlo-opt,hlo-to-loop,split-ranges{max-pieces=16}"
    )
    _assert_identical(_run(split, xs), whole)
    np.testing.assert_array_equal(whole[0], want)
    assert not any(op.name == "arith.select" for op in split.walk())
