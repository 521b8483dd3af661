"""`xlir-run --processes N`: start `mpiexec -n N` on the same command.

Each rank runs `python -m xlir.tools.run` with the other arguments
(tools/sharded_run.py) under a guard, its parent (tools/rank_guard.py),
which records how the rank died where it ends without having finished or
aborted. mpiexec's output passes straight through; where the run failed,
the launcher then names the rank(s) that died, from the guards' records
(mpiexec itself names a pid, not always the one that died first).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from xlir.targets.mpi_communicator import INSTALL_HINT
from xlir.tools import rank_guard
from xlir.tools.cli import UsageError


def mpiexec_path() -> str | None:
    """The `mpiexec` beside this Python (the `mpi` extra's), else on PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        return str(beside)
    return shutil.which("mpiexec")


def mpi_installed() -> bool:
    """Whether mpiexec and mpi4py are both here (the `mpi` extra)."""
    return mpiexec_path() is not None and importlib.util.find_spec("mpi4py") is not None


def launch(count: int, argv: Sequence[str]) -> int:
    """Run `xlir-run ARGV` on `count` ranks under mpiexec; its exit status."""
    if count < 1:
        raise UsageError(f"--processes must be at least 1, not {count}")
    mpiexec = mpiexec_path()
    if mpiexec is None or not mpi_installed():
        raise UsageError(f"--processes needs MPI: {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="xlir-ranks-") as reports:
        command = [mpiexec, "-n", str(count)]
        command += [sys.executable, "-P", rank_guard.__file__, *argv]
        status = subprocess.run(
            command, env={**os.environ, rank_guard.REPORTS: reports}
        ).returncode
        died = sorted(Path(reports).glob(f"*{rank_guard.DIED}"))
        for report in died:
            print(
                f"xlir-run: {report.read_text()}; mpiexec stopped the other ranks",
                file=sys.stderr,
            )
    return status


def without_processes(argv: Sequence[str]) -> list[str]:
    """`argv` less its `--processes N` (or `--processes=N`)."""
    rest: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--processes":
            skip = True
        elif not arg.startswith("--processes="):
            rest.append(arg)
    return rest
