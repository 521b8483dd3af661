"""Nests whose short last dimension `unroll-last-dimension` writes out run
bit for bit as the evaluator does on the cpu target: NHWC images of 1 to 4
channels flipped, cropped and scaled (u8 in, f32 and u8 out), with odd
widths; each case is checked to be unrolled (counting the pass's
rewrites), and one whose channels outnumber `max-trips` to be left alone;
and random elementwise chains over such shapes, against the evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.passes.loop import unroll_last_dimension

import xlir

PROGRAM = """
func.func @main(%x: tensor<2x{h}x{w}x{c}xui8>) -> (tensor<2x{h}x{w2}x{c}xf32>, tensor<2x{h}x{w2}x{c}xui8>) {{
  %s = stablehlo.slice %x [0:2, 0:{h}, 1:{w}, 0:{c}] : (tensor<2x{h}x{w}x{c}xui8>) -> tensor<2x{h}x{w2}x{c}xui8>
  %r = stablehlo.reverse %s, dims = [2] : tensor<2x{h}x{w2}x{c}xui8>
  %f = stablehlo.convert %r : (tensor<2x{h}x{w2}x{c}xui8>) -> tensor<2x{h}x{w2}x{c}xf32>
  %k = stablehlo.constant dense<1.7> : tensor<2x{h}x{w2}x{c}xf32>
  %m = stablehlo.multiply %f, %k : tensor<2x{h}x{w2}x{c}xf32>
  %u = stablehlo.convert %m : (tensor<2x{h}x{w2}x{c}xf32>) -> tensor<2x{h}x{w2}x{c}xui8>
  return %m, %u : tensor<2x{h}x{w2}x{c}xf32>, tensor<2x{h}x{w2}x{c}xui8>
}}"""


@pytest.mark.parametrize(
    ("channels", "width", "unrolled"),
    [(1, 40, False), (2, 33, True), (3, 57, True), (4, 18, True), (5, 40, False)],
)
def test_cpu_matches_the_evaluator(
    channels: int, width: int, unrolled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = []
    original = unroll_last_dimension.unroll_last_dimension

    def counted(*arguments):
        done = original(*arguments)
        made.append(done)
        return done

    monkeypatch.setattr(unroll_last_dimension, "unroll_last_dimension", counted)
    monkeypatch.setenv("XLIR_CACHE", "0")
    text = PROGRAM.format(h=5, w=width, w2=width - 1, c=channels)
    image = np.random.default_rng(channels).integers(0, 256, (2, 5, width, channels))
    image = image.astype(np.uint8)
    cpu = xlir.compile(text, target="cpu")
    want = xlir.compile(text, target="interpreter")(image)
    for got, expected in zip(cpu(image), want, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    assert any(made) == unrolled


STEPS = {
    # name: (StableHLO of one step on %v of type TYPE (and %w: the second input),
    #        element types it applies to)
    "add": ("stablehlo.add %v, %w : TYPE", "f32 f16 i32 ui8"),
    "multiply": ("stablehlo.multiply %v, %w : TYPE", "f32 f16 i32 ui8"),
    "maximum": ("stablehlo.maximum %v, %w : TYPE", "f32 f16 i32 ui8"),
    "negate": ("stablehlo.negate %v : TYPE", "f32 f16 i32"),
    "abs": ("stablehlo.abs %v : TYPE", "f32 f16 i32"),
    "reverse_last": ("stablehlo.reverse %v, dims = [LAST] : TYPE", "f32 f16 i32 ui8"),
    "reverse_outer": ("stablehlo.reverse %v, dims = [OUTER] : TYPE", "f32 f16 i32 ui8"),
}


@st.composite
def elementwise_programs(draw):
    """A chain of elementwise steps over a tensor whose last dimension is
    short (2-4) and the one before long enough to be unrolled (8-40), or
    not (1-7), on one element type, ending in a convert to another."""
    element = draw(st.sampled_from(["f32", "f16", "i32", "ui8"]))
    shape = (
        draw(st.integers(1, 3)),
        draw(st.integers(1, 40)),
        draw(st.integers(2, 4)),
    )
    usable = [n for n, (_, types) in STEPS.items() if element in types.split()]
    steps = draw(st.lists(st.sampled_from(usable), min_size=1, max_size=5))
    target = draw(st.sampled_from(["f32", "i32", "ui8", "f16"]))
    tensor = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    out = f"tensor<{'x'.join(map(str, shape))}x{target}>"
    lines = [f"func.func @main(%a: {tensor}, %w: {tensor}) -> {out} {{"]
    value = "%a"
    for index, step in enumerate(steps):
        text = STEPS[step][0].replace("LAST", "2").replace("OUTER", "1")
        text = text.replace("%v", value).replace("TYPE", tensor)
        lines.append(f"  %s{index} = {text}")
        value = f"%s{index}"
    lines.append(f"  %r = stablehlo.convert {value} : ({tensor}) -> {out}")
    lines.append(f"  return %r : {out}\n}}")
    seed = draw(st.integers(0, 2**31))
    return "\n".join(lines), shape, element, seed


DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "ui8": np.uint8}


@settings(max_examples=40, deadline=None)
@given(elementwise_programs())
def test_random_elementwise_chains_match_the_evaluator(case) -> None:
    """Random chains over a short last dimension, compiled for cpu (where the
    pass writes that dimension out when the one before has 8 or more),
    bit for bit as the evaluator computes them."""
    text, shape, element, seed = case
    rng = np.random.default_rng(seed)
    dtype = DTYPES[element]
    if np.dtype(dtype).kind == "f":
        values = [rng.standard_normal(shape).astype(dtype) * 8 for _ in range(2)]
    else:
        values = [rng.integers(0, 100, shape).astype(dtype) for _ in range(2)]
    want = xlir.compile(text, target="interpreter")(*values)
    got = xlir.compile(text, target="cpu")(*values)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
