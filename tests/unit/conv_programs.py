"""Convolutions as StableHLO text from the sizes of their dimensions, for
the property tests of the passes that rewrite convolutions (checked
against the interpreter)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import assume
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
"""Dimension numbers by spatial rank: channels last, channels first, and
one with every side in its own order."""


@dataclass(frozen=True)
class Spatial:
    """One spatial dimension of a convolution."""

    size: int
    taps: int
    low: int = 0
    high: int = 0
    stride: int = 1
    dilation: int = 1
    base: int = 1
    reversed: bool = False

    @property
    def padded(self) -> int:
        return (self.size - 1) * self.base + 1 + self.low + self.high

    @property
    def span(self) -> int:
        return (self.taps - 1) * self.dilation + 1

    @property
    def outputs(self) -> int:
        return (self.padded - self.span) // self.stride + 1


def _place(layout: str, side: int, sizes: dict[str, int]) -> list[int]:
    """The shape of one side of `layout` ("[b, 0, f]x...": 0 lhs, 1 rhs, 2
    result) from the size of each letter."""
    labels = layout.replace("->", "x").split("x")[side].strip("[]").split(", ")
    return [sizes[label] for label in labels]


def convolution_program(
    layout: str,
    dims: list[Spatial],
    features: tuple[int, int],
    batch: int,
    groups: tuple[int, int] = (1, 1),
    element: str = "i32",
) -> str:
    """`@main(%a, %b)` returning one convolution: `features` are the input
    and output features, `groups` the feature and batch group counts (the
    input batch is `batch` times the latter). Every dim must fit its window
    (`padded >= span`)."""
    in_features, out_features = features
    feature_groups, batch_groups = groups

    def sizes(of: str) -> dict[str, int]:
        return {str(d): getattr(dim, of) for d, dim in enumerate(dims)}

    lhs = _place(
        layout, 0, {"b": batch * batch_groups, "f": in_features} | sizes("size")
    )
    rhs = _place(
        layout,
        1,
        {"i": in_features // feature_groups, "o": out_features} | sizes("taps"),
    )
    out = _place(layout, 2, {"b": batch, "f": out_features} | sizes("outputs"))

    def listed(values: list[str]) -> str:
        return f"[{', '.join(values)}]"

    window = [
        f"stride = {listed([str(d.stride) for d in dims])}",
        f"pad = {listed([f'[{d.low}, {d.high}]' for d in dims])}",
        f"rhs_dilate = {listed([str(d.dilation) for d in dims])}",
        f"reverse = {listed([str(d.reversed).lower() for d in dims])}",
    ]
    if any(d.base != 1 for d in dims):
        window.append(f"lhs_dilate = {listed([str(d.base) for d in dims])}")

    def tensor(shape: list[int]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{element}>"

    return f"""
func.func @main(%a: {tensor(lhs)}, %b: {tensor(rhs)}) -> {tensor(out)} {{
  %0 = stablehlo.convolution(%a, %b) dim_numbers = {layout}, window = {{{", ".join(window)}}} {{feature_group_count = {feature_groups} : i64, batch_group_count = {batch_groups} : i64}} : ({tensor(lhs)}, {tensor(rhs)}) -> {tensor(out)}
  return %0 : {tensor(out)}
}}
"""


def assert_same_integers(text: str, pipeline: str, seed: int) -> None:
    """The program's outputs on random small integers are the same bits on
    the interpreter with and without `pipeline`."""
    before = xlir.compile(text, pipeline="")
    after = xlir.compile(text, pipeline=pipeline)
    rng = np.random.default_rng(seed)
    arrays = [
        rng.integers(-9, 10, a.shape).astype(np.int32)
        for a in before.signature.arguments
    ]
    np.testing.assert_array_equal(after(*arrays), before(*arrays))


def draw_spatial(
    draw: st.DrawFn, ranges: dict[str, tuple[int, int]], count: int
) -> list[Spatial]:
    """`count` spatial dims, each field of `Spatial` drawn from its range in
    `ranges` ("pad" for both sides, booleans for `reversed`), each fitting
    its window."""
    dims = []
    for _ in range(count):
        fields = {
            name: draw(st.integers(*ranges[name]))
            for name in ("size", "taps", "stride", "dilation", "base")
            if name in ranges
        }
        dim = Spatial(
            **fields,
            low=draw(st.integers(*ranges["pad"])),
            high=draw(st.integers(*ranges["pad"])),
            reversed=draw(st.booleans()),
        )
        assume(dim.padded >= dim.span)
        dims.append(dim)
    return dims
