"""The project's lint and type checks, run as tests so one pytest run covers
them: ruff (lint and format) and pyright, as configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE_DIRS = {
    package.removeprefix("xlir."): folder
    for package, folder in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["package-dir"].items()
    if package != "xlir"
}
SOURCES = ["xlir", *PACKAGE_DIRS.values(), "tests", "benchmarks", "scripts"]


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


def _typecheck_tree() -> None:
    """build/typecheck/xlir: the package as installed, its files linked in
    (pyright does not look for sources inside linked folders)."""
    package = ROOT / "build" / "typecheck" / "xlir"
    if package.exists():
        shutil.rmtree(package)
    sources = {package: ROOT / "xlir"} | {
        package / name: ROOT / folder for name, folder in PACKAGE_DIRS.items()
    }
    for target, source in sources.items():
        for file in source.rglob("*.py"):
            link = target / file.relative_to(source)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(file)


@pytest.mark.skipif(shutil.which("pyright") is None, reason="pyright not installed")
def test_pyright() -> None:
    _typecheck_tree()
    result = _run("pyright")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr
