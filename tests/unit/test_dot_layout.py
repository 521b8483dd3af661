"""`dot-layout` changes no result: random dot_generals whose rhs contracts
its last dim (batch dims, several contracting and free dims, any operand
dim order) give the same outputs on the interpreter before and after the
pass, transposed or, for a GEMM routine, kept in place with their free
dims merged; and the cpu target's default pipeline runs it before `fuse`."""

from __future__ import annotations

from math import prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.data_movement import ReshapeOp, TransposeOp
from xlir.dialects.stablehlo.types import shape
from xlir.passes.hlo.dot_layout import DotLayoutPass
from xlir.targets.cpu.gemm_calls import GemmCallsPass
from xlir.targets.cpu.gemm_routine import MAX_K
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.target import CompileOptions

import xlir
from xlir.pass_manager import PIPELINES, expand, pipeline_text


def _tensor(dims: list[int], element: str) -> str:
    return f"tensor<{'x'.join(map(str, dims))}x{element}>"


@st.composite
def dots(draw: st.DrawFn) -> tuple[str, str]:
    """A dot_general's text whose rhs's last dim is contracting and whose
    lhs has at least 2 rows (of one, it reads each rhs element once and
    keeps it in place), and its element type."""
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    contract = draw(st.lists(st.integers(1, 4), min_size=1, max_size=2))
    lhs_free = draw(
        st.lists(st.integers(1, 3), min_size=1, max_size=2).filter(
            lambda free: prod(free) >= 2
        )
    )
    rhs_free = draw(st.lists(st.integers(2, 4), min_size=1, max_size=2))
    # Each operand's dims as (kind, index) in a drawn order.
    lhs_dims = draw(
        st.permutations(
            [("b", i) for i in range(len(batch))]
            + [("c", i) for i in range(len(contract))]
            + [("f", i) for i in range(len(lhs_free))]
        )
    )
    rhs_order = draw(
        st.permutations(
            [("b", i) for i in range(len(batch))]
            + [("c", i) for i in range(len(contract) - 1)]
            + [("f", i) for i in range(len(rhs_free))]
        )
    )
    rhs_dims = [*rhs_order, ("c", len(contract) - 1)]
    sizes = {"b": batch, "c": contract}

    def shape(dims: list[tuple[str, int]], free: list[int]) -> list[int]:
        return [sizes[k][i] if k in sizes else free[i] for k, i in dims]

    def positions(dims: list[tuple[str, int]], kind: str, count: int) -> str:
        return ", ".join(str(dims.index((kind, i))) for i in range(count))

    element = draw(st.sampled_from(["f32", "i32"]))
    lhs = _tensor(shape(lhs_dims, lhs_free), element)
    rhs = _tensor(shape(rhs_dims, rhs_free), element)
    # The result: batch dims, then each operand's free dims in dim order.
    result = _tensor(
        [
            *batch,
            *(lhs_free[i] for k, i in lhs_dims if k == "f"),
            *(rhs_free[i] for k, i in rhs_dims if k == "f"),
        ],
        element,
    )
    batching = (
        f"batching_dims = [{positions(lhs_dims, 'b', len(batch))}] x "
        f"[{positions(rhs_dims, 'b', len(batch))}], "
        if batch
        else ""
    )
    contracting = (
        f"contracting_dims = [{positions(lhs_dims, 'c', len(contract))}] x "
        f"[{positions(rhs_dims, 'c', len(contract))}]"
    )
    text = f"""
func.func @main(%a: {lhs}, %b: {rhs}) -> {result} {{
  %0 = stablehlo.dot_general %a, %b, {batching}{contracting} : ({lhs}, {rhs}) -> {result}
  func.return %0 : {result}
}}
"""
    return text, element


@settings(max_examples=40, deadline=None)
@given(dots(), st.integers(0, 2**32 - 1))
def test_random_dots_unchanged(case: tuple[str, str], seed: int) -> None:
    text, element = case
    before = xlir.parse_module(xlir.make_context(), text, "dot.mlir")
    after = before.clone()
    DotLayoutPass(min_elements=0).apply(Context(), after)
    after.verify()
    transposes = [op for op in after.walk() if isinstance(op, TransposeOp)]
    (dot,) = [op for op in after.walk() if isinstance(op, DotGeneralOp)]
    rhs = dot.rhs.owner
    while isinstance(rhs, ReshapeOp):  # the rhs's free or contracting dims merged
        rhs = rhs.operand.owner
    assert len(transposes) == 1 and rhs is transposes[0]
    rhs_rank = len(shape(dot.rhs.type))
    assert rhs_rank - 1 not in dot.dot_dimension_numbers.rhs_contracting_dimensions.data

    old = xlir.compile(before, target="interpreter")
    new = xlir.compile(after, target="interpreter")
    rng = np.random.default_rng(seed)
    arguments = [
        rng.normal(size=spec.shape).astype(spec.dtype)
        if element == "f32"
        else rng.integers(-50, 50, size=spec.shape).astype(spec.dtype)
        for spec in old.signature.arguments
    ]
    want, got = old(*arguments), new(*arguments)
    assert got.shape == want.shape and got.dtype == want.dtype
    if element == "f32":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


@st.composite
def in_place_dots(draw: st.DrawFn) -> str:
    """An unbatched f32 `A·Bᵀ` a GEMM routine reads in place: `[k, m]` or
    `[m, k]` times `[f1, ..., fr, k]`."""
    k = draw(st.integers(1, 5))
    m = draw(st.integers(2, 4))
    free = draw(st.lists(st.integers(2, 4), min_size=1, max_size=3))
    k_first = draw(st.booleans())
    lhs = _tensor([k, m] if k_first else [m, k], "f32")
    rhs = _tensor([*free, k], "f32")
    result = _tensor([m, *free], "f32")
    return f"""
func.func @main(%a: {lhs}, %b: {rhs}) -> {result} {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [{0 if k_first else 1}] x [{len(free)}] : ({lhs}, {rhs}) -> {result}
  func.return %0 : {result}
}}
"""


@settings(max_examples=30, deadline=None)
@given(in_place_dots(), st.integers(0, 2**32 - 1))
def test_rhs_kept_for_the_routine_unchanged(text: str, seed: int) -> None:
    """With a routine of 2-column panels, the rhs is read as it is (its
    free dims merged by a reshape), and the results are the same."""
    before = xlir.parse_module(xlir.make_context(), text, "dot.mlir")
    after = before.clone()
    DotLayoutPass(min_elements=0, routine_panel=2, routine_max_k=8).apply(
        Context(), after
    )
    after.verify()
    assert not [op for op in after.walk() if isinstance(op, TransposeOp)]
    (dot,) = [op for op in after.walk() if isinstance(op, DotGeneralOp)]
    assert len(shape(dot.rhs.type)) == 2
    assert dot.dot_dimension_numbers.rhs_contracting_dimensions.data == (1,)
    old = xlir.compile(before, target="interpreter")
    new = xlir.compile(after, target="interpreter")
    rng = np.random.default_rng(seed)
    arguments = [
        rng.normal(size=spec.shape).astype(np.float32)
        for spec in old.signature.arguments
    ]
    np.testing.assert_array_equal(new(*arguments), old(*arguments))


def test_cpu_pipeline_is_hlo_opt_with_layouts_before_fuse() -> None:
    """`int-dot-quads` comes first where the host has a byte dot product
    instruction (tests/e2e/test_int_dot_quads.py); an AOT triple's pipeline
    has none. Plain sorts are marked for the sort routine before fusion;
    convolutions that call the conv routine read their input unpadded
    again after it."""
    options = CompileOptions(triple="x86_64-unknown-linux-gnu")
    passes = expand(pipeline_text(CpuTarget().hlo_pipeline(options)))
    steps = [p.name for p in passes]
    hlo_opt = PIPELINES["hlo-opt"]
    fuse, decompose = hlo_opt.index("fuse"), hlo_opt.index("decompose")
    assert str(passes[0]) == "inline{inline-public=true}"
    assert str(passes[decompose]) == "decompose{keep-top-k=true}"
    assert steps == [
        *hlo_opt[: decompose + 1],
        "quant-to-math",
        "split-complex",
        *hlo_opt[decompose + 1 : fuse],
        "sort-routines",
        "int-dot-in-f32",
        "dot-layout",
        "conv-padding",
        "fuse",
        "unpad-convs",
        *hlo_opt[fuse + 1 :],
    ]


@pytest.mark.parametrize(
    "options",
    [
        CompileOptions(),
        CompileOptions(triple="riscv64-unknown-linux-gnu"),
        CompileOptions(library_calls=False),
        CompileOptions(bounds_check=True),
    ],
)
def test_cpu_dot_layout_knows_the_routine_where_dots_call_it(
    options: CompileOptions,
) -> None:
    """`dot-layout`'s routine panel is `gemm-calls`' (`2 * lanes`), and 0
    (the rhs always transposed) where dots call no routine."""
    target = CpuTarget()
    (layout,) = [
        p for p in target.hlo_pipeline(options) if isinstance(p, DotLayoutPass)
    ]
    calls = [p for p in target.loop_pipeline(options) if isinstance(p, GemmCallsPass)]
    if calls:
        (gemm,) = calls
        assert layout.routine_panel == 2 * gemm.tile()[1] > 0
        assert layout.routine_max_k == MAX_K
    else:
        assert layout.routine_panel == 0


def test_cpu_a_bt_matches_numpy() -> None:
    text = """
func.func @main(%a: tensor<16x256xf32>, %b: tensor<96x256xf32>) -> tensor<16x96xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<16x256xf32>, tensor<96x256xf32>) -> tensor<16x96xf32>
  func.return %0 : tensor<16x96xf32>
}
"""
    rng = np.random.default_rng(0)
    a = rng.normal(size=(16, 256)).astype(np.float32)
    b = rng.normal(size=(96, 256)).astype(np.float32)
    got = xlir.compile(text, target="cpu")(a, b)
    np.testing.assert_allclose(got, a @ b.T, rtol=1e-4, atol=1e-4)


def test_free_dim_before_contracting_dim_unchanged() -> None:
    """An unbatched rhs `[b, k, w, c]` read through its transpose to
    `[k, b, w, c]` (free dims merged) gives the interpreter's outputs."""
    text = """
func.func @main(%a: tensor<8x24xf32>, %b: tensor<2x8x5x3xf32>) -> tensor<24x2x5x3xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<8x24xf32>, tensor<2x8x5x3xf32>) -> tensor<24x2x5x3xf32>
  func.return %0 : tensor<24x2x5x3xf32>
}
"""
    before = xlir.parse_module(xlir.make_context(), text, "dot.mlir")
    after = before.clone()
    DotLayoutPass(min_elements=0).apply(Context(), after)
    after.verify()
    (transpose,) = [op for op in after.walk() if isinstance(op, TransposeOp)]
    assert tuple(transpose.dims) == (1, 0, 2, 3)
    rng = np.random.default_rng(3)
    a = rng.normal(size=(8, 24)).astype(np.float32)
    b = rng.normal(size=(2, 8, 5, 3)).astype(np.float32)
    want = xlir.compile(before, target="interpreter")(a, b)
    got = xlir.compile(after, target="interpreter")(a, b)
    np.testing.assert_array_equal(got, want)


CHAIN = """
func.func @main(%a: tensor<96x40xf32>, %b: tensor<72x96xf32>, %c: tensor<24x72xf32>) -> tensor<24x40xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<96x40xf32>, tensor<72x96xf32>) -> tensor<40x72xf32>
  %1 = stablehlo.dot_general %c, %0, contracting_dims = [1] x [1] : (tensor<24x72xf32>, tensor<40x72xf32>) -> tensor<24x40xf32>
  func.return %1 : tensor<24x40xf32>
}
"""
"""The inner dot makes the outer one's rhs, which it reads transposed."""

ROW_DOTS = """
func.func @main(%a: tensor<96x96xf32>, %b: tensor<40x96xf32>, %c: tensor<40x96xf32>) -> tensor<40xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<96x96xf32>, tensor<40x96xf32>) -> tensor<96x40xf32>
  %1 = stablehlo.dot_general %c, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<40x96xf32>, tensor<96x40xf32>) -> tensor<40xf32>
  func.return %1 : tensor<40xf32>
}
"""
"""The inner dot's rhs needs a transpose; a batched row dot reads its
result."""


@pytest.mark.parametrize("text", [CHAIN, ROW_DOTS], ids=["chain", "row_dots"])
def test_swapped_dots_bit_for_bit(text: str) -> None:
    """The inner dot is made as `dot_general(rhs, lhs)` and no transpose is
    left; the interpreter's outputs are the same bits, and so are the cpu
    target's with and without the swap."""
    before = xlir.parse_module(xlir.make_context(), text, "dots.mlir")
    after = before.clone()
    DotLayoutPass(min_elements=0).apply(Context(), after)
    after.verify()
    assert not [op for op in after.walk() if isinstance(op, TransposeOp)]
    inner, outer = [op for op in after.walk() if isinstance(op, DotGeneralOp)]
    assert outer.rhs.owner is inner
    old = xlir.compile(before, target="interpreter")
    rng = np.random.default_rng(5)
    arguments = [
        rng.normal(size=spec.shape).astype(spec.dtype)
        for spec in old.signature.arguments
    ]
    want = old(*arguments)
    got = xlir.compile(after, target="interpreter")(*arguments)
    np.testing.assert_array_equal(got, want)
    # On cpu, against the same dots whose inner result is also returned
    # (read by something else, it is not swapped).
    head, body = text.split("{", 1)
    result = head.rsplit("-> ", 1)[1].strip()
    inner_type = body.split("-> ", 1)[1].split("\n", 1)[0]
    kept = f"{head.rsplit('-> ', 1)[0]}-> ({result}, {inner_type}) {{" + body.replace(
        f"func.return %1 : {result}", f"func.return %1, %0 : {result}, {inner_type}"
    )
    swapped = xlir.compile(text, target="cpu")(*arguments)
    transposed, _ = xlir.compile(kept, target="cpu")(*arguments)
    np.testing.assert_array_equal(swapped.view(np.uint32), transposed.view(np.uint32))
