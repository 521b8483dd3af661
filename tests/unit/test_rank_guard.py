"""The guard `xlir-run --processes` starts each rank under
(tools/rank_guard.py): a rank that ends without saying so is recorded,
naming its rank and how it ended; one that ends by itself is not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from xlir.tools import rank_guard


def _guard(reports: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, rank_guard.REPORTS: str(reports), "PMI_RANK": "3"}
    command = [sys.executable, "-P", rank_guard.__file__, *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_a_rank_that_exits_unfinished_is_reported(tmp_path: Path) -> None:
    done = _guard(tmp_path, "--no-such-option")  # xlir-run refuses it at once
    assert done.returncode == 2, done.stderr
    (report,) = tmp_path.glob(f"*{rank_guard.DIED}")
    pid = report.name.removesuffix(rank_guard.DIED)
    assert report.read_text() == (
        f"rank 3 (pid {pid}) died (exited with status 2 before it finished)"
    )


def test_a_rank_that_exits_cleanly_is_not_reported(tmp_path: Path) -> None:
    """(A rank that fails ends by itself too, after its diagnostic: the
    failing-rank test of tests/e2e/test_mpi_sharded.py.)"""
    done = _guard(tmp_path, "--list-targets")
    assert done.returncode == 0, done.stderr
    assert "cpu" in done.stdout
    assert not list(tmp_path.iterdir())
