"""Defects the fuzzers found that are open (each fixed by work in progress,
issue 29): the fuzz tests fail on every failure not listed here. Remove an
entry when its fix lands."""

from __future__ import annotations

import re

from xlir.testing.differential import Verdict
from xlir.testing.program import Program


def known_program_failure(verdict: Verdict, program: Program) -> str | None:
    """Which open defect explains the failure, or None."""
    return None


KNOWN_MUTANT_FAILURES: list[tuple[str, str]] = []
"""Mutant failure signatures (regular expressions) of open defects."""


def known_mutant_failure(signature: str) -> str | None:
    for pattern, item in KNOWN_MUTANT_FAILURES:
        if re.search(pattern, signature):
            return f"issue 29 {item}"
    return None
