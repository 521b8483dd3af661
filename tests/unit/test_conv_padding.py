"""`conv-padding` changes no result: random padded convolutions (one or two
spatial dims, any of three layouts, padding that may be negative, strides,
window dilation and reversal, feature groups) give the same outputs on the
interpreter before and after the pass, bit for bit in integers. (The cpu
pipeline's order is checked in test_dot_layout.py; the corpus runs it on
the cpu target against JAX.)"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import xlir

LAYOUTS = {
    1: ["[b, 0, f]x[0, i, o]->[b, 0, f]", "[b, f, 0]x[o, i, 0]->[b, f, 0]"],
    2: [
        "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]",
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
        "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]",
    ],
}


def _place(layout: str, side: int, sizes: dict[str, int]) -> list[int]:
    """The shape of one side of `layout` ("[b, 0, f]x...": 0 lhs, 1 rhs, 2
    result) from the size of each letter."""
    labels = layout.replace("->", "x").split("x")[side].strip("[]").split(", ")
    return [sizes[label] for label in labels]


@st.composite
def convolutions(draw: st.DrawFn) -> str:
    spatial = draw(st.sampled_from([1, 2]))
    layout = draw(st.sampled_from(LAYOUTS[spatial]))
    groups = draw(st.sampled_from([1, 2]))
    batch = draw(st.integers(1, 2))
    in_features = groups * draw(st.integers(1, 2))
    out_features = groups * draw(st.integers(1, 2))
    inputs, taps, outputs, window = [], [], [], []
    pads, strides, dilations, reversed_ = [], [], [], []
    for _ in range(spatial):
        size, tap = draw(st.integers(1, 7)), draw(st.integers(1, 3))
        low, high = draw(st.integers(-1, 2)), draw(st.integers(-1, 2))
        stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 2))
        span = (tap - 1) * dilation + 1
        assume(size + low + high >= span)
        inputs.append(size)
        taps.append(tap)
        outputs.append((size + low + high - span) // stride + 1)
        pads.append(f"[{low}, {high}]")
        strides.append(str(stride))
        dilations.append(str(dilation))
        reversed_.append(draw(st.sampled_from(["true", "false"])))
    assume(any(p != "[0, 0]" for p in pads))
    window.append(f"stride = [{', '.join(strides)}]")
    window.append(f"pad = [{', '.join(pads)}]")
    window.append(f"rhs_dilate = [{', '.join(dilations)}]")
    window.append(f"reverse = [{', '.join(reversed_)}]")
    digits = {str(d): d for d in range(spatial)}
    lhs = _place(
        layout,
        0,
        {"b": batch, "f": in_features} | {k: inputs[v] for k, v in digits.items()},
    )
    rhs = _place(
        layout,
        1,
        {"i": in_features // groups, "o": out_features}
        | {k: taps[v] for k, v in digits.items()},
    )
    out = _place(
        layout,
        2,
        {"b": batch, "f": out_features} | {k: outputs[v] for k, v in digits.items()},
    )

    def tensor(dims: list[int]) -> str:
        return f"tensor<{'x'.join(map(str, dims))}xi32>"

    return f"""
func.func @main(%a: {tensor(lhs)}, %b: {tensor(rhs)}) -> {tensor(out)} {{
  %0 = stablehlo.convolution(%a, %b) dim_numbers = {layout}, window = {{{", ".join(window)}}} {{feature_group_count = {groups} : i64, batch_group_count = 1 : i64}} : ({tensor(lhs)}, {tensor(rhs)}) -> {tensor(out)}
  return %0 : {tensor(out)}
}}
"""


@settings(max_examples=40, deadline=None)
@given(convolutions(), st.integers(0, 2**32 - 1))
def test_same_outputs_before_and_after(text: str, seed: int) -> None:
    before = xlir.compile(text, pipeline="")
    after = xlir.compile(text, pipeline="conv-padding")
    rng = np.random.default_rng(seed)
    arrays = [
        rng.integers(-9, 10, a.shape).astype(np.int32)
        for a in before.signature.arguments
    ]
    np.testing.assert_array_equal(after(*arrays), before(*arrays))
