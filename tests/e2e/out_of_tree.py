"""Out-of-tree packages as a user installs them, for the tests that run the
examples: pip-installed offline into a folder of the test run
(`--no-build-isolation --no-deps --no-index`: setuptools and wheel come
with the test extra), and xlir's tools run with that folder on their path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def install(package: Path, folder: Path) -> Path:
    """`package` (a folder with a pyproject.toml) installed under `folder`;
    returns the folder to put on PYTHONPATH (its scripts are in `bin/`)."""
    source = folder / "source"  # setuptools builds in the source folder
    shutil.copytree(
        package, source, ignore=shutil.ignore_patterns("build", "*.egg-info")
    )
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    command += ["--no-build-isolation", "--no-index", "--target", str(folder / "site")]
    done = subprocess.run(
        [*command, str(source)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return folder / "site"


def run(
    site: Path, *command: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`command` (xlir-run, xlir-lit, ...) with `site`'s packages and scripts."""
    path = os.pathsep.join([str(site / "bin"), os.environ.get("PATH", "")])
    environment = dict(os.environ, PYTHONPATH=str(site), PATH=path)
    return subprocess.run(
        list(command),
        capture_output=True,
        text=True,
        env=environment,
        cwd=cwd,
        timeout=600,
    )
