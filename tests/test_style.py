"""The project's lint and type checks, run as tests so one pytest run covers
them: ruff (lint and format) and pyright, as configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SOURCES = ["xlir", "dialects", "passes", "tools", "tests", "benchmarks"]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", *SOURCES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run(sys.executable, "-m", "ruff", "format", "--check", *SOURCES)
    assert result.returncode == 0, result.stdout + result.stderr


PACKAGE_DIRS = {"dialects": "dialects", "passes": "passes", "tools": "tools",
                "targets": "targets", "lowering": "lowering"}  # fmt: skip


def _typecheck_tree() -> None:
    """build/typecheck/xlir: the package as installed, made of links."""
    package = ROOT / "build" / "typecheck" / "xlir"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    for entry in (ROOT / "xlir").iterdir():
        (package / entry.name).symlink_to(entry)
    for name, folder in PACKAGE_DIRS.items():
        if (ROOT / folder).is_dir():
            (package / name).symlink_to(ROOT / folder)


@pytest.mark.skipif(shutil.which("pyright") is None, reason="pyright not installed")
def test_pyright() -> None:
    _typecheck_tree()
    result = _run("pyright")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr
