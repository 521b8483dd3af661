"""Rows as vector lanes (passes/loop/row_lanes.py): the same bits as the rows
summed one by one, in the loop interpreter and in the cpu target's code."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xlir.evaluator.loop import LoopModule
from xlir.targets.target import CompileOptions

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

ROWS, COLUMNS = 18, 604


LOOP = "%s = loop.for %j = 0 to {columns} step 1 iter_args(%acc = %zero) -> (f32) {{"

STEPS = {
    "exp_sums": """
      %v = loop.load %x[%i, %j] : {x}
      %e = math.exp %v : f32
      %n = arith.addf %acc, %e : f32
      loop.yield %n : f32""",
    "row_dots": """
      %v = loop.load %x[%i, %j] : {x}
      %w = loop.load %y[%i, %j] : {x}
      %p = arith.mulf %v, %w : f32
      %n = arith.addf %acc, %p : f32
      loop.yield %n : f32""",
    "dot_of_maxima": """
      %v = loop.load %x[%i, %j] : {x}
      %w = loop.load %y[%i, %j] : {x}
      %d = arith.subf %v, %w : f32
      %n = arith.maximumf %acc, %d : f32
      loop.yield %n : f32
    }}
    %t = loop.for %k = 0 to {columns} step 1 iter_args(%sum = %s) -> (f32) {{
      %v = loop.load %x[%i, %k] : {x}
      %w = loop.load %y[%i, %k] : {x}
      %p = arith.mulf %v, %w : f32
      %n = arith.addf %sum, %p : f32
      loop.yield %n : f32""",
}
"""Row reductions of x (and y): a costly step, a cheap one whose products
are taken before the transpose, and a row max (exact in any order: partial
maxima per row, no transpose) that starts a row dot in the same nest."""

WANT = {
    "exp_sums": lambda x, y: np.exp(x).sum(axis=1),
    "row_dots": lambda x, y: (x * y).sum(axis=1),
    "dot_of_maxima": lambda x, y: (
        np.maximum((x - y).max(axis=1), 0) + (x * y).sum(axis=1)
    ),
}


def row_kernel(step: str, rows: int, columns: int) -> str:
    """Each row's reduction by `step`, one kernel and its launch."""
    x, out = f"memref<{rows}x{columns}xf32>", f"memref<{rows}xf32>"
    body = STEPS[step].format(x=x, columns=columns)
    result = "%t" if step == "dot_of_maxima" else "%s"
    return f"""
loop.kernel @k(%x: {x}, %y: {x}, %out: {out}) {{
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to ({rows}) step (1) {{
    {LOOP.format(columns=columns)}{body}
    }}
    loop.store {result}, %out[%i] : {out}
  }}
  loop.return
}}
func.func @main(%x: {x}, %y: {x}) -> {out} {{
  %s = device.default_stream
  %out = device.alloc : {out}
  device.launch @k(%x, %y, %out) on %s : {x}, {x}, {out}
  device.synchronize %s
  func.return %out : {out}
}}
"""


def run_after(pipeline: str, step: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    module = parse_module(make_context(), row_kernel(step, *x.shape), "rows.mlir")
    run_pipeline(make_context(), module, pipeline)
    text = str(module)
    if pipeline.startswith("vectorize"):
        assert "vector.shuffle" in text  # the rows did become lanes
    (out,) = LoopModule(module).call("main", [x, y])
    return out


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("width", [8, 16])
def test_rows_in_lanes_sum_as_the_rows_one_by_one(step: str, width: int) -> None:
    """The transposed tiles, the remainder columns (604 = 16 x 37 + 12,
    but 256 + 256 + 92 in blocks: two blocks, as one block and the rest
    would give the in-order sum's bits too) and the remainder rows give the
    bits of the plain nest blocked as `block-sums` blocks it."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(2, ROWS, COLUMNS)).astype(np.float32)
    old = run_after("block-sums", step, x, y)
    new = run_after(f"vectorize{{width={width}}},block-sums", step, x, y)
    np.testing.assert_array_equal(old.view(np.uint32), new.view(np.uint32))
    np.testing.assert_allclose(new, WANT[step](x, y), rtol=1e-4, atol=1e-4)


LOGSUMEXP = """
func.func public @main(%x: tensor<17x1000xf32>) -> tensor<17xf32> {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [1] : (tensor<17x1000xf32>, tensor<f32>) -> tensor<17xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<17xf32>) -> tensor<17x1000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<17x1000xf32>
  %e = stablehlo.exponential %d : tensor<17x1000xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<17x1000xf32>, tensor<f32>) -> tensor<17xf32>
  %l = stablehlo.log %s : tensor<17xf32>
  %r = stablehlo.add %l, %m : tensor<17xf32>
  return %r : tensor<17xf32>
}
"""


def test_cpu_row_in_lanes_equals_the_row_left_over() -> None:
    """On the cpu target, 16 of the 17 rows are lanes (8 or 16 of a vector)
    and the last is a remainder row summed as before: given the same data as
    row 0, it gives row 0's bits."""
    x = np.random.default_rng(1).normal(size=(17, 1000)).astype(np.float32)
    x[16] = x[0]
    out = xlir.compile(LOGSUMEXP, target="cpu")(x)
    assert out[16].view(np.uint32) == out[0].view(np.uint32)
    m = x.max(axis=1)
    want = np.log(np.exp(x - m[:, None]).sum(axis=1)) + m
    np.testing.assert_allclose(out, want, rtol=1e-5)


ROW_DOT = """
func.func public @main(%a: tensor<17x1000xf32>, %b: tensor<17x1000xf32>) -> tensor<17xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<17x1000xf32>, tensor<17x1000xf32>) -> tensor<17xf32>
  return %0 : tensor<17xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_cpu_row_dot_in_lanes_equals_the_row_left_over(threads: int) -> None:
    """einsum('ij,ij->i') on the cpu target: its rows are lanes of a cheap
    step (8 of them, the 17th a remainder row); given row 0's data, the
    remainder row gives row 0's bits, on one thread or two (the inline
    kernel: with library calls, the row-dot entry computes it)."""
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(2, 17, 1000)).astype(np.float32)
    a[16], b[16] = a[0], b[0]
    options = CompileOptions(threads=threads, library_calls=False)
    out = xlir.compile(ROW_DOT, target="cpu", options=options)(a, b)
    assert out[16].view(np.uint32) == out[0].view(np.uint32)
    np.testing.assert_allclose(out, (a * b).sum(axis=1), rtol=1e-4, atol=1e-4)


ROW_MAX_ARGMAX = """
func.func public @main(%x: tensor<19x300xf32>) -> (tensor<19xf32>, tensor<19xi32>) {
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [1] : (tensor<19x300xf32>, tensor<f32>) -> tensor<19xf32>
  %iota = stablehlo.iota dim = 1 : tensor<19x300xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %low), (%iota init: %zero) across dimensions = [1] : (tensor<19x300xf32>, tensor<19x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<19xf32>, tensor<19xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %keep = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %first = stablehlo.or %keep, %tie : tensor<i1>
    %v = stablehlo.select %keep, %a, %b : tensor<i1>, tensor<f32>
    %i = stablehlo.select %first, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  return %m, %r#1 : tensor<19xf32>, tensor<19xi32>
}
"""


def test_cpu_row_maxima_and_argmax_in_lanes_as_the_interpreter() -> None:
    """A row max (partial maxima per row, combined across lanes after the
    loop) beside an argmax (a cheap step in order, ties to the first index)
    in one nest of rows as lanes: the interpreter's bits, with ties, a NaN
    and a row of -inf."""
    rng = np.random.default_rng(3)
    x = rng.integers(-4, 4, size=(19, 300)).astype(np.float32)
    x[2, 17] = np.nan
    x[5] = -np.inf
    out = xlir.compile(ROW_MAX_ARGMAX, target="cpu")(x)
    want = xlir.compile(ROW_MAX_ARGMAX, target="interpreter")(x)
    for got, expected in zip(out, want, strict=True):
        np.testing.assert_array_equal(got.view(np.uint32), expected.view(np.uint32))


BF16_NORM = """
func.func public @main(%x: tensor<17x300xbf16>, %y: tensor<17x300xbf16>) -> (tensor<17xf32>, tensor<17xf32>) {
  %h = stablehlo.add %x, %y : tensor<17x300xbf16>
  %f = stablehlo.convert %h : (tensor<17x300xbf16>) -> tensor<17x300xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%f init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<17x300xf32>, tensor<f32>) -> tensor<17xf32>
  %n = stablehlo.constant dense<300.0> : tensor<17xf32>
  %m = stablehlo.divide %s, %n : tensor<17xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<17xf32>) -> tensor<17x300xf32>
  %d = stablehlo.subtract %f, %mb : tensor<17x300xf32>
  %db = stablehlo.convert %d : (tensor<17x300xf32>) -> tensor<17x300xbf16>
  %dd = stablehlo.convert %db : (tensor<17x300xbf16>) -> tensor<17x300xf32>
  %q = stablehlo.multiply %dd, %dd : tensor<17x300xf32>
  %v = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<17x300xf32>, tensor<f32>) -> tensor<17xf32>
  return %s, %v : tensor<17xf32>, tensor<17xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_cpu_bf16_rows_in_lanes_equal_the_row_left_over(threads: int) -> None:
    """A bf16 layer norm's row sums on the cpu target: the sum of a rounded
    bf16 residual add, and of squares about each row's mean. Their steps'
    decoding and rounding run on the row vectors, once, in a loop over a
    tile's rows, the mean each row's own; given row 0's data, the remainder
    row (the 17th, summed as scalar code) gives row 0's bits."""
    rng = np.random.default_rng(4)
    x, y = rng.normal(size=(2, 17, 300)).astype(ml_dtypes.bfloat16)
    x[16], y[16] = x[0], y[0]
    options = CompileOptions(threads=threads)
    sums, squares = xlir.compile(BF16_NORM, target="cpu", options=options)(x, y)
    for out in (sums, squares):
        assert out[16].view(np.uint32) == out[0].view(np.uint32)
    h = (x.astype(np.float32) + y.astype(np.float32)).astype(ml_dtypes.bfloat16)
    f = h.astype(np.float32)
    d = (f - f.mean(axis=1, keepdims=True)).astype(ml_dtypes.bfloat16)
    np.testing.assert_allclose(sums, f.sum(axis=1), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(
        squares, (d.astype(np.float32) ** 2).sum(axis=1), rtol=1e-2
    )


CENTRE_ROWS = """
loop.kernel @k(%x: memref<18x300xf32>, %sum: memref<18xf32>, %y: memref<18x300xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 300.0 : f32
  loop.parallel (%i) = (0) to (18) step (1) {
    %s = loop.for %j = 0 to 300 step 1 iter_args(%acc = %zero) -> (f32) {
      %v = loop.load %x[%i, %j] : memref<18x300xf32>
      %a = arith.addf %acc, %v : f32
      loop.yield %a : f32
    }
    loop.store %s, %sum[%i] : memref<18xf32>
    %t = loop.load %sum[%i] : memref<18xf32>
    %m = arith.divf %t, %n : f32
    loop.parallel (%k) = (0) to (300) step (1) {
      %w = loop.load %x[%i, %k] : memref<18x300xf32>
      %d = arith.subf %w, %m : f32
      loop.store %d, %y[%i, %k] : memref<18x300xf32>
    }
  }
  loop.return
}
func.func @main(%x: memref<18x300xf32>) -> memref<18x300xf32> {
  %s = device.default_stream
  %sum = device.alloc : memref<18xf32>
  %y = device.alloc : memref<18x300xf32>
  device.launch @k(%x, %sum, %y) on %s : memref<18x300xf32>, memref<18xf32>, memref<18x300xf32>
  device.synchronize %s
  device.free %sum : memref<18xf32>
  func.return %y : memref<18x300xf32>
}
"""


@pytest.mark.parametrize("width", [4, 8])
def test_rows_in_lanes_with_an_inner_nest_as_the_rows_one_by_one(width: int) -> None:
    """Rows centred on their means: the sums in lanes, stored as one vector,
    the inner nest run once over the tile's rows reading them back: the
    bits of the plain nest (18 rows: two remainder rows)."""
    x = np.random.default_rng(5).normal(size=(ROWS, 300)).astype(np.float32)
    outs = []
    for pipeline in ("block-sums", f"vectorize{{width={width}}},block-sums"):
        module = parse_module(make_context(), CENTRE_ROWS, "centre.mlir")
        run_pipeline(make_context(), module, pipeline)
        if pipeline.startswith("vectorize"):
            assert "vector.shuffle" in str(module)  # the rows did become lanes
        (out,) = LoopModule(module).call("main", [x])
        outs.append(out)
    np.testing.assert_array_equal(outs[0].view(np.uint32), outs[1].view(np.uint32))
    np.testing.assert_allclose(outs[1], x - x.mean(axis=1, keepdims=True), atol=1e-5)


LAYER_NORM = """
func.func public @main(%x: tensor<17x300xf32>, %g: tensor<300xf32>) -> tensor<17x300xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<300.0> : tensor<17xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<17x300xf32>, tensor<f32>) -> tensor<17xf32>
  %m = stablehlo.divide %s, %n : tensor<17xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<17xf32>) -> tensor<17x300xf32>
  %d = stablehlo.subtract %x, %mb : tensor<17x300xf32>
  %q = stablehlo.multiply %d, %d : tensor<17x300xf32>
  %v = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<17x300xf32>, tensor<f32>) -> tensor<17xf32>
  %var = stablehlo.divide %v, %n : tensor<17xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<17xf32>
  %ve = stablehlo.add %var, %eps : tensor<17xf32>
  %r = stablehlo.rsqrt %ve : tensor<17xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<17xf32>) -> tensor<17x300xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<300xf32>) -> tensor<17x300xf32>
  %o = stablehlo.multiply %d, %rb : tensor<17x300xf32>
  %y = stablehlo.multiply %o, %gb : tensor<17x300xf32>
  return %y : tensor<17x300xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_cpu_layer_norm_rows_in_lanes_equal_the_row_left_over(threads: int) -> None:
    """A layer norm on the cpu target: its mean's and variance's sums are
    row lanes and the normalizing nest runs per row over each tile; given
    row 0's data, the remainder row (the 17th, scalar code) gives row 0's
    bits."""
    rng = np.random.default_rng(6)
    x = rng.normal(size=(17, 300)).astype(np.float32)
    g = rng.normal(size=300).astype(np.float32)
    x[16] = x[0]
    options = CompileOptions(threads=threads)
    out = xlir.compile(LAYER_NORM, target="cpu", options=options)(x, g)
    np.testing.assert_array_equal(out[16].view(np.uint32), out[0].view(np.uint32))
    d = x - x.mean(axis=1, keepdims=True)
    want = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * g
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
