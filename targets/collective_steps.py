"""Where a compiled program's collective steps (evaluator/collective_step.py)
exchange.

Which communicator: the one `running_as` set on the calling thread (a rank
of an in-process grid of threads), else this process's: MPI where mpiexec
started it, a grid of one otherwise. A program of several devices outside
both is a diagnostic saying how to start it.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.hlo.process_grid import single_process
from xlir.targets.mpi_communicator import (
    INSTALL_HINT,
    MpiCommunicator,
    launched_by_mpiexec,
)

from xlir.communicator import Communicator
from xlir.diagnostics import XlirError

_CURRENT = threading.local()


@contextmanager
def running_as(communicator: Communicator) -> Iterator[Communicator]:
    """Run the collectives of executables called on this thread, inside the
    `with`, through `communicator`."""
    previous = getattr(_CURRENT, "communicator", None)
    _CURRENT.communicator = communicator
    try:
        yield communicator
    finally:
        _CURRENT.communicator = previous


def communicator_for(grid: Grid, channels: bool = False) -> Communicator:
    """The calling thread's communicator (`running_as`), else this
    process's (module docstring); for a program with send or recv
    (`channels`), with its channels open."""
    current = getattr(_CURRENT, "communicator", None)
    if current is None:
        current = process_communicator(grid)
    elif current.grid != grid:
        raise XlirError(
            f"error: the program runs on a grid of {grid.num_replicas} replica(s) "
            f"x {grid.num_partitions} partition(s), but it is called on one of "
            f"{current.grid.num_replicas} x {current.grid.num_partitions}"
        )
    if channels:
        current.open_channels()
    return current


@cache
def process_communicator(grid: Grid) -> Communicator:
    """This process's end of `grid`: MPI under mpiexec, else a grid of one."""
    if launched_by_mpiexec():
        return MpiCommunicator(grid)
    if grid.size == 1:
        return single_process().communicator
    hint = "" if importlib.util.find_spec("mpi4py") else f"; {INSTALL_HINT}"
    raise XlirError(
        f"error: the program runs on {grid.size} devices ({grid.num_replicas} "
        f"replica(s) x {grid.num_partitions} partition(s)): start one process per "
        f"device, `mpiexec -n {grid.size} xlir-run ...` or `xlir-run --processes "
        f"{grid.size} ...`{hint}"
    )
