"""Tensors with no elements (`tensor<0xf32>`, `tensor<3x0xf32>`) through every
op, on every target, against the evaluator: passes and lowerings must not
assume an element exists, and an empty operand still gives the right
non-empty results (a reduction's init, a dot over no terms, a pad's fill)."""

from __future__ import annotations

import numpy as np
import pytest

import xlir
from tests.conftest import runnable_targets

E = "tensor<3x0xf32>"
"""The empty operand most programs take as %x."""

REGION_ADD = """({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  })"""

PROGRAMS: dict[str, tuple[str, str, str]] = {
    # name: (arguments, result types, body returning %r)
    "negate": (f"%x: {E}", E, f"%r = stablehlo.negate %x : {E}"),
    "add_exp": (
        f"%x: {E}",
        E,
        f"%e = stablehlo.exponential %x : {E}\n  %r = stablehlo.add %e, %x : {E}",
    ),
    "compare_select": (
        f"%x: {E}",
        E,
        f"%c = stablehlo.compare LT, %x, %x : ({E}, {E}) -> tensor<3x0xi1>\n"
        f"  %r = stablehlo.select %c, %x, %x : tensor<3x0xi1>, {E}",
    ),
    "clamp_convert": (
        f"%x: {E}, %l: tensor<f32>",
        "tensor<3x0xi32>",
        f"%c = stablehlo.clamp %l, %x, %l : (tensor<f32>, {E}, tensor<f32>) -> {E}\n"
        f"  %r = stablehlo.convert %c : ({E}) -> tensor<3x0xi32>",
    ),
    "constant": (
        f"%x: {E}",
        E,
        f"%c = stablehlo.constant dense<1.0> : {E}\n  %r = stablehlo.add %c, %x : {E}",
    ),
    "iota": ("", "tensor<0x4xi32>", "%r = stablehlo.iota dim = 1 : tensor<0x4xi32>"),
    "broadcast_from_empty": (
        "%x: tensor<0xf32>",
        "tensor<2x0xf32>",
        "%r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<0xf32>) -> tensor<2x0xf32>",
    ),
    "broadcast_to_empty": (
        "%x: tensor<3xf32>",
        E,
        f"%r = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> {E}",
    ),
    "reshape_transpose_reverse": (
        f"%x: {E}",
        "tensor<0x3xf32>",
        "%t = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x0xf32>) -> tensor<0x3xf32>\n"
        "  %v = stablehlo.reverse %t, dims = [1] : tensor<0x3xf32>\n"
        "  %s = stablehlo.reshape %v : (tensor<0x3xf32>) -> tensor<3x0xf32>\n"
        "  %r = stablehlo.reshape %s : (tensor<3x0xf32>) -> tensor<0x3xf32>",
    ),
    "slice_to_empty": (
        "%x: tensor<4x3xf32>",
        "tensor<4x0xf32>",
        "%r = stablehlo.slice %x [0:4, 2:2] : (tensor<4x3xf32>) -> tensor<4x0xf32>",
    ),
    "empty_slice_of_slice": (
        "%x: tensor<3x3xf32>",
        "tensor<0x0xf32>",
        "%s = stablehlo.slice %x [0:3:2, 1:2:2] : (tensor<3x3xf32>) -> tensor<2x1xf32>\n"
        "  %r = stablehlo.slice %s [2:2:2, 1:1:1] : (tensor<2x1xf32>) -> tensor<0x0xf32>",
    ),
    "reduce_window_of_empty_padded": (
        "%x: tensor<0x2xf32>, %i: tensor<f32>",
        "tensor<2x2xf32>",
        f'%r = "stablehlo.reduce_window"(%x, %i) <{{window_dimensions = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>}}> {REGION_ADD} : (tensor<0x2xf32>, tensor<f32>) -> tensor<2x2xf32>',
    ),
    "pad_empty": (
        f"%x: {E}, %p: tensor<f32>",
        "tensor<4x2xf32>",
        f"%r = stablehlo.pad %x, %p, low = [1, 1], high = [0, 1], interior = [0, 3] : ({E}, tensor<f32>) -> tensor<4x2xf32>",
    ),
    "pad_to_empty": (
        "%x: tensor<3x1xf32>, %p: tensor<f32>",
        "tensor<4x0xf32>",
        "%r = stablehlo.pad %x, %p, low = [-1, -1], high = [-2, 0], interior = [2, 1] : (tensor<3x1xf32>, tensor<f32>) -> tensor<4x0xf32>",
    ),
    "concatenate_with_empty": (
        f"%x: {E}, %y: tensor<3x2xf32>",
        "tensor<3x4xf32>",
        f"%r = stablehlo.concatenate %y, %x, %y, dim = 1 : (tensor<3x2xf32>, {E}, tensor<3x2xf32>) -> tensor<3x4xf32>",
    ),
    "reduce_over_empty": (
        f"%x: {E}, %i: tensor<f32>",
        "tensor<3xf32>",
        f'%r = "stablehlo.reduce"(%x, %i) <{{dimensions = array<i64: 1>}}> {REGION_ADD} : ({E}, tensor<f32>) -> tensor<3xf32>',
    ),
    "reduce_of_empty": (
        f"%x: {E}, %i: tensor<f32>",
        "tensor<0xf32>",
        f'%r = "stablehlo.reduce"(%x, %i) <{{dimensions = array<i64: 0>}}> {REGION_ADD} : ({E}, tensor<f32>) -> tensor<0xf32>',
    ),
    "reduce_all_then_add": (
        f"%x: {E}, %i: tensor<f32>",
        "tensor<f32>",
        f'%s = "stablehlo.reduce"(%x, %i) <{{dimensions = array<i64: 0, 1>}}> {REGION_ADD} : ({E}, tensor<f32>) -> tensor<f32>\n'
        "  %r = stablehlo.add %s, %i : tensor<f32>",
    ),
    "reduce_window": (
        f"%x: {E}, %i: tensor<f32>",
        "tensor<2x0xf32>",
        f'%r = "stablehlo.reduce_window"(%x, %i) <{{window_dimensions = array<i64: 2, 1>}}> {REGION_ADD} : ({E}, tensor<f32>) -> tensor<2x0xf32>',
    ),
    "dot_over_nothing": (
        "%x: tensor<3x0xf32>, %y: tensor<0x2xf32>",
        "tensor<3x2xf32>",
        "%r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<3x0xf32>, tensor<0x2xf32>) -> tensor<3x2xf32>",
    ),
    "dot_empty_free": (
        "%x: tensor<0x4xf32>, %y: tensor<4x2xf32>",
        "tensor<0x2xf32>",
        "%r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<0x4xf32>, tensor<4x2xf32>) -> tensor<0x2xf32>",
    ),
    "dot_empty_batch": (
        "%x: tensor<4x0xf32>, %y: tensor<2x0xf32>",
        "tensor<0x4x2xf32>",
        "%r = stablehlo.dot_general %x, %y, batching_dims = [1] x [1], contracting_dims = [] x [] : (tensor<4x0xf32>, tensor<2x0xf32>) -> tensor<0x4x2xf32>",
    ),
    "gather_empty_indices": (
        "%x: tensor<4x3xf32>, %i: tensor<0x1xi32>",
        "tensor<0x3xf32>",
        '%r = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<0x1xi32>) -> tensor<0x3xf32>',
    ),
    "scatter_no_updates": (
        "%x: tensor<4x3xf32>, %i: tensor<0x1xi32>, %u: tensor<0x3xf32>",
        "tensor<4x3xf32>",
        f'%r = "stablehlo.scatter"(%x, %i, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> {REGION_ADD} : (tensor<4x3xf32>, tensor<0x1xi32>, tensor<0x3xf32>) -> tensor<4x3xf32>',
    ),
    "dynamic_slice_update": (
        f"%x: {E}, %k: tensor<i32>",
        E,
        f"%s = stablehlo.dynamic_slice %x, %k, %k, sizes = [2, 0] : ({E}, tensor<i32>, tensor<i32>) -> tensor<2x0xf32>\n"
        f"  %r = stablehlo.dynamic_update_slice %x, %s, %k, %k : ({E}, tensor<2x0xf32>, tensor<i32>, tensor<i32>) -> {E}",
    ),
    "dynamic_update_nothing": (
        f"%x: tensor<3x2xf32>, %u: {E}, %k: tensor<i32>",
        "tensor<3x2xf32>",
        f"%r = stablehlo.dynamic_update_slice %x, %u, %k, %k : (tensor<3x2xf32>, {E}, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>",
    ),
    "sort": (
        f"%x: {E}",
        E,
        '%r = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({\n'
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        f"  }}) : ({E}) -> {E}",
    ),
    "while_carrying_empty": (
        f"%x: {E}, %n: tensor<i32>",
        E,
        f"%w:2 = stablehlo.while(%i = %n, %v = %x) : tensor<i32>, {E}\n"
        "  cond {\n"
        "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c = stablehlo.compare GT, %i, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  } do {\n"
        "    %o = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %j = stablehlo.subtract %i, %o : tensor<i32>\n"
        f"    %u = stablehlo.negate %v : {E}\n"
        f"    stablehlo.return %j, %u : tensor<i32>, {E}\n"
        "  }\n"
        "  %r = stablehlo.add %w#1, %x : tensor<3x0xf32>",
    ),
    "case": (
        f"%x: {E}, %k: tensor<i32>",
        E,
        f'%r = "stablehlo.case"(%k) ({{\n'
        f"    %n = stablehlo.negate %x : {E}\n"
        f"    stablehlo.return %n : {E}\n"
        "  }, {\n"
        f"    stablehlo.return %x : {E}\n"
        f"  }}) : (tensor<i32>) -> {E}",
    ),
}


def program(name: str) -> str:
    arguments, result, body = PROGRAMS[name]
    return (
        f"func.func @main({arguments}) -> {result} {{\n  {body}\n"
        f"  return %r : {result}\n}}"
    )


def arguments(text: str) -> list[np.ndarray]:
    executable = xlir.compile(text, pipeline="")
    rng = np.random.default_rng(0)
    arrays = []
    for spec in executable.signature.arguments:
        if spec.dtype.kind == "f":
            arrays.append(rng.normal(size=spec.shape).astype(spec.dtype))
        else:
            arrays.append(np.full(spec.shape, 1, spec.dtype))
    return arrays


EXPECTED = {
    "pad_empty": lambda x, p: np.full((4, 2), p, np.float32),
    "concatenate_with_empty": lambda x, y: np.concatenate([y, y], axis=1),
    "reduce_over_empty": lambda x, i: np.full(3, i, np.float32),
    "reduce_window_of_empty_padded": lambda x, i: np.full((2, 2), 3 * i, np.float32),
    "reduce_all_then_add": lambda x, i: np.float32(2 * i),
    "dot_over_nothing": lambda x, y: np.zeros((3, 2), np.float32),
    "scatter_no_updates": lambda x, i, u: x,
    "dynamic_update_nothing": lambda x, u, k: x,
}
"""The non-empty results, as numpy computes them."""


@pytest.mark.parametrize("name", PROGRAMS)
def test_zero_size_on_every_target(name: str):
    text = program(name)
    arrays = arguments(text)
    reference = xlir.compile(text, pipeline="")(*arrays)
    if name in EXPECTED:
        np.testing.assert_array_equal(reference, EXPECTED[name](*arrays))
    for target in runnable_targets():
        got = xlir.compile(text, target=target)(*arrays)
        assert got.shape == reference.shape and got.dtype == reference.dtype, target
        np.testing.assert_array_equal(got, reference, err_msg=target)
