"""`xlir-run --processes N`: start `mpiexec -n N` on the same command.

The ranks run `python -m xlir.tools.run` with the other arguments
(tools/sharded_run.py). mpiexec's own output is passed through. Each rank
records its pid (and its normal end); the launcher watches those processes,
and where one ends unfinished while the others run (killed by a signal, or
gone without a word), names its rank once mpiexec has stopped the others
(mpiexec itself names a pid, not always the one that died first).
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
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TextIO

from xlir.targets.mpi_communicator import INSTALL_HINT
from xlir.tools.cli import UsageError
from xlir.tools.sharded_run import FINISHED, RANK_PIDS

_POLL_S = 0.005
_DIED = re.compile(r"PID (\d+) RUNNING AT")
_HOW = re.compile(r"(EXIT CODE: \d+|KILLED BY SIGNAL: \d+[^=\n]*)")


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
    with tempfile.TemporaryDirectory(prefix="xlir-ranks-") as pids:
        command = [mpiexec, "-n", str(count)]
        command += [sys.executable, "-m", "xlir.tools.run"]
        command += list(argv)
        process = subprocess.Popen(
            command,
            env={**os.environ, RANK_PIDS: pids},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        reports: list[str] = []
        watcher = _Watcher(Path(pids))
        threads = [
            threading.Thread(target=_pass_on, args=(stream, sink, reports))
            for stream, sink in (
                (process.stdout, sys.stdout),
                (process.stderr, sys.stderr),
            )
        ]
        threads.append(threading.Thread(target=watcher.watch, args=(process,)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        status = process.wait()
        aborted = any("MPI_Abort" in line for line in reports)
        if status != 0 and not aborted and watcher.first_dead is not None:
            rank, pid = watcher.first_dead
            how = [text for line in reports for text in _HOW.findall(line)]
            reported = any(pid in _DIED.findall(line) for line in reports)
            reason = f" ({how[0].lower()})" if how and reported else ""
            print(
                f"xlir-run: rank {rank} (pid {pid}) died{reason}; mpiexec stopped the "
                "other ranks",
                file=sys.stderr,
            )
    return status


class _Watcher:
    """Which rank's process ended first, unfinished, while the others still
    ran: the rank that died, before mpiexec stopped the rest."""

    def __init__(self, pids: Path):
        self.pids = pids
        self.first_dead: tuple[str, str] | None = None

    def watch(self, process: subprocess.Popen[str]) -> None:
        ranks: dict[str, str] = {}
        finished: set[str] = set()
        while process.poll() is None and self.first_dead is None:
            for entry in self.pids.iterdir():
                if entry.name.endswith(FINISHED):
                    finished.add(entry.name.removesuffix(FINISHED))
                elif entry.name not in ranks and entry.stat().st_size:
                    ranks[entry.name] = entry.read_text()
            dead = [pid for pid in ranks if pid not in finished and not _alive(pid)]
            if len(dead) == 1 and len(ranks) > 1:
                self.first_dead = (ranks[dead[0]], dead[0])
            elif dead:
                return  # several at once: no telling which was first
            time.sleep(_POLL_S)


def _alive(pid: str) -> bool:
    """Whether the process runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


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
