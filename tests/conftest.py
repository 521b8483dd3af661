"""Shared test fixtures: where the JAX-exported corpus and StableHLO's
interpreter test suite live (`../shared`, beside the repository). Every test
runs with the IR verified after each pass (XLIR_VERIFY_EACH,
xlir/pass_manager.py), so a pass that breaks the IR fails the test that ran
it and is named.

Without `../shared`, the tests that read it are skipped with a message
saying where it comes from (a module that reads it when imported is skipped
whole), and the rest run.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest

os.environ.setdefault("XLIR_VERIFY_EACH", "1")


def pytest_configure(config: pytest.Config) -> None:
    write_bytecode()
    cache_per_run(config)


def cache_per_run(config: pytest.Config) -> None:
    """The cpu target's compile cache (targets/cpu/cache.py) lives in a
    folder of this run's own, removed at the end, unless XLIR_CACHE_DIR
    names one: its keys include the sources' modification times, so the
    entries of one checkout's run are never hit by another's, and a shared
    `~/.cache/xlir` would only grow. Programs compiled twice in the run
    still hit it."""
    if os.environ.get("XLIR_CACHE_DIR"):
        return
    folder = tempfile.mkdtemp(prefix="xlir-test-cache-")
    os.environ["XLIR_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def write_bytecode() -> None:
    """Many tests start Python processes (xlir-run, the fuzzers' worker,
    MPI ranks), and each imports xlir. Where the environment says
    PYTHONDONTWRITEBYTECODE, every one of them compiles xlir's sources again,
    a third of a tool's start-up; they write their bytecode instead, as lit's
    tool runs do (lit passes no such setting on). `__pycache__` is ignored
    by git."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
CORPUS = SHARED / "corpus"
MISSING_SHARED = (
    f"{SHARED} is absent: the JAX corpus and StableHLO's interpreter test suite "
    "that these tests read live there, beside the repository (the project's "
    "shared folder; see the README's Layout section). To make the corpus "
    "yourself: pip install -e '.[bench]' && python scripts/export_corpus.py "
    f"{CORPUS}"
)


def _reads_missing_shared(text: str) -> bool:
    """Whether a failure names a path in `../shared` while it is absent."""
    return not SHARED.exists() and str(SHARED) in text


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    report = yield
    if report.failed and _reads_missing_shared(str(report.longrepr)):
        report.outcome = "skipped"
        report.longrepr = (str(collector.path), 0, f"Skipped: {MISSING_SHARED}")
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    try:
        return (yield)
    except Exception as error:
        if _reads_missing_shared(str(error)):
            pytest.skip(MISSING_SHARED)
        raise


STABLEHLO_SUITE = CORPUS.parent / "stablehlo_interpret"


def skip_without_device(target: str) -> None:
    """Skip a test that runs a program on `target` where it has no device
    (xlir.testing.target_conformance)."""
    from xlir.testing.target_conformance import skip_without_device as skip

    skip(target)


ELEMENT_TYPE = re.compile(r"tensor<(?:[0-9?]+x)*([^,>x][^,>]*)")
"""The element type of a tensor type in a program's text."""


def computes_types_of(target: str, text: str) -> bool:
    """Whether `target` computes every element type of the tensors in
    `text` (its `TargetInfo.element_types`; None: all of them). A target
    refuses the others with one diagnostic; tests that compare its results
    hold it only to programs on its types."""
    from xlir.targets.registry import get_target
    from xlir.targets.target import CompileOptions

    types = get_target(target).info(CompileOptions()).element_types
    return types is None or set(ELEMENT_TYPE.findall(text)) <= types


def may_refuse(target: str) -> bool:
    """Whether `target` computes only some element types: it may refuse a
    program with one diagnostic listing what it cannot compute (never by
    computing it wrong), which a test comparing results accepts."""
    from xlir.targets.registry import get_target
    from xlir.targets.target import CompileOptions

    return get_target(target).info(CompileOptions()).element_types is not None


def runnable_targets() -> list[str]:
    """The registered targets that can run programs on this machine."""
    from xlir.testing.target_conformance import missing_device

    return [t for t in registered_targets() if missing_device(t) is None]


def registered_targets() -> list[str]:
    """Every registered target, by name: what tests held to every target
    are parametrised over."""
    from xlir.targets.registry import target_names

    return target_names()
