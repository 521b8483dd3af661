"""Runs the lit suite under tests/lit once and reports each file as a pytest
case, so one pytest run (and its closing line) covers every test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LIT_ROOT = Path(__file__).parent / "lit"
LIT_COMMAND = [sys.executable, "-c", "from lit.main import main; main()"]
LIT_FILES = sorted(
    p.relative_to(LIT_ROOT).as_posix()
    for p in LIT_ROOT.rglob("*.mlir")
    if "Inputs" not in p.parts and "Output" not in p.parts
)


@pytest.fixture(scope="session")
def lit_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    report = tmp_path_factory.mktemp("lit") / "results.json"
    run = subprocess.run(
        [*LIT_COMMAND, "-q", "-o", str(report), str(LIT_ROOT)],
        check=False,
        capture_output=True,
        text=True,
    )
    if not report.exists():
        pytest.fail(f"lit did not run:\n{run.stdout}\n{run.stderr}")
    results = json.loads(report.read_text())["tests"]
    return {r["name"].split(" :: ", 1)[1]: r for r in results}


@pytest.mark.parametrize("name", LIT_FILES)
def test_lit(name: str, lit_results: dict[str, dict]) -> None:
    result = lit_results.get(name)
    assert result is not None, f"lit did not run {name}"
    if result["code"] == "UNSUPPORTED":
        pytest.skip(f"lit: {name} is unsupported here (its REQUIRES: line)")
    assert result["code"] in ("PASS", "XFAIL"), result["output"]
