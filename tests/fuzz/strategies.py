"""Hypothesis strategies over the project's random program generator: a
program is drawn as its seed and size, so a failing example shrinks towards
fewer ops and hypothesis prints the seed that replays it
(`xlir.testing.fuzz.program_case(seed, max_ops)`)."""

from __future__ import annotations

from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def program_seeds(max_ops: int = 12) -> st.SearchStrategy[tuple[int, int]]:
    """(seed, max_ops) of a random program."""
    return st.tuples(SEEDS, st.integers(1, max_ops))
