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


KNOWN_MUTANT_FAILURES = [
    # literals and attributes out of range, parsed with a traceback or an
    # error without a location (item 3)
    (r"Integer value N is out of range for type", "item 3"),
    (r"OverflowError: (int too big to convert|too many digits)", "item 3"),
    (r"OverflowError: float too large to pack", "item 3"),
    (r"NotImplementedError: Format not implemented", "item 3"),
    (r"AssertionError: +\(at .*attribute_parser", "item 3"),
    (r"MemoryError: +\(at .*attribute_parser", "item 3"),
    (r"unlocated: mutant.mlir: error: (Unexpected|Expected) attribute", "item 3"),
    # IR the verifier should reject before a pass sees it (item 1)
    (r"Forward declared values do not have an owner", "item 1"),
    (r"AssertionError: +\(at \S*xlir/verifier.py", "item 1"),
    (r"internal error in pass 'fuse': ValueError: Attempting to delete", "item 1"),
    # internal errors in passes (item 9)
    (r"internal error in pass 'decompose': AssertionError", "item 9"),
    (r"unlocated: error: pass 'assign-buffers' failed", "item 9"),
]
"""Mutant failure signatures (regular expressions) of open defects."""


def known_mutant_failure(signature: str) -> str | None:
    for pattern, item in KNOWN_MUTANT_FAILURES:
        if re.search(pattern, signature):
            return f"issue 29 {item}"
    return None
