"""Heavy-op kernels (lowering/kernels/) against the HLO interpreter: each
program, one unfused op, runs on random inputs at the HLO level and after
`assign-buffers,hlo-to-loop` on the loop interpreter; the outputs agree."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.evaluator.hlo.types import dtype_of

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module

LOWER = "assign-buffers,hlo-to-loop"


def random_inputs(text: str, seed: int) -> list[np.ndarray]:
    module = parse_module(make_context(), text, "case.mlir")
    main = next(op for op in module.ops if getattr(op, "sym_name", None).data == "main")  # pyright: ignore[reportOptionalMemberAccess]
    rng = np.random.default_rng(seed)
    arrays = []
    for type_ in main.function_type.inputs:  # pyright: ignore[reportAttributeAccessIssue]
        dtype = dtype_of(type_)
        shape = tuple(type_.get_shape())
        if dtype.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "b":
            arrays.append(rng.random(shape) < 0.5)
        else:
            arrays.append(rng.integers(-3, 9, shape).astype(dtype))
    return arrays


def run_both(text: str, seed: int = 0, inputs: list[np.ndarray] | None = None):
    arrays = inputs if inputs is not None else random_inputs(text, seed)
    expected = xlir.compile(text, pipeline="")(*arrays)
    lowered = xlir.compile(text, pipeline=LOWER)
    assert type(lowered).__name__ == "DeviceScheduleExecutable"
    got = lowered(*arrays)
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    return list(zip(expected, got, strict=True))


def check(text: str, rtol: float = 1e-5, seed: int = 0, inputs=None) -> None:
    for want, have in run_both(text, seed, inputs):
        assert have.shape == want.shape and have.dtype == want.dtype
        np.testing.assert_allclose(have, want, rtol=rtol, atol=rtol)


def single(op: str, args: str, result: str) -> str:
    return f"func.func @main({args}) -> {result} {{\n  %r = {op}\n  return %r : {result}\n}}"


# --- dot_general ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("numbers", "lhs", "rhs", "out"),
    [
        ("contracting_dims = [1] x [0]", "8x5", "5x7", "8x7"),
        ("contracting_dims = [0] x [1]", "5x8", "7x5", "8x7"),
        (
            "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
            "3x4x5",
            "3x5x6",
            "3x4x6",
        ),
        (
            "batching_dims = [1] x [2], contracting_dims = [0, 2] x [0, 1]",
            "2x3x4",
            "2x4x3x5",
            "3x5",
        ),
    ],
)
def test_dot_general(numbers: str, lhs: str, rhs: str, out: str):
    check(
        single(
            f"stablehlo.dot_general %a, %b, {numbers} : "
            f"(tensor<{lhs}xf32>, tensor<{rhs}xf32>) -> tensor<{out}xf32>",
            f"%a: tensor<{lhs}xf32>, %b: tensor<{rhs}xf32>",
            f"tensor<{out}xf32>",
        )
    )


def test_dot_general_integers():
    check(
        single(
            "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            "(tensor<4x6xi32>, tensor<6x3xi32>) -> tensor<4x3xi32>",
            "%a: tensor<4x6xi32>, %b: tensor<6x3xi32>",
            "tensor<4x3xi32>",
        ),
        rtol=0,
    )


# --- reduce, gather, dynamic_slice, iota ---------------------------------------------

ARGMAX = """
func.func @main(%x: tensor<5x7xf32>, %i: tensor<5x7xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%i init: %zero) across dimensions = [1] :
      (tensor<5x7xf32>, tensor<5x7xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %c : tensor<i1>, tensor<f32>
    %j = stablehlo.select %gt, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
"""


def test_variadic_reduce_argmax():
    check(ARGMAX, rtol=0)


def test_gather_rows():
    check(
        single(
            '"stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], '
            "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
            "slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<4x1xi32>) -> tensor<4x6xf32>",
            "%x: tensor<10x6xf32>, %i: tensor<4x1xi32>",
            "tensor<4x6xf32>",
        ),
        rtol=0,
    )


def test_dynamic_slice_clamps():
    text = single(
        "stablehlo.dynamic_slice %x, %s, %t, sizes = [3, 4] : "
        "(tensor<6x9xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>",
        "%x: tensor<6x9xf32>, %s: tensor<i32>, %t: tensor<i32>",
        "tensor<3x4xf32>",
    )
    x = np.arange(54, dtype=np.float32).reshape(6, 9)
    for s, t in [(1, 2), (-4, 100), (5, 6)]:
        check(text, rtol=0, inputs=[x, np.int32(s), np.int32(t)])


def test_iota():
    check(
        "func.func @main() -> tensor<3x4xf32> {\n"
        "  %r = stablehlo.iota dim = 1 : tensor<3x4xf32>\n"
        "  return %r : tensor<3x4xf32>\n}",
        rtol=0,
    )


# --- convolution ------------------------------------------------------------------


def conv(
    layout: str,
    lhs: str,
    rhs: str,
    out: str,
    window: str = "",
    groups: str = "feature_group_count = 1 : i64, batch_group_count = 1 : i64",
    element: str = "f32",
) -> str:
    return single(
        f"stablehlo.convolution(%a, %b) dim_numbers = {layout}, window = {{{window}}} "
        f"{{{groups}}} : (tensor<{lhs}x{element}>, tensor<{rhs}x{element}>) -> "
        f"tensor<{out}x{element}>",
        f"%a: tensor<{lhs}x{element}>, %b: tensor<{rhs}x{element}>",
        f"tensor<{out}x{element}>",
    )


@pytest.mark.parametrize(
    "text",
    [
        conv(
            "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", "2x6x7x3", "3x3x3x4", "2x4x5x4"
        ),
        conv(
            "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
            "1x2x7x6",
            "3x2x3x2",
            "1x3x4x6",
            "stride = [2, 1], pad = [[1, 2], [0, 1]]",
        ),
        conv(
            "[b, 0, f]x[0, i, o]->[b, 0, f]",
            "2x5x2",
            "3x2x3",
            "2x11x3",
            "pad = [[2, 2]], lhs_dilate = [2]",
        ),
        conv(
            "[b, 0, f]x[0, i, o]->[b, 0, f]",
            "2x9x2",
            "3x2x3",
            "2x5x3",
            "rhs_dilate = [2]",
        ),
        conv(
            "[b, 0, f]x[0, i, o]->[b, 0, f]",
            "2x6x4",
            "3x2x6",
            "2x4x6",
            "",
            "feature_group_count = 2 : i64, batch_group_count = 1 : i64",
        ),
        conv(
            "[b, 0, f]x[0, i, o]->[b, 0, f]",
            "4x6x3",
            "3x3x4",
            "2x4x4",
            "",
            "feature_group_count = 1 : i64, batch_group_count = 2 : i64",
        ),
        conv(
            "[f, 0, b]x[i, o, 0]->[0, b, f]",
            "3x6x2",
            "3x4x2",
            "5x2x4",
            "reverse = [true]",
        ),
        conv(
            "[b, 0, f]x[0, i, o]->[b, 0, f]",
            "2x5x2",
            "3x2x3",
            "2x3x3",
            "",
            element="f16",
        ),
    ],
)
def test_convolution(text: str):
    check(text, rtol=1e-2 if "f16" in text else 1e-5)


# --- reduce_window --------------------------------------------------------------


def reduce_window(
    reducer: str, init: str, attrs: str, in_shape: str, out_shape: str
) -> str:
    return f"""
func.func @main(%x: tensor<{in_shape}xf32>) -> tensor<{out_shape}xf32> {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.{reducer} %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }}) : (tensor<{in_shape}xf32>, tensor<f32>) -> tensor<{out_shape}xf32>
  return %r : tensor<{out_shape}xf32>
}}
"""


@pytest.mark.parametrize(
    "text",
    [
        reduce_window(
            "maximum",
            "0xFF800000",
            "window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>, "
            "padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>",
            "4x9",
            "4x5",
        ),
        reduce_window(
            "add",
            "0.0",
            "window_dimensions = array<i64: 2, 2>, window_dilations = array<i64: 1, 2>, "
            "base_dilations = array<i64: 2, 1>",
            "4x6",
            "6x4",
        ),
    ],
)
def test_reduce_window(text: str):
    check(text)


DUS_IN_PLACE = """
func.func @main(%x: tensor<6x8xf32>, %u: tensor<2x3xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<6x8xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.2"} : (tensor<6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%1: tensor<6x8xf32>):
    %e = stablehlo.exponential %1 : tensor<6x8xf32>
    hlo.yield %e : tensor<6x8xf32>
  }
  %r = stablehlo.dynamic_update_slice %0, %u, %s, %t : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}
"""


@pytest.mark.parametrize(("s", "t"), [(1, 2), (-3, 7), (5, 100)])
def test_dynamic_update_slice_in_place(s: int, t: int):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 8)).astype(np.float32)
    u = rng.standard_normal((2, 3)).astype(np.float32)
    check(DUS_IN_PLACE, inputs=[x, u, np.int32(s), np.int32(t)])
