"""`conv-padding` changes no result: random padded convolutions (one or two
spatial dims, any of three layouts, padding that may be negative, strides,
window dilation and reversal, feature groups) give the same outputs on the
interpreter before and after the pass, bit for bit in integers. (The cpu
pipeline's order is checked in test_dot_layout.py; the corpus runs it on
the cpu target against JAX.)"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.unit.conv_programs import (
    LAYOUTS,
    assert_same_integers,
    convolution_program,
    draw_spatial,
)


@st.composite
def convolutions(draw: st.DrawFn) -> str:
    spatial = draw(st.sampled_from([1, 2]))
    groups = draw(st.sampled_from([1, 2]))
    dims = draw_spatial(
        draw,
        {
            "size": (1, 7),
            "taps": (1, 3),
            "pad": (-1, 2),
            "stride": (1, 2),
            "dilation": (1, 2),
        },
        spatial,
    )
    assume(any((d.low, d.high) != (0, 0) for d in dims))
    return convolution_program(
        draw(st.sampled_from(LAYOUTS[spatial])),
        dims,
        (groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))),
        draw(st.integers(1, 2)),
        (groups, 1),
    )


@settings(max_examples=40, deadline=None)
@given(convolutions(), st.integers(0, 2**32 - 1))
def test_same_outputs_before_and_after(text: str, seed: int) -> None:
    assert_same_integers(text, "conv-padding", seed)
