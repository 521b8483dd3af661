"""Runs the lit suite under tests/lit and reports each file as a pytest case,
so one pytest run (and its closing line) covers every test.

The files are dealt into batches, each one lit run and one `xdist_group`:
pytest-xdist's workers (`--dist loadgroup`) then share the batches, where a
single run of the whole suite would either be repeated by every worker (a
session fixture is per worker) or hold one worker while the others wait.
Under xdist each batch runs on one core (`-j1`): the workers are the
parallelism. Each lit run serves its tools from a warm fork server
(`tests/lit/lit.cfg.py`); `test_console_scripts_under_lit` runs the console
scripts themselves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

LIT_ROOT = Path(__file__).parent / "lit"
LIT_COMMAND = [sys.executable, "-c", "from lit.main import main; main()"]
LIT_FILES = sorted(
    p.relative_to(LIT_ROOT).as_posix()
    for p in LIT_ROOT.rglob("*.mlir")
    if "Inputs" not in p.parts and "Output" not in p.parts
)
BATCHES = 16
"""Enough batches that the last to finish is short beside the whole run,
few enough that lit's own start-up is not repeated much."""


def batch_of(name: str) -> int:
    """Files are dealt in turn, so each folder's (slow or quick) files
    spread over the batches."""
    return LIT_FILES.index(name) % BATCHES


def run_batch(files: list[str], report: Path) -> dict[str, dict]:
    """lit's result for each of `files` (paths under LIT_ROOT), by path."""
    jobs = ["-j1"] if "PYTEST_XDIST_WORKER" in os.environ else []
    run = subprocess.run(
        [*LIT_COMMAND, "-q", *jobs, "-o", str(report)]
        + [str(LIT_ROOT / name) for name in files],
        check=False,
        capture_output=True,
        text=True,
    )
    if not report.exists():
        pytest.fail(f"lit did not run:\n{run.stdout}\n{run.stderr}")
    results = json.loads(report.read_text())["tests"]
    return {r["name"].split(" :: ", 1)[1]: r for r in results}


@pytest.fixture(scope="session")
def lit_result(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], dict | None]:
    """The lit result of a file, its batch run on first asking: the files of
    the batch that this session selected (`-k`, node ids)."""
    selected = {
        item.callspec.params["name"]
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.originalname == "test_lit"
    }
    batches: dict[int, dict[str, dict]] = {}

    def result(name: str) -> dict | None:
        batch = batch_of(name)
        if batch not in batches:
            files = [f for f in LIT_FILES[batch::BATCHES] if f in selected]
            report = tmp_path_factory.mktemp("lit") / "results.json"
            batches[batch] = run_batch(files, report)
        return batches[batch].get(name)

    return result


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xdist_group(f"lit{batch_of(name)}"))
        for name in LIT_FILES
    ],
)
def test_lit(name: str, lit_result: Callable[[str], dict | None]) -> None:
    result = lit_result(name)
    assert result is not None, f"lit did not run {name}"
    if result["code"] == "UNSUPPORTED":
        pytest.skip(f"lit: {name} is unsupported here (its REQUIRES: line)")
    assert result["code"] in ("PASS", "XFAIL"), result["output"]


def test_console_scripts_under_lit(tmp_path: Path) -> None:
    """`XLIR_LIT_TOOL_SERVER=0`: lit runs the console scripts themselves, so
    their entry points stay tested under lit too."""
    report = tmp_path / "results.json"
    subprocess.run(
        [
            *LIT_COMMAND,
            "-q",
            "-o",
            str(report),
            str(LIT_ROOT / "tools" / "opt_errors.mlir"),
        ],
        env={**os.environ, "XLIR_LIT_TOOL_SERVER": "0"},
        check=False,
        capture_output=True,
    )
    [result] = json.loads(report.read_text())["tests"]
    assert result["code"] == "PASS", result["output"]
