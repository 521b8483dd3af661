"""Defects the fuzzers found that are open (each fixed by work in progress,
issue 29): the fuzz tests fail on every failure not listed here. Remove an
entry when its fix lands."""

from __future__ import annotations

import re

from xlir.testing.differential import Verdict
from xlir.testing.program import Program


def known_program_failure(verdict: Verdict, program: Program) -> str | None:
    """Which open defect explains the failure, or None."""
    if (
        verdict.kind == "crash"
        and verdict.target == "nvptx-emu"
        and "Aborted" in verdict.detail
        and "f16>" in program.text()
    ):
        # program_case(24940649, 8): a clamped f16 sum; dropping AVX512FP16
        # with AVX512VL fixes it but leaves f64->f16 converts calling an
        # unresolved __truncdfhf2 (a segfault)
        return (
            "issue 29: LLVM aborts ('Cannot select: v8f16 X86ISD::CMOV') on "
            "nvptx-emu kernels compiled without AVX512VL on an AVX512FP16 host"
        )
    return None


KNOWN_MUTANT_FAILURES: list[tuple[str, str]] = []
"""Mutant failure signatures (regular expressions) of open defects."""


def known_mutant_failure(signature: str) -> str | None:
    for pattern, item in KNOWN_MUTANT_FAILURES:
        if re.search(pattern, signature):
            return f"issue 29 {item}"
    return None
