"""Mutants of the corpus and of the lit tests' inputs go through the parser,
the verifier and `hlo-opt` in a worker process: each ends in success or a
diagnostic with file:line:col, never a traceback, a crash or a hang."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CORPUS
from tests.fuzz.known_failures import known_mutant_failure
from xlir.testing.fuzz import fuzz_mutants
from xlir.testing.mutate import seed_texts

LIT = Path(__file__).resolve().parent.parent / "lit"


def test_mutants_end_in_success_or_a_located_diagnostic() -> None:
    sources = seed_texts([CORPUS / "small", CORPUS / "bench", LIT])
    assert len(sources) > 100
    tally = fuzz_mutants(0, 0, None, sources, log=lambda _: None, count=300)
    assert sum(tally.outcomes.values()) == 300
    assert tally.outcomes["diagnostic"] > 100  # the mutations do break texts
    unexplained = [s for s in tally.failures if known_mutant_failure(s) is None]
    assert not unexplained, "\n".join(unexplained)
