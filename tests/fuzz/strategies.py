"""Hypothesis strategies over the project's random program generator: a
program is drawn as its seed and size, so a failing example shrinks towards
fewer ops and replays from the seed hypothesis prints."""

from __future__ import annotations

from hypothesis import strategies as st

from xlir.testing.fuzz import program_case

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def program_cases(draw: st.DrawFn, max_ops: int = 12):
    """A random program and its arguments by argument id."""
    return program_case(draw(SEEDS), draw(st.integers(1, max_ops)))
