"""Every corpus program (both flavours) gives the same outputs on the
interpreter after `simplify,fold-constants,cse,dce` as before: bit for bit,
and so also within the corpus tolerances of JAX's outputs."""

from __future__ import annotations

import pytest

import xlir
from tests.corpus import PROGRAMS, assert_matches, load_case, program_name

PIPELINE = "simplify,fold-constants,cse,dce"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_same_outputs_after_simplify(path) -> None:
    arguments, expected = load_case(path)
    before = xlir.compile(path, target="interpreter")(*arguments)
    after = xlir.compile(path, target="interpreter", pipeline=PIPELINE)(*arguments)
    before = before if isinstance(before, tuple) else (before,)
    after = after if isinstance(after, tuple) else (after,)
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        assert new.dtype == old.dtype and new.shape == old.shape, f"out{index}"
        assert new.tobytes() == old.tobytes(), f"out{index} changed"
    assert_matches(program_name(path), after, expected)
