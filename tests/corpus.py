"""The JAX-exported corpus beside the repository (`../shared/corpus`), as
tests see it (`xlir.testing.corpus`)."""

from __future__ import annotations

from tests.conftest import CORPUS
from xlir.testing.corpus import Corpus, program_name

THE_CORPUS = Corpus(CORPUS)
SMALL = THE_CORPUS.small
PROGRAMS = THE_CORPUS.programs
TOLERANCES = THE_CORPUS.tolerances
load_case = THE_CORPUS.load_case
assert_matches = THE_CORPUS.assert_matches

__all__ = [
    "CORPUS",
    "PROGRAMS",
    "SMALL",
    "TOLERANCES",
    "assert_matches",
    "load_case",
    "program_name",
]
