"""select_and_scatter and rng_bit_generator kernels against the HLO
interpreter: the program runs at the HLO level and lowered on the loop
interpreter, and the results agree exactly (rng: bit for bit, new state
too); cases the interpreter cannot run are diagnostics."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.lowering.kernels.rng_bit_generator import lower_rng_bit_generator
from xlir.lowering.scalar import UnsupportedScalarOp

import xlir
from tests.unit.test_kernels_numerics import LOWER, check, single
from xlir.context import make_context
from xlir.parsing import parse_module

# --- select_and_scatter ------------------------------------------------------------


def select_and_scatter(
    operand: str,
    source: str,
    attrs: str,
    element: str = "f32",
    select: str = "GE",
    scatter: str = "add",
) -> str:
    kind = "FLOAT" if "f" in element else "SIGNED"
    scalar = f"tensor<{element}>"
    x, s = f"tensor<{operand}x{element}>", f"tensor<{source}x{element}>"
    return single(
        f'"stablehlo.select_and_scatter"(%x, %s, %init) <{{{attrs}}}> ({{\n'
        f"  ^bb0(%a: {scalar}, %b: {scalar}):\n"
        f"    %c = stablehlo.compare {select}, %a, %b, {kind} : "
        f"({scalar}, {scalar}) -> tensor<i1>\n"
        f"    stablehlo.return %c : tensor<i1>\n"
        f"  }}, {{\n"
        f"  ^bb0(%a: {scalar}, %b: {scalar}):\n"
        f"    %c = stablehlo.{scatter} %a, %b : {scalar}\n"
        f"    stablehlo.return %c : {scalar}\n"
        f"  }}) : ({x}, {s}, {scalar}) -> {x}",
        f"%x: {x}, %s: {s}, %init: {scalar}",
        x,
    )


def window(dims: str, strides: str, padding: str | None = None) -> str:
    attrs = f"window_dimensions = array<i64: {dims}>, window_strides = array<i64: {strides}>"
    if padding is None:
        return attrs
    rank = dims.count(",") + 1
    return f"{attrs}, padding = dense<{padding}> : tensor<{rank}x2xi64>"


@pytest.mark.parametrize(
    "text",
    [
        # max pool gradient, disjoint windows: one parallel nest over the source
        select_and_scatter("4x6", "2x3", window("2, 2", "2, 2")),
        # overlapping windows (stride smaller than the window), strict selection
        select_and_scatter("5x6", "3x4", window("3, 3", "1, 1"), select="GT"),
        # stride larger than the window: elements between windows stay init
        select_and_scatter("8x8", "3x3", window("2, 2", "3, 3")),
        # padding on both sides, overlapping: padding taps are never selected
        select_and_scatter(
            "5x5", "3x3", window("3, 3", "2, 2", "[[1, 1], [1, 1]]"), select="GT"
        ),
        # windows made only of padding scatter nothing
        select_and_scatter("4", "5", window("2", "2", "[[3, 3]]")),
        select_and_scatter("4", "5", window("2", "2", "[[3, 3]]"), scatter="maximum"),
        # an empty operand: its padding makes windows, which scatter nothing
        # (the kernel read and wrote index -1: fuzzer seed 41500542)
        select_and_scatter("0x4", "1x2", window("1, 1", "1, 2", "[[0, 1], [0, 0]]")),
        # minimum pooling's gradient
        select_and_scatter("6x5", "5x4", window("2, 2", "1, 1"), select="LE"),
        # NHWC, 3x3 stride 2 with padding: parallel over batch and features
        select_and_scatter(
            "2x7x7x3",
            "2x4x4x3",
            window("1, 3, 3, 1", "1, 2, 2, 1", "[[0, 0], [1, 1], [1, 1], [0, 0]]"),
        ),
        select_and_scatter(
            "2x6x6x2", "2x3x3x2", window("1, 2, 2, 1", "1, 2, 2, 1"), element="i32"
        ),
        select_and_scatter(
            "5x5", "3x3", window("3, 3", "2, 2", "[[1, 1], [1, 1]]"), element="bf16"
        ),
    ],
)
def test_select_and_scatter(text: str):
    check(text, rtol=0)


@pytest.mark.parametrize("select", ["GE", "GT"])
@pytest.mark.parametrize(
    ("operand", "source", "attrs"),
    [
        ("6x6", "4x3", window("3, 2", "1, 2")),
        ("5x4", "3x5", window("2, 3", "2, 1", "[[1, 0], [2, 1]]")),
        (
            "2x3x4x2",
            "2x3x4x2",
            window("1, 2, 2, 1", "1, 1, 1, 1", "[[0, 0], [0, 1], [1, 0], [0, 0]]"),
        ),
    ],
)
def test_select_and_scatter_integer_ties(
    select: str, operand: str, source: str, attrs: str
):
    """Small integers tie often: GE keeps the first tap, GT the last."""
    text = select_and_scatter(operand, source, attrs, element="i32", select=select)
    for seed in range(3):
        check(text, rtol=0, seed=seed)


def test_select_and_scatter_float_ties():
    text = select_and_scatter("4x4", "3x3", window("2, 2", "1, 1"))
    x = np.array([[1, 1, 0, 2], [1, 1, 2, 2], [0, 3, 3, 0], [3, 3, 0, 1]], np.float32)
    source = np.arange(1, 10, dtype=np.float32).reshape(3, 3)
    check(text, rtol=0, inputs=[x, source, np.float32(0.5)])


# --- rng_bit_generator -------------------------------------------------------------

STATES = {
    2: [0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE],
    3: [0x0123456789ABCDEF, 0xFFFFFFFFFFFFFFFE, 0xFFFFFFFFFFFFFFFF],
}
"""Counters about to wrap: a block's counter carries into the high word."""


def rng(algorithm: str, state: str, out: str) -> str:
    state_type, out_type = f"tensor<{state}>", f"tensor<{out}>"
    return (
        f"func.func @main(%state: {state_type}) -> ({state_type}, {out_type}) {{\n"
        f"  %s, %bits = stablehlo.rng_bit_generator %state, algorithm = {algorithm} : "
        f"({state_type}) -> ({state_type}, {out_type})\n"
        f"  return %s, %bits : {state_type}, {out_type}\n}}"
    )


def bits_of(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array).view(np.uint8)


@pytest.mark.parametrize(
    ("algorithm", "words"),
    [("THREE_FRY", 2), ("PHILOX", 2), ("PHILOX", 3), ("DEFAULT", 3)],
)
@pytest.mark.parametrize(
    "out",
    [
        "4x4xui32",
        "7xui32",
        "3x5xi64",
        "ui64",
        "9xui8",
        "2x3x5xi16",
        "5xf32",
        "3x3xbf16",
        "7xf16",
        "3xf64",
    ],
)
def test_rng_bit_generator(algorithm: str, words: int, out: str):
    text = rng(algorithm, f"{words}xui64", out)
    state = np.array(STATES[words], np.uint64)
    want = xlir.compile(text, pipeline="")(state)
    lowered = xlir.compile(text, pipeline=LOWER)
    assert type(lowered).__name__ == "DeviceScheduleExecutable"
    # loop-level buffers are signless: the state goes in as int64
    have = lowered(state.view(np.int64))
    for expected, got in zip(want, have, strict=True):
        assert got.shape == expected.shape
        assert np.array_equal(bits_of(got), bits_of(expected))


def test_rng_bit_generator_advances_state():
    """The state the kernel returns continues the stream where it stopped."""
    text = rng("THREE_FRY", "2xui64", "6xui32")
    lowered = xlir.compile(text, pipeline=LOWER)
    state = np.array(STATES[2], np.uint64).view(np.int64)
    first_state, first = lowered(state)
    _, second = lowered(first_state)
    _, both = xlir.compile(rng("THREE_FRY", "2xui64", "12xui32"), pipeline=LOWER)(state)
    assert first_state.view(np.uint64).tolist() == [STATES[2][0], 1]
    assert np.array_equal(np.concatenate([first, second]), both)


@pytest.mark.parametrize(
    ("algorithm", "state", "out", "reason"),
    [
        ("THREE_FRY", "2xui32", "4xui32", "needs a ui64 state"),
        ("DEFAULT", "4xui64", "4xui32", "state of 4 elements"),
        ("PHILOX", "2xui64", "4xi4", "i4 elements"),
        ("PHILOX", "2xui64", "4xf8E4M3FN", "f8E4M3FN elements"),
    ],
)
def test_rng_bit_generator_unsupported(
    algorithm: str, state: str, out: str, reason: str
):
    module = parse_module(make_context(), rng(algorithm, state, out), "case.mlir")
    op = next(o for o in module.walk() if o.name == "stablehlo.rng_bit_generator")
    with pytest.raises(UnsupportedScalarOp, match=reason):
        lower_rng_bit_generator(op, "rng")  # pyright: ignore[reportArgumentType]
