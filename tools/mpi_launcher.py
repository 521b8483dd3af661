"""`xlir-run --processes N`: start `mpiexec -n N` on the same command.

The ranks run `python -m xlir.tools.run` with the other arguments
(tools/sharded_run.py). mpiexec's own output is passed through; where it
says a process died (killed by a signal, or exited without a word), the
launcher names that process's rank, which each rank recorded with its pid.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TextIO

from xlir.targets.mpi_communicator import INSTALL_HINT
from xlir.tools.cli import UsageError
from xlir.tools.sharded_run import RANK_PIDS

_DIED = re.compile(r"PID (\d+) RUNNING AT")
_HOW = re.compile(r"(EXIT CODE: \d+|KILLED BY SIGNAL: \d+[^=\n]*)")


def mpiexec_path() -> str | None:
    """The `mpiexec` beside this Python (the `mpi` extra's), else on PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.exists():
        return str(beside)
    return shutil.which("mpiexec")


def launch(count: int, argv: Sequence[str]) -> int:
    """Run `xlir-run ARGV` on `count` ranks under mpiexec; its exit status."""
    if count < 1:
        raise UsageError(f"--processes must be at least 1, not {count}")
    mpiexec = mpiexec_path()
    if mpiexec is None or importlib.util.find_spec("mpi4py") is None:
        raise UsageError(f"--processes needs MPI: {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="xlir-ranks-") as pids:
        command = [mpiexec, "-n", str(count), sys.executable, "-m", "xlir.tools.run"]
        command += list(argv)
        process = subprocess.Popen(
            command,
            env={**os.environ, RANK_PIDS: pids},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        reports: list[str] = []
        passers = [
            threading.Thread(target=_pass_on, args=(stream, sink, reports))
            for stream, sink in (
                (process.stdout, sys.stdout),
                (process.stderr, sys.stderr),
            )
        ]
        for passer in passers:
            passer.start()
        for passer in passers:
            passer.join()
        died = [pid for line in reports for pid in _DIED.findall(line)]
        how = [text for line in reports for text in _HOW.findall(line)]
        status = process.wait()
        for pid in died:
            rank_file = Path(pids) / pid
            rank = rank_file.read_text() if rank_file.exists() else "?"
            reason = f" ({how[0].lower()})" if how else ""
            print(
                f"xlir-run: rank {rank} (pid {pid}) died{reason}; mpiexec stopped "
                "the other ranks",
                file=sys.stderr,
            )
    return status


def _pass_on(stream: IO[str] | None, sink: TextIO, reports: list[str]) -> None:
    """Copy `stream` to `sink` line by line, keeping mpiexec's reports of a
    process that died (hydra writes them to stdout)."""
    assert stream is not None
    for line in stream:
        sink.write(line)
        sink.flush()
        if _DIED.search(line) or _HOW.search(line):
            reports.append(line)


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
