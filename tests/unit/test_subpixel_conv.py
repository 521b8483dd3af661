"""`subpixel-conv` changes no result: random convolutions with lhs dilation
(one or two spatial dims, three layouts, padding that may be negative,
strides, window dilation and reversal, feature or batch groups) give the
same outputs on the interpreter before and after the pass: bit for bit in
integers; in floats within rounding, with NaN in the same places (weights
include inf and NaN, which the dropped taps' zeros turn into NaN) and the
same sign on every zero (weights of either sign, inputs with -0.0), also
with `conv-padding` after it (its phases share one padded input). The
cpu target is checked on a transposed convolution with non-finite weights."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from xlir.passes.hlo.subpixel_conv import plan_dimension
from xlir.targets.base import Executable

import xlir
from tests.unit.conv_programs import (
    LAYOUTS,
    Spatial,
    assert_same_integers,
    convolution_program,
    draw_spatial,
)


@st.composite
def convolutions(draw: st.DrawFn, element: str) -> str:
    spatial = draw(st.sampled_from([1, 2]))
    groups = draw(st.sampled_from([1, 2]))
    batch_groups = draw(st.sampled_from([1, 2])) if groups == 1 else 1
    dims = draw_spatial(
        draw,
        {
            "size": (1, 5),
            "taps": (1, 4),
            "pad": (-2, 3),
            "stride": (1, 3),
            "dilation": (1, 2),
            "base": (1, 3),
        },
        spatial,
    )
    assume(any(d.base != 1 for d in dims))
    in_features = groups * draw(st.integers(1, 2))
    out_features = groups * batch_groups * draw(st.integers(1, 2))
    return convolution_program(
        draw(st.sampled_from(LAYOUTS[spatial])),
        dims,
        (in_features, out_features),
        draw(st.integers(1, 2)),
        (groups, batch_groups),
        element,
    )


def _weights(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Weights of either sign, some of them -0.0, inf, -inf or NaN."""
    w = rng.standard_normal(shape).astype(np.float32)
    special = rng.random(shape)
    w[special < 0.08] = -0.0
    w[(special >= 0.08) & (special < 0.11)] = np.inf
    w[(special >= 0.11) & (special < 0.14)] = -np.inf
    w[(special >= 0.14) & (special < 0.17)] = np.nan
    return w


def _inputs(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Inputs that are often zeros of either sign, so that many sums are
    all zeros."""
    x = rng.standard_normal(shape).astype(np.float32)
    x[rng.random(shape) < 0.5] = 0.0
    x[rng.random(shape) < 0.3] = -0.0
    return x


def _arguments(program: Executable, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Inputs and weights for `program`: with non-finite weights (most
    results NaN), with finite ones of either sign, all negative (sums of
    -0.0 products), and zero inputs."""
    rng = np.random.default_rng(seed)
    x_shape, w_shape = (a.shape for a in program.signature.arguments)
    arguments = [
        (_inputs(rng, x_shape), _weights(rng, w_shape)),
        (_inputs(rng, x_shape), rng.standard_normal(w_shape)),
        (_inputs(rng, x_shape), -np.abs(rng.standard_normal(w_shape))),
        (np.zeros(x_shape), rng.standard_normal(w_shape)),
    ]
    return [(x.astype(np.float32), w.astype(np.float32)) for x, w in arguments]


def _assert_same_floats(actual: np.ndarray, expected: np.ndarray) -> None:
    np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected))
    zeros = expected == 0
    np.testing.assert_array_equal(actual == 0, zeros)
    np.testing.assert_array_equal(
        np.signbit(actual[zeros]), np.signbit(expected[zeros])
    )
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


@settings(max_examples=60, deadline=None)
@given(convolutions("f32"), st.integers(0, 2**32 - 1))
def test_same_floats_before_and_after(text: str, seed: int) -> None:
    before = xlir.compile(text, pipeline="")
    after = xlir.compile(text, pipeline="subpixel-conv")
    padded = xlir.compile(text, pipeline="subpixel-conv,conv-padding")
    assert "lhs_dilate" not in after.as_text()
    for x, w in _arguments(before, seed):
        _assert_same_floats(after(x, w), before(x, w))
        _assert_same_floats(padded(x, w), before(x, w))


@st.composite
def transposed_convolutions(draw: st.DrawFn) -> str:
    """Convolutions whose phases become one convolution: a transposed
    convolution's (window stride and dilation 1, the taps a multiple of the
    lhs dilation or not, any padding and reversal), with inputs long enough
    for the phases to share their window."""
    spatial = draw(st.sampled_from([1, 2]))
    dims = draw_spatial(
        draw,
        {"size": (9, 12), "taps": (1, 6), "pad": (0, 5), "base": (2, 3)},
        spatial,
    )
    return convolution_program(
        draw(st.sampled_from(LAYOUTS[spatial])),
        dims,
        (draw(st.integers(1, 2)), draw(st.integers(1, 3))),
        1,
        element="f32",
    )


@settings(max_examples=40, deadline=None)
@given(transposed_convolutions(), st.integers(0, 2**32 - 1))
def test_same_floats_with_stacked_phases(text: str, seed: int) -> None:
    """The phases' kernels stacked by `_interleaved_kernels` (or
    concatenated, where their taps do not interleave) give the dilated
    convolution's results."""
    before = xlir.compile(text, pipeline="")
    after = xlir.compile(text, pipeline="subpixel-conv")
    for x, w in _arguments(before, seed):
        _assert_same_floats(after(x, w), before(x, w))


@pytest.mark.parametrize(
    ("layout", "dims", "rearranged"),
    [
        # jax.lax.conv_transpose, stride 2, 4 taps, padding 2: phase i
        # keeps taps i and i + 2, a reshape and a transpose of the kernel
        # (after the reversals that mark the dropped taps' NaN on it).
        (
            "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]",
            [(8, 4, 2, 2), (8, 4, 2, 2)],
            ["reverse", "transpose"],
        ),
        # Odd padding: phase i keeps taps 1 - i and 3 - i (the phases
        # reversed); 3 phases of 6 taps, padding 2: taps 2 - i and 5 - i;
        # features first: the phases go before them.
        (
            "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
            [(8, 4, 3, 2), (24, 6, 2, 3)],
            ["reverse", "transpose"],
        ),
        # 3 phases of 6 taps, padding 1: phase i keeps 1 - i mod 3: not
        # a progression, the slices are concatenated.
        ("[b, 0, f]x[0, i, o]->[b, 0, f]", [(24, 6, 1, 3)], ["concatenate"]),
    ],
)
def test_interleaved_kernels(
    layout: str, dims: list[tuple[int, int, int, int]], rearranged: list[str]
) -> None:
    """The stacked kernel is a rearrangement of the weights where the
    phases' taps interleave, with the dilated convolution's results, on
    the interpreter and on the cpu target (whose kernels read the
    rearranged weights)."""
    spatial = [
        Spatial(size, taps, low=pad, high=pad, base=base)
        for size, taps, pad, base in dims
    ]
    text = convolution_program(layout, spatial, (2, 3), 1, element="f32")
    after = xlir.compile(text, pipeline="subpixel-conv")
    kernel = after.as_text().split("stablehlo.convolution")[0]
    assert [op for op in ("reverse", "transpose", "concatenate") if op in kernel] == (
        rearranged
    )
    before = xlir.compile(text, pipeline="")
    cpu = xlir.compile(text, target="cpu")
    for x, w in _arguments(before, 3):
        _assert_same_floats(after(x, w), before(x, w))
        _assert_same_floats(cpu(x, w), before(x, w))


@settings(max_examples=30, deadline=None)
@given(convolutions("i32"), st.integers(0, 2**32 - 1))
def test_same_integers_before_and_after(text: str, seed: int) -> None:
    assert_same_integers(text, "subpixel-conv", seed)


@pytest.mark.parametrize(
    ("window", "taps", "expected"),
    [
        # jax.lax.conv_transpose, 4 taps, stride 2, padding 2: even outputs
        # read taps 0 and 2 from input m - 1, odd ones taps 1 and 3 from m;
        # both convolutions start at input -1 (9 outputs), the odd phase
        # skipping the first.
        ((1, 1, 2, False), 4, [(range(0, 3, 2), 1, 1, 0), (range(1, 4, 2), 1, 1, 1)]),
        # Reversed: the same taps of the window, counted from the other end.
        ((1, 1, 2, True), 4, [(range(1, 4, 2), 1, 1, 0), (range(0, 3, 2), 1, 1, 1)]),
        # 3 taps, padding 2 low and 1 high (a stride-2 conv's input
        # gradient): odd outputs keep the middle tap only.
        ((1, 1, 2, False), 3, [(range(0, 3, 2), 1, 1, 0), (range(1, 2, 2), 1, 0, 1)]),
        # A window stride that is a multiple of the dilation: one phase.
        ((2, 1, 0, False), 3, [(range(0, 3, 2), 0, 1, 0)]),
    ],
)
def test_plan_dimension(
    window: tuple[int, int, int, bool],
    taps: int,
    expected: list[tuple[range, int, int, int]],
) -> None:
    """Kept taps (as stored), the padding of each phase's convolution and
    the outputs it skips, for an 8-element input dilated by 2 into 16
    outputs (stride 1) or 8."""
    out_size = 16 if window[0] == 1 else 8
    plan = plan_dimension(8, 2, taps, window, out_size)
    assert [(p.kept, p.low, p.high, p.skip) for p in plan.phases] == expected


def test_plan_dimension_apart() -> None:
    """Phases that would start more than `SPREAD_LIMIT` outputs apart keep
    their own windows: 4 outputs per phase, starting one input apart."""
    plan = plan_dimension(4, 2, 4, (1, 1, 2, False), 8)
    assert plan.computed == plan.outputs == 4
    assert [(p.low, p.high, p.skip) for p in plan.phases] == [(1, 0, 0), (0, 1, 0)]


def test_cpu_transposed_convolution_with_non_finite_weights() -> None:
    text = """
func.func @main(%x: tensor<2x6x5x3xf32>, %w: tensor<4x3x3x4xf32>) -> tensor<2x12x10x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x5x3xf32>, tensor<4x3x3x4xf32>) -> tensor<2x12x10x4xf32>
  return %0 : tensor<2x12x10x4xf32>
}
"""
    reference = xlir.compile(text, pipeline="")
    cpu = xlir.compile(text, target="cpu")
    assert "lhs_dilate" not in cpu.as_text()
    rng = np.random.default_rng(7)
    x = _inputs(rng, (2, 6, 5, 3))
    w = _weights(rng, (4, 3, 3, 4))
    _assert_same_floats(cpu(x, w), reference(x, w))


TRANSPOSED_2D = """
func.func @main(%x: tensor<1x5x4x2xf32>, %w: tensor<4x4x2x3xf32>) -> tensor<1x10x8x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<4x4x2x3xf32>) -> tensor<1x10x8x3xf32>
  return %0 : tensor<1x10x8x3xf32>
}
"""


@pytest.mark.parametrize("weight", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("tap", [(0, 0), (1, 2), (3, 3)])
def test_one_non_finite_weight(weight: float, tap: tuple[int, int]) -> None:
    """A stride-2 transposed convolution, whose phases' kernels carry the
    dropped taps' NaN (`_nan_marked_weights`), with one non-finite weight:
    the three phases that drop its tap are NaN in its output feature, the
    one that keeps it ±inf where its input is not zero (and NaN where it
    is), as the dilated convolution gives, on the interpreter and the cpu."""
    before = xlir.compile(TRANSPOSED_2D, pipeline="")
    after = xlir.compile(TRANSPOSED_2D, pipeline="subpixel-conv")
    cpu = xlir.compile(TRANSPOSED_2D, target="cpu")
    assert "stablehlo.reduce" not in after.as_text()
    rng = np.random.default_rng(5)
    x = _inputs(rng, (1, 5, 4, 2))
    w = -np.abs(rng.standard_normal((4, 4, 2, 3))).astype(np.float32)
    w[tap[0], tap[1], 1, 2] = weight
    expected = before(x, w)
    kept = np.isinf(expected[..., 2])
    if weight != weight:
        assert np.isnan(expected[..., 2]).all()
    else:
        assert kept.any() and np.isnan(expected[..., 2]).any()
    for actual in (after(x, w), cpu(x, w)):
        _assert_same_floats(actual, expected)
        np.testing.assert_array_equal(actual[..., 2][kept], expected[..., 2][kept])
