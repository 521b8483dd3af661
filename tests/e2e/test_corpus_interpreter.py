"""Every program of the corpus (both flavours) on the interpreter target
gives JAX's outputs within the tolerances of tolerances.json (integer and
boolean outputs, and those listed as exact, bit for bit)."""

from __future__ import annotations

import pytest

import xlir
from tests.corpus import PROGRAMS, SMALL, assert_matches, load_case, program_name


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_corpus_program(path) -> None:
    arguments, expected = load_case(path)
    executable = xlir.compile(path, target="interpreter")
    assert_matches(program_name(path), executable(*arguments), expected)


def test_corpus_present() -> None:
    assert len(PROGRAMS) == 36, f"expected 18 programs x 2 flavours in {SMALL}"
