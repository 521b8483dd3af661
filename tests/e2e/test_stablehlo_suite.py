"""StableHLO's own interpreter test suite (../shared/stablehlo_interpret),
file by file, in-process, on every registered target: the interpreter on the
evaluator as parsed (and once more after the `hlo-opt` pipeline, so the
suite checks the passes too), every other target with each test compiled
through `check-to-outputs` with its constants as arguments, its checks run
on the interpreter over its results (tools/check_runner.py).

Each file's failing tests on each target must be exactly those the target
lists in its known gaps, of the files it is held to (all by default) and
the tests on the element types it computes (`TargetInfo.element_types`) (`Target.known_gaps()`, e.g. targets/cpu/known_gaps.py):
a listed test that starts passing fails too, so that the lists stay true.
The collective files (those that run `interpreter.run_parallel`, a process
grid of the reference interpreter's) pass on the interpreter, whose
evaluator runs the grid (evaluator/hlo/process_grid.py), with and without
`hlo-opt`. Every other target compiles one program for one process, which
cannot hold a grid; their failures there, one diagnostic naming
run_parallel (or the token op they cannot lower) per test, are listed here.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from xlir.targets.registry import get_target, target_names
from xlir.targets.target import CompileOptions
from xlir.tools.check_runner import CheckResult, check_source, split_chunks

from tests.conftest import STABLEHLO_SUITE, computes_types_of, skip_without_device

HLO_OPT = "interpreter+hlo-opt"
"""The configuration that runs the interpreter after `hlo-opt`."""

CONFIGURATIONS = {name: (name, None) for name in target_names()} | {
    HLO_OPT: ("interpreter", "hlo-opt")
}
"""id: (target, pipeline). None: the target's default (the interpreter runs
the parsed module)."""


def known_failures(target: str) -> dict[str, list[str]]:
    """Failing tests of the non-collective files, by function name."""
    return get_target(target).known_gaps().stablehlo_suite


def held_to(name: str, target: str) -> bool:
    """Whether `target` is held to suite file `name` (its known gaps may
    name the files it is held to)."""
    files = get_target(target).known_gaps().stablehlo_suite_files
    return files is None or name in files


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

"""Failing tests of the collective files (interpreter.run_parallel), on
every target but the interpreter."""

REQUIRED_PASS_RATE = 0.98
"""Of the non-collective tests, on every target (cpu: 472 of 481)."""


def _suite_files() -> list[str]:
    if not STABLEHLO_SUITE.is_dir():
        return []
    return sorted(
        str(p.relative_to(STABLEHLO_SUITE)) for p in STABLEHLO_SUITE.rglob("*.mlir")
    )


@cache
def _results(name: str, configuration: str) -> tuple[bool, list[CheckResult]]:
    """(whether the file is collective, the results of its tests that the
    target's element types cover)."""
    target, pipeline = CONFIGURATIONS[configuration]
    text = (STABLEHLO_SUITE / name).read_text()
    collective = "interpreter.run_parallel" in text
    if get_target(target).info(CompileOptions()).element_types is None:
        results = check_source(text, name, True, pipeline=pipeline, target=target)
        return collective, results
    results = [
        result
        for chunk, _ in split_chunks(text)
        if computes_types_of(target, chunk)
        for result in check_source(chunk, name, False, pipeline, target)
    ]
    return collective, results


def _skip_without_suite() -> None:
    if not STABLEHLO_SUITE.is_dir():
        pytest.skip(f"StableHLO's test suite is not at {STABLEHLO_SUITE}")


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
@pytest.mark.parametrize("name", _suite_files() or ["<suite missing>"])
def test_file_fails_only_its_known_failures(name: str, configuration: str) -> None:
    _skip_without_suite()
    target = CONFIGURATIONS[configuration][0]
    skip_without_device(target)
    if not held_to(name, target):
        pytest.skip(f"target '{target}' is not held to {name} (its known gaps)")
    collective, results = _results(name, configuration)
    grid_file = collective and not get_target(target).is_reference
    known = (_COLLECTIVES if grid_file else known_failures(target)).get(name, [])
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


@pytest.mark.parametrize("target", target_names())
def test_lists_name_only_suite_files(target: str) -> None:
    _skip_without_suite()
    files = set(_suite_files())
    held = get_target(target).known_gaps().stablehlo_suite_files
    assert held is None or held <= files, sorted(held - files)
    listed = set(known_failures(target)) | set(_COLLECTIVES)
    stale = listed - files
    assert not stale, f"known failures of files not in the suite: {sorted(stale)}"


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_pass_rate_outside_collectives(configuration: str) -> None:
    _skip_without_suite()
    skip_without_device(CONFIGURATIONS[configuration][0])
    passed = total = 0
    target = CONFIGURATIONS[configuration][0]
    for name in _suite_files():
        if not held_to(name, target):
            continue
        collective, results = _results(name, configuration)
        if not collective:
            passed += sum(r.passed for r in results)
            total += len(results)
    assert total and passed / total >= REQUIRED_PASS_RATE, f"{passed}/{total} passed"
