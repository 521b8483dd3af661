"""StableHLO's own interpreter test suite (../shared/stablehlo_interpret),
file by file, in-process, on every target: the interpreter (on the evaluator
as parsed, and after the `hlo-opt` pipeline, so the suite checks the passes
too) and cpu (each test compiled through `check-to-outputs` with its
constants as arguments, its checks run on the interpreter over its results:
tools/check_runner.py).

Each file's failing tests on each target must be exactly those listed here: a
listed test that starts passing fails too, so that the lists stay true. The
collective files (those that run `interpreter.run_parallel`) wait for the
collectives issue and are listed apart.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from xlir.tools.check_runner import CheckResult, check_source

from tests.conftest import STABLEHLO_SUITE

CONFIGURATIONS = {
    "evaluator": ("interpreter", None),
    "hlo-opt": ("interpreter", "hlo-opt"),
    "cpu": ("cpu", None),
}
"""id: (target, pipeline). None: the interpreter runs the parsed module;
cpu compiles with its default pipeline."""

CPU_GAPS: dict[str, dict[str, list[str]]] = {
    # complex values in a width-changing bitcast_convert (the cpu target has no
    # bitcast between widths) and complex triangular_solve (its kernel is real):
    # split-complex lists them (passes/hlo/split_complex.py)
    "complex": {
        "bitcast_convert.mlir": ["bitcast_convert_op_test_c128_to_c64"],
        "triangular_solve.mlir": [
            "triangular_solve_op_test_complex_example",
            "triangular_solve_op_test_complex_example_adjoint",
        ],
    },
    # a probe inside a loop records once per iteration; check-to-outputs returns one value per probe
    "probe": {
        "probe.mlir": ["probe_iterations"],
    },
}
"""The tests cpu fails outside the collective files, by cause (the work that
owns it, where some does)."""

KNOWN_FAILURES: dict[str, dict[str, list[str]]] = {
    "interpreter": {},
    "cpu": {
        name: [test for gaps in CPU_GAPS.values() for test in gaps.get(name, [])]
        for name in sorted({name for gaps in CPU_GAPS.values() for name in gaps})
    },
}
"""Failing tests of the non-collective files, per target, by function name."""

_COLLECTIVES = {
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

KNOWN_COLLECTIVE_FAILURES: dict[str, dict[str, list[str]]] = {
    "interpreter": _COLLECTIVES,
    "cpu": _COLLECTIVES,
}
"""Failing tests of the collective files (interpreter.run_parallel)."""

REQUIRED_PASS_RATE = {"interpreter": 0.98, "cpu": 0.99}
"""Of the non-collective tests (cpu: 472 of 481, the 9 of CPU_GAPS
failing)."""


def _suite_files() -> list[str]:
    if not STABLEHLO_SUITE.is_dir():
        return []
    return sorted(
        str(p.relative_to(STABLEHLO_SUITE)) for p in STABLEHLO_SUITE.rglob("*.mlir")
    )


@cache
def _results(name: str, configuration: str) -> tuple[bool, list[CheckResult]]:
    """(whether the file is collective, its tests' results)."""
    target, pipeline = CONFIGURATIONS[configuration]
    text = (STABLEHLO_SUITE / name).read_text()
    results = check_source(text, name, split=True, pipeline=pipeline, target=target)
    return "interpreter.run_parallel" in text, results


def _skip_without_suite() -> None:
    if not STABLEHLO_SUITE.is_dir():
        pytest.skip(f"StableHLO's test suite is not at {STABLEHLO_SUITE}")


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
@pytest.mark.parametrize("name", _suite_files() or ["<suite missing>"])
def test_file_fails_only_its_known_failures(name: str, configuration: str) -> None:
    _skip_without_suite()
    collective, results = _results(name, configuration)
    target = CONFIGURATIONS[configuration][0]
    lists = KNOWN_COLLECTIVE_FAILURES if collective else KNOWN_FAILURES
    known = lists[target].get(name, [])
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
    assert not problems, f"{name} on {configuration}:\n" + "\n".join(problems)


@pytest.mark.parametrize("target", ["interpreter", "cpu"])
def test_lists_name_only_suite_files(target: str) -> None:
    _skip_without_suite()
    files = set(_suite_files())
    listed = set(KNOWN_FAILURES[target]) | set(KNOWN_COLLECTIVE_FAILURES[target])
    stale = listed - files
    assert not stale, f"known failures of files not in the suite: {sorted(stale)}"


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_pass_rate_outside_collectives(configuration: str) -> None:
    _skip_without_suite()
    passed = total = 0
    for name in _suite_files():
        collective, results = _results(name, configuration)
        if not collective:
            passed += sum(r.passed for r in results)
            total += len(results)
    required = REQUIRED_PASS_RATE[CONFIGURATIONS[configuration][0]]
    assert total and passed / total >= required, f"{passed}/{total} passed"
