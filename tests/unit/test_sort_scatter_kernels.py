"""The sort and scatter kernels (lowering/kernels/sort.py, scatter.py) against
the HLO interpreter: each program runs at the HLO level and lowered on the
loop interpreter, and the outputs agree exactly."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.targets.target import CompileOptions

import xlir
from tests.unit.test_kernels_numerics import check, run_both, single

# --- sort -------------------------------------------------------------------------


def sort(
    shape: str,
    dimension: int,
    element: str = "f32",
    direction: str = "LT",
    compare_type: str = "",
) -> str:
    """One-input sort whose comparator is one compare."""
    tensor = f"tensor<{shape}x{element}>"
    scalar = f"tensor<{element}>"
    suffix = f", {compare_type}" if compare_type else ""
    return single(
        f'"stablehlo.sort"(%x) <{{dimension = {dimension} : i64}}> ({{\n'
        f"  ^bb0(%a: {scalar}, %b: {scalar}):\n"
        f"    %c = stablehlo.compare {direction}, %a, %b{suffix} : "
        f"({scalar}, {scalar}) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        f"  }}) : ({tensor}) -> {tensor}",
        f"%x: {tensor}",
        tensor,
    )


def keys_and_values(shape: str, dimension: int, direction: str = "LT") -> str:
    """A stable sort of i32 keys carrying f32 values."""
    keys, values = f"tensor<{shape}xi32>", f"tensor<{shape}xf32>"
    return f"""
func.func @main(%k: {keys}, %v: {values}) -> ({keys}, {values}) {{
  %r:2 = "stablehlo.sort"(%k, %v) <{{dimension = {dimension} : i64, is_stable = true}}> ({{
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = stablehlo.compare {direction}, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) : ({keys}, {values}) -> ({keys}, {values})
  return %r#0, %r#1 : {keys}, {values}
}}
"""


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 33])
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_sort_1d(length: int, direction: str):
    """Every pass count (odd and even) and every shape of the last run."""
    check(sort(str(length), 0, direction=direction), rtol=0)


@pytest.mark.parametrize(
    ("shape", "dimension"),
    [
        ("6x5", 0),
        ("6x5", 1),
        ("4x1", 1),
        ("1x7", 0),
        ("3x5x4", 0),
        ("3x5x4", 1),
        ("3x5x4", 2),
        ("3x5x4", -1),
        ("2x9x3", -2),
    ],
)
def test_sort_each_dimension(shape: str, dimension: int):
    check(sort(shape, dimension), rtol=0)
    check(sort(shape, dimension, "i32", "GT", "SIGNED"), rtol=0)


@pytest.mark.parametrize(
    ("shape", "dimension", "direction"),
    [("17", 0, "LT"), ("17", 0, "GT"), ("3x11", 1, "LT"), ("10x3", 0, "GT")],
)
def test_sort_is_stable(shape: str, dimension: int, direction: str):
    """Keys in -3..8 repeat: the values of equal keys keep their order."""
    check(keys_and_values(shape, dimension, direction), rtol=0)


def test_sort_bool_keys():
    check(sort("2x9", 1, "i1"), rtol=0)


def test_sort_total_order_places_nan_and_signed_zeros():
    nan = np.float32(np.nan)
    row = [nan, -0.0, 0.0, np.inf, -np.inf, 1.0, -nan, 0.0, -0.0, -2.5, nan]
    x = np.array([row, row[::-1]], dtype=np.float32)
    for direction in ("LT", "GT"):
        text = sort("2x11", 1, "f32", direction, "TOTALORDER")
        for want, have in run_both(text, inputs=[x]):
            np.testing.assert_array_equal(have.view(np.int32), want.view(np.int32))


TWO_KEYS = """
func.func @main(%a: tensor<4x12xi32>, %b: tensor<4x12xi32>, %c: tensor<4x12xf32>) -> (tensor<4x12xi32>, tensor<4x12xi32>, tensor<4x12xf32>) {
  %r:3 = "stablehlo.sort"(%a, %b, %c) <{dimension = 1 : i64}> ({
  ^bb0(%x0: tensor<i32>, %y0: tensor<i32>, %x1: tensor<i32>, %y1: tensor<i32>, %x2: tensor<f32>, %y2: tensor<f32>):
    %gt = stablehlo.compare GT, %x0, %y0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %x0, %y0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %x1, %y1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %r = stablehlo.or %gt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<4x12xi32>, tensor<4x12xi32>, tensor<4x12xf32>) -> (tensor<4x12xi32>, tensor<4x12xi32>, tensor<4x12xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x12xi32>, tensor<4x12xi32>, tensor<4x12xf32>
}
"""


def test_sort_general_comparator():
    """First key descending, then second ascending; the third input rides along."""
    check(TWO_KEYS, rtol=0)


UNSIGNED_SORT = """
func.func @main(%y: tensor<3x9xi8>) -> tensor<3x9xi8> {
  %x = stablehlo.convert %y : (tensor<3x9xi8>) -> tensor<3x9xui8>
  %r = "stablehlo.sort"(%x) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %c = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<3x9xui8>) -> tensor<3x9xui8>
  %z = stablehlo.convert %r : (tensor<3x9xui8>) -> tensor<3x9xi8>
  return %z : tensor<3x9xi8>
}
"""


def check_fused(text: str, inputs: list[np.ndarray]) -> None:
    """Like `check`, with `fuse` first: unsigned tensors stay inside the
    program (the lowered executable takes and returns signless buffers), and
    the converts around them need a fusion to lower."""
    want = xlir.compile(text, pipeline="")(*inputs)
    have = xlir.compile(text, pipeline="fuse,assign-buffers,hlo-to-loop")(*inputs)
    np.testing.assert_array_equal(have, want)


def test_sort_unsigned():
    x = np.random.default_rng(1).integers(-128, 128, (3, 9)).astype(np.int8)
    check_fused(UNSIGNED_SORT, [x])


@settings(max_examples=30, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
    data=st.data(),
    direction=st.sampled_from(["LT", "GT"]),
    element=st.sampled_from(["f32", "i32"]),
    seed=st.integers(0, 2**16),
)
def test_sort_random(
    shape: list[int], data: st.DataObject, direction: str, element: str, seed: int
):
    dimension = data.draw(st.integers(-len(shape), len(shape) - 1))
    compare_type = "SIGNED" if element == "i32" else "FLOAT"
    text = sort("x".join(map(str, shape)), dimension, element, direction, compare_type)
    check(text, rtol=0, seed=seed)


@pytest.mark.parametrize(
    "shape",
    [
        "2",
        "3",
        "4",
        "5",
        "7",
        "8",
        "16",
        "17",
        "33",
        "64",
        "1000",
        "3x100",
        "4x256",
        "100x5",
        "9x6",
    ],
)
@pytest.mark.parametrize("direction", ["LT", "GT"])
@pytest.mark.parametrize("routine", [False, True])
def test_sort_pass_loop_on_cpu(shape: str, direction: str, routine: bool):
    """Blocks of 2 or 4 sorted by a network (a shorter last block by a
    smaller one), then merge passes in a loop of runtime run widths, whole
    pairs jammed and threaded on the cpu target, results to scratch and back
    through one shared chunk: keys with many ties carry their values, every
    row along the last dimension, exactly as a stable sort (the last pair
    of a pass is short, a lone run or none). The same with the sort routine
    (`routine`: the cpu target's default), which sorts these keys."""
    dims = tuple(int(d) for d in shape.split("x"))
    rng = np.random.default_rng(len(shape))
    keys = rng.integers(-5, 5, dims).astype(np.int32)
    values = rng.standard_normal(dims).astype(np.float32)
    text = keys_and_values(shape, len(dims) - 1, direction)
    options = CompileOptions(sort_routines=routine)
    got_keys, got_values = xlir.compile(text, target="cpu", options=options)(
        keys, values
    )
    order = np.argsort(keys if direction == "LT" else -keys, axis=-1, kind="stable")
    np.testing.assert_array_equal(got_keys, np.take_along_axis(keys, order, -1))
    np.testing.assert_array_equal(got_values, np.take_along_axis(values, order, -1))


@pytest.mark.parametrize("shape", ["17", "1000", "4x256"])
def test_sort_on_one_thread_shares_its_merge_nests(shape: str):
    """Without threads the two merge nests of a pair of passes (results to
    scratch and back) are one chunk both call: the same stable sort (of
    the inline kernel: the sort routine off)."""
    dims = tuple(int(d) for d in shape.split("x"))
    rng = np.random.default_rng(len(shape))
    keys = rng.integers(-5, 5, dims).astype(np.int32)
    values = rng.standard_normal(dims).astype(np.float32)
    text = keys_and_values(shape, len(dims) - 1, "LT")
    options = CompileOptions(threads=1, sort_routines=False)
    executable = xlir.compile(text, target="cpu", options=options)
    got_keys, got_values = executable(keys, values)
    order = np.argsort(keys, axis=-1, kind="stable")
    np.testing.assert_array_equal(got_keys, np.take_along_axis(keys, order, -1))
    np.testing.assert_array_equal(got_values, np.take_along_axis(values, order, -1))
    chunks = set(re.findall(r'define [^@]*@"(sort_1\.chunk\d+)"', executable.llvm_ir))
    assert chunks
    for chunk in chunks:
        assert executable.llvm_ir.count(f'call ccc void @"{chunk}"(') == 2


# --- scatter ----------------------------------------------------------------------

ADD = "%s = stablehlo.add %a, %b : {t}"
MAX = "%s = stablehlo.maximum %a, %b : {t}"
TIMES_TWO_PLUS = (
    "%two = stablehlo.constant dense<2.0> : {t}\n"
    "    %m = stablehlo.multiply %a, %two : {t}\n"
    "    %s = stablehlo.add %m, %b : {t}"
)


def scatter(
    numbers: str,
    operand: str,
    indices: str,
    updates: str,
    body: str | None = ADD,
    element: str = "f32",
    index_type: str = "i32",
) -> str:
    """One-operand scatter; `body` computes `%s` from `%a` (old) and `%b`
    (update); None returns the update (replace)."""
    t = f"tensor<{element}>"
    x = f"tensor<{operand}x{element}>"
    i = f"tensor<{indices}x{index_type}>"
    u = f"tensor<{updates}x{element}>" if updates else f"tensor<{element}>"
    lines = "" if body is None else "    " + body.format(t=t) + "\n"
    returned = "%b" if body is None else "%s"
    return single(
        f'"stablehlo.scatter"(%x, %i, %u) <{{scatter_dimension_numbers = '
        f"#stablehlo.scatter<{numbers}>}}> ({{\n"
        f"  ^bb0(%a: {t}, %b: {t}):\n{lines}"
        f"    stablehlo.return {returned} : {t}\n"
        f"  }}) : ({x}, {i}, {u}) -> {x}",
        f"%x: {x}, %i: {i}, %u: {u}",
        x,
    )


ROWS = (
    "update_window_dims = [1], inserted_window_dims = [0], "
    "scatter_dims_to_operand_dims = [0], index_vector_dim = 1"
)
ELEMENTS = (
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
    "index_vector_dim = 1"
)


def floats(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def indices(values: list) -> np.ndarray:
    return np.array(values, dtype=np.int32)


@pytest.mark.parametrize("body", [ADD, MAX, TIMES_TWO_PLUS, None])
def test_scatter_elements_with_duplicates_and_out_of_bounds(body: str | None):
    """Index 2 three times (in order: the body need not commute), -1 and 10
    outside the operand."""
    text = scatter(ELEMENTS, "10", "7x1", "7", body)
    at = indices([[2], [0], [2], [-1], [9], [10], [2]])
    check(text, rtol=0, inputs=[floats(10), at, floats(7, seed=1)])


@pytest.mark.parametrize("body", [ADD, None])
def test_scatter_rows(body: str | None):
    text = scatter(ROWS, "6x4", "5x1", "5x4", body)
    at = indices([[4], [1], [6], [4], [-2]])
    check(text, rtol=0, inputs=[floats(6, 4), at, floats(5, 4, seed=1)])


def test_scatter_2d_windows_partly_outside_are_skipped():
    """2x3 windows at (row, column) starts: one fits, one crosses the last
    column, one the last row, one the first; the first and last overlap."""
    numbers = (
        "update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], "
        "index_vector_dim = 1"
    )
    text = scatter(numbers, "6x5", "5x2", "5x2x3", TIMES_TWO_PLUS)
    at = indices([[1, 1], [4, 3], [5, 0], [-1, 2], [2, 2]])
    check(text, rtol=0, inputs=[floats(6, 5), at, floats(5, 2, 3, seed=1)])


def test_scatter_index_vector_dim_first():
    """Index vectors along dim 0 of the indices: column k is one start."""
    numbers = (
        "update_window_dims = [1], inserted_window_dims = [0, 1], "
        "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 0"
    )
    text = scatter(numbers, "4x5x3", "2x6", "6x3", ADD)
    at = indices([[0, 3, 3, 1, 4, 0], [4, 0, 0, 2, 1, -1]])
    check(text, rtol=0, inputs=[floats(4, 5, 3), at, floats(6, 3, seed=1)])


def test_scatter_implicit_index_vector():
    """index_vector_dim equal to the indices' rank: each index is a scalar."""
    numbers = (
        "update_window_dims = [1], inserted_window_dims = [0], "
        "scatter_dims_to_operand_dims = [0], index_vector_dim = 1"
    )
    text = scatter(numbers, "5x3", "4", "4x3", MAX)
    check(text, rtol=0, inputs=[floats(5, 3), indices([3, 0, 3, 5]), floats(4, 3)])


def test_scatter_batch_like_indices():
    """Two scatter dims in the indices and the updates, the window last."""
    text = scatter(
        "update_window_dims = [2], inserted_window_dims = [0], "
        "scatter_dims_to_operand_dims = [0], index_vector_dim = 2",
        "5x4",
        "2x3x1",
        "2x3x4",
        ADD,
    )
    at = indices([[[1], [4], [1]], [[0], [1], [7]]])
    check(text, rtol=0, inputs=[floats(5, 4), at, floats(2, 3, 4, seed=1)])


def test_scatter_window_dim_before_scatter_dim():
    """The window is the updates' first dim: updates apply in row-major
    order over the updates, so overlapping windows interleave (replace)."""
    numbers = (
        "update_window_dims = [0], scatter_dims_to_operand_dims = [0], "
        "index_vector_dim = 1"
    )
    text = scatter(numbers, "8", "4x1", "3x4", None)
    at = indices([[0], [1], [6], [2]])
    check(text, rtol=0, inputs=[floats(8), at, floats(3, 4, seed=1)])


def test_scatter_scalar_update():
    numbers = (
        "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
        "index_vector_dim = 0"
    )
    text = scatter(numbers, "5", "1", "", ADD)
    for start in (3, 5):
        check(text, rtol=0, inputs=[floats(5), indices([start]), np.float32(2.5)])


def test_scatter_integers():
    text = scatter(ROWS, "4x3", "6x1", "6x3", MAX, element="i32")
    check(text, rtol=0, seed=3)


def test_scatter_batching_dims():
    """input_batching_dims: the operand's dim 0 is the indices' batch dim 0."""
    numbers = (
        "update_window_dims = [2], inserted_window_dims = [1], "
        "input_batching_dims = [0], scatter_indices_batching_dims = [0], "
        "scatter_dims_to_operand_dims = [1], index_vector_dim = 2"
    )
    text = scatter(numbers, "3x4x2", "3x2x1", "3x2x2", ADD)
    at = indices([[[2], [2]], [[0], [3]], [[4], [1]]])
    check(text, rtol=0, inputs=[floats(3, 4, 2), at, floats(3, 2, 2, seed=1)])


VARIADIC = """
func.func @main(%x: tensor<5xf32>, %y: tensor<5xi32>, %i: tensor<4x1xi32>, %u: tensor<4xf32>, %v: tensor<4xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    %t = stablehlo.maximum %b, %d : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) : (tensor<5xf32>, tensor<5xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
"""


def test_scatter_variadic():
    at = indices([[0], [2], [0], [5]])
    ints = np.array([4, 9, 6, 1], dtype=np.int32)
    x, y = floats(5), np.arange(5, dtype=np.int32)
    check(VARIADIC, rtol=0, inputs=[x, y, at, floats(4, seed=1), ints])


IN_PLACE = """
func.func @main(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<6x4xf32> {
  %0 = hlo.fusion kind = loop (%x) {name = "fusion.1"} : (tensor<6x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%1: tensor<6x4xf32>):
    %e = stablehlo.exponential %1 : tensor<6x4xf32>
    hlo.yield %e : tensor<6x4xf32>
  }
  %r = "stablehlo.scatter"(%0, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}
"""


def test_scatter_in_place():
    """The plan puts the result in the fusion's buffer: no copy, same values."""
    at = indices([[5], [0], [5]])
    check(IN_PLACE, inputs=[floats(6, 4), at, floats(3, 4, seed=1)])


UNSIGNED_INDICES = """
func.func @main(%x: tensor<300xf32>, %j: tensor<4x1xi8>, %u: tensor<4xf32>) -> tensor<300xf32> {
  %i = stablehlo.convert %j : (tensor<4x1xi8>) -> tensor<4x1xui8>
  %r = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<300xf32>, tensor<4x1xui8>, tensor<4xf32>) -> tensor<300xf32>
  func.return %r : tensor<300xf32>
}
"""


def test_scatter_unsigned_indices_are_not_negative():
    """ui8 index 200 (the bits of i8 -56) is inside a 300-element operand."""
    at = np.array([[-56], [3], [-1], [0]], dtype=np.int8)
    check_fused(UNSIGNED_INDICES, [floats(300), at, floats(4, seed=1)])


def test_scatter_empty_index_vectors_all_hit_one_element():
    """Index vectors of length 0: every update combines into element 0, so
    the walk must read it again on each step rather than once before."""
    numbers = "inserted_window_dims = [0], index_vector_dim = 1"
    text = scatter(numbers, "4", "3x0", "3", TIMES_TWO_PLUS)
    at = np.zeros((3, 0), dtype=np.int32)
    check(text, rtol=0, inputs=[floats(4), at, floats(3, seed=1)])
