"""The layer contracts in pyproject.toml (`[tool.importlinter]`): each layer
imports only those below it (tools, testing, api, targets, lowering, passes,
analysis, evaluator, the IR core, dialects), only a target's own folder
imports it, and targets do not import each other. import-linter reads the
package from its folders, so it runs on the package laid out as installed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.installed_tree import ROOT, link_installed_tree

pytest.importorskip("importlinter", reason="import-linter (the test extra) is absent")

LINT = """\
import sys
from importlinter.cli import lint_imports

sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))
"""


def test_import_contracts_are_kept() -> None:
    folder = ROOT / "build" / "layers"
    link_installed_tree(folder)
    result = subprocess.run(
        [sys.executable, "-c", LINT, str(ROOT / "pyproject.toml")],
        cwd=folder,
        env=dict(os.environ, PYTHONPATH=str(folder)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
