"""StableHLO's own interpreter test suite (../shared/stablehlo_interpret) on
the interpreter, in-process, file by file: on the evaluator as parsed, and
after the `hlo-opt` pipeline (so the suite checks the passes too).

Each file's failing tests must be exactly those listed here: a listed test
that starts passing fails too, so that the lists stay true. The collective
files (those that run `interpreter.run_parallel`) wait for the collectives
issue and are listed apart.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from xlir.tools.check_runner import CheckResult, check_source

from tests.conftest import STABLEHLO_SUITE

KNOWN_FAILURES: dict[str, list[str]] = {}
"""Failing tests of the non-collective files, by function name."""

KNOWN_COLLECTIVE_FAILURES: dict[str, list[str]] = {
    "all_gather.mlir": ["main"] * 5,
    "all_reduce.mlir": ["main"] * 5,
    "all_to_all.mlir": ["main"] * 5,
    "collective_broadcast.mlir": ["main"] * 10,
    "collective_permute.mlir": ["main"] * 2,
    "collective_reduce.mlir": ["main"],
    "infeed.mlir": ["main"],
    "outfeed.mlir": ["main"],
    "partition_id.mlir": ["main"],
    "printing.mlir": ["iota_printing_called_inside_run_parallel", "main"],
    "reduce_scatter.mlir": ["main"] * 3,
    "replica_id.mlir": ["main"],
    "send_recv.mlir": ["main"] * 2,
}
"""Failing tests of the collective files (interpreter.run_parallel)."""

REQUIRED_PASS_RATE = 0.98
"""Of the non-collective tests."""


def _suite_files() -> list[str]:
    if not STABLEHLO_SUITE.is_dir():
        return []
    return sorted(
        str(p.relative_to(STABLEHLO_SUITE)) for p in STABLEHLO_SUITE.rglob("*.mlir")
    )


PIPELINES = [None, "hlo-opt"]
"""None: the evaluator runs the parsed module."""


@cache
def _results(name: str, pipeline: str | None) -> tuple[bool, list[CheckResult]]:
    """(whether the file is collective, its tests' results)."""
    text = (STABLEHLO_SUITE / name).read_text()
    results = check_source(text, name, split=True, pipeline=pipeline)
    return "interpreter.run_parallel" in text, results


def _skip_without_suite() -> None:
    if not STABLEHLO_SUITE.is_dir():
        pytest.skip(f"StableHLO's test suite is not at {STABLEHLO_SUITE}")


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["evaluator", "hlo-opt"])
@pytest.mark.parametrize("name", _suite_files() or ["<suite missing>"])
def test_file_fails_only_its_known_failures(name: str, pipeline: str | None) -> None:
    _skip_without_suite()
    collective, results = _results(name, pipeline)
    known = (KNOWN_COLLECTIVE_FAILURES if collective else KNOWN_FAILURES).get(name, [])
    failing = [r for r in results if not r.passed]
    unexpected = Counter(r.function for r in failing) - Counter(known)
    fixed = Counter(known) - Counter(r.function for r in failing)
    problems = [
        f"@{r.function} fails:\n  " + "\n  ".join(r.problems or ["skipped"])
        for r in failing
        if unexpected[r.function] > 0
    ]
    problems += [
        f"@{function} passes now: remove it from the known failures"
        for function in fixed.elements()
    ]
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_lists_name_only_suite_files() -> None:
    _skip_without_suite()
    files = set(_suite_files())
    stale = (set(KNOWN_FAILURES) | set(KNOWN_COLLECTIVE_FAILURES)) - files
    assert not stale, f"known failures of files not in the suite: {sorted(stale)}"


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["evaluator", "hlo-opt"])
def test_pass_rate_outside_collectives(pipeline: str | None) -> None:
    _skip_without_suite()
    passed = total = 0
    for name in _suite_files():
        collective, results = _results(name, pipeline)
        if not collective:
            passed += sum(r.passed for r in results)
            total += len(results)
    assert total and passed / total >= REQUIRED_PASS_RATE, f"{passed}/{total} passed"
