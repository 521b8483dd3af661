"""The project's lint and type checks, run as tests so one pytest run covers
them: ruff (lint and format) and pyright, as configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.installed_tree import PACKAGE_DIRS, ROOT, link_installed_tree

SOURCES = [
    "xlir",
    *PACKAGE_DIRS.values(),
    "tests",
    "benchmarks",
    "scripts",
    "examples",
    "docs",
    "README.md",
]


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


@pytest.mark.skipif(shutil.which("pyright") is None, reason="pyright not installed")
def test_pyright() -> None:
    link_installed_tree(ROOT / "build" / "typecheck")
    result = _run("pyright")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr
