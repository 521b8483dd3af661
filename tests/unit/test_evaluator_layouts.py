"""The evaluator on operands that are not row-major in memory (a transpose's
result, a sort's, a Fortran-ordered argument): a kernel that writes through a
flattened view must write into its result, not into a copy."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

INDICES = np.array([[0, 1], [1, 2], [0, 1]], np.int32)
UPDATES = np.array([10, 100, 1000], np.float32)
BODIES = {
    "overwrite": ("stablehlo.return %b0 : tensor<f32>", 1),
    "add": (
        "%s = stablehlo.add %a0, %b0 : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>",
        1,
    ),
    "variadic": (
        "%s = stablehlo.add %a0, %b0 : tensor<f32>\n"
        "    %p = stablehlo.multiply %a1, %b1 : tensor<f32>\n"
        "    stablehlo.return %s, %p : tensor<f32>, tensor<f32>",
        2,
    ),
}
"""Scatter bodies: each kind of the evaluator's scatter kernel."""


def scatter(body: str, results: int, transpose: bool) -> str:
    """Three points scattered into %x (2x3), or into the transpose of %x (3x2)."""
    operand = "%t" if transpose else "%x"
    x_type = "tensor<3x2xf32>" if transpose else "tensor<2x3xf32>"
    transposed = (
        "%t = stablehlo.transpose %x, dims = [1, 0] : "
        "(tensor<3x2xf32>) -> tensor<2x3xf32>"
        if transpose
        else ""
    )
    scalars = [f"%a{k}: tensor<f32>" for k in range(results)]
    scalars += [f"%b{k}: tensor<f32>" for k in range(results)]
    types = ", ".join(["tensor<2x3xf32>"] * results)
    update_types = ", ".join(["tensor<3xf32>"] * results)
    return f"""
func.func @main(%x: {x_type}, %i: tensor<3x2xi32>, %u: tensor<3xf32>) -> tensor<2x3xf32> {{
  {transposed}
  %r:{results} = "stablehlo.scatter"({", ".join([operand] * results)}, %i, {", ".join(["%u"] * results)}) <{{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}}> ({{
  ^bb0({", ".join(scalars)}):
    {body}
  }}) : ({types}, tensor<3x2xi32>, {update_types}) -> ({types})
  return %r#0 : tensor<2x3xf32>
}}"""


def expected(operand: np.ndarray, overwrite: bool) -> np.ndarray:
    out = operand.copy()
    for (i, j), u in zip(INDICES, UPDATES, strict=True):
        out[i, j] = u if overwrite else out[i, j] + u
    return out


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("pipeline", ["", None])
def test_scatter_into_a_transpose(body: str, pipeline: str | None):
    """The transpose's result is a strided view of %x."""
    text = scatter(*BODIES[body], transpose=True)
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    options = {} if pipeline is None else {"pipeline": pipeline}
    got = xlir.compile(text, **options)(x, INDICES, UPDATES)
    np.testing.assert_array_equal(got, expected(x.T, body == "overwrite"))


@pytest.mark.parametrize("body", BODIES)
def test_scatter_into_a_fortran_ordered_argument(body: str):
    text = scatter(*BODIES[body], transpose=False)
    x = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    got = xlir.compile(text, pipeline="")(x, INDICES, UPDATES)
    np.testing.assert_array_equal(got, expected(x, body == "overwrite"))


def test_scatter_into_a_sort_result():
    """The reproducer of the fuzzers' finding: a sort's results are strided."""
    text = """
func.func @main(%x: tensor<2x3xf32>, %i: tensor<3x2xi32>, %u: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "stablehlo.scatter"(%s, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<3x2xi32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}"""
    x = np.array([[5, -1, 7], [2, 9, -3]], np.float32)
    want = -np.sort(-x, axis=0)
    for (i, j), u in zip(INDICES, -UPDATES, strict=True):
        want[i, j] = min(want[i, j], u)
    got = xlir.compile(text, pipeline="")(x, INDICES, -UPDATES)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        xlir.compile(text, target="cpu")(x, INDICES, -UPDATES), want
    )
