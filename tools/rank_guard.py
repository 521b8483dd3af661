"""One rank of `xlir-run --processes`, watched from its own parent.

mpiexec starts this file (`python -P rank_guard.py ARGS`), which runs the
rank, `python -m xlir.tools.run ARGS`, as its child and waits for it. Where
the rank ends without having said so (killed by a signal, or a non-zero
exit before it finished or aborted), this records which rank died and how in the
launcher's report folder, then ends the same way. mpiexec sees the rank's
end only after that, so the launcher names the rank that died, never one
that mpiexec stopped afterwards (mpiexec stops a whole process group: this
guard and its rank together, before the guard can write anything).

It imports nothing of xlir: it only waits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

REPORTS = "XLIR_RANK_REPORTS"
"""Environment: the folder where ranks mark their end and guards report
deaths (the launcher reads it once mpiexec is done)."""
ENDED = ".ended"
"""Suffix of the file `{pid}{ENDED}` a rank writes where it ends by itself:
at its normal end, or after printing its diagnostic, before MPI_Abort."""
DIED = ".died"
"""Suffix of the file `{pid}{DIED}` holding how a rank died."""
_RANK_VARIABLES = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")
"""Where mpiexec (MPICH's hydra, PMIx, Open MPI) gives a process its rank."""


def how_it_ended(status: int) -> str:
    """`Popen.returncode` in words."""
    if status < 0:
        try:
            name = f", {signal.Signals(-status).name}"
        except ValueError:
            name = ""
        return f"killed by signal {-status}{name}"
    return f"exited with status {status} before it finished"


def main(argv: list[str]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it with its rank
    folder = Path(os.environ[REPORTS])
    rank = next((os.environ[v] for v in _RANK_VARIABLES if v in os.environ), "?")
    command = [sys.executable, "-m", "xlir.tools.run", *argv]
    # close_fds=False: the rank inherits mpiexec's connection (PMI) as is.
    child = subprocess.Popen(command, close_fds=False)
    status = child.wait()
    if status != 0 and not (folder / f"{child.pid}{ENDED}").exists():
        report = f"rank {rank} (pid {child.pid}) died ({how_it_ended(status)})"
        (folder / f"{child.pid}{DIED}").write_text(report)
    if status < 0:
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler
            signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main(sys.argv[1:])
