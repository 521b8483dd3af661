"""The collective steps of a compiled program, run by any target's runtime.

A `device.collective` step names buffers and holds the HLO op that says
what to exchange. `CollectiveStep` makes that op ready once (from the text
a native entry records, `lowering/llvm/collective_calls.py`) and runs it on
numpy views of the step's buffers with the evaluator's own kernel for the
op (evaluator/hlo/collectives.py), through the caller's communicator: so
every target gives a collective the meaning the evaluator gives it, and the
communicator (in-process or MPI) is the only thing that differs.

Which communicator: the one `running_as` set on the calling thread (a rank
of an in-process grid of threads), else this process's: MPI where mpiexec
started it, a grid of one otherwise. A program of several devices outside
both is a diagnostic saying how to start it.
"""

from __future__ import annotations

import ctypes
import importlib.util
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.hlo.engine import ModuleInterpreter
from xlir.evaluator.hlo.process_grid import ProcessContext, single_process
from xlir.evaluator.hlo.types import dtype_of, tensor_shape
from xlir.targets.mpi_communicator import (
    INSTALL_HINT,
    MpiCommunicator,
    launched_by_mpiexec,
)

from xlir.communicator import Communicator
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module


class CollectiveStep:
    """One collective step: its HLO op, as a one-op function the evaluator
    runs, and the layouts of its buffers (inputs, then outputs)."""

    def __init__(self, text: str):
        """From the module text `collective_calls.site_text` made."""
        module = parse_module(make_context(), text, "<collective step>")
        function = module.body.block.first_op
        assert isinstance(function, func.FuncOp)
        ftype = function.function_type
        self.layouts = [
            (dtype_of(t), tensor_shape(t)) for t in (*ftype.inputs, *ftype.outputs)
        ]
        self.input_count = len(ftype.inputs)
        self.interpreter = ModuleInterpreter(module)
        self.lock = threading.Lock()
        """One run at a time: the interpreter's process is per run."""

    def run(self, communicator: Communicator, buffers: Sequence[np.ndarray]) -> None:
        """Exchange on `buffers`, the step's (typed, or raw bytes)."""
        views = [
            buffer.reshape(-1).view(dtype).reshape(shape)
            for buffer, (dtype, shape) in zip(buffers, self.layouts, strict=True)
        ]
        inputs, outputs = views[: self.input_count], views[self.input_count :]
        with self.lock:
            self.interpreter.process = ProcessContext(communicator)
            results = self.interpreter.call("exchange", inputs)
        for output, result in zip(outputs, results, strict=True):
            output[...] = result

    def run_at(self, communicator: Communicator, addresses: Sequence[int]) -> None:
        """Exchange on the buffers at these addresses (a native entry's)."""
        buffers = []
        for address, (dtype, shape) in zip(addresses, self.layouts, strict=True):
            size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            raw = (ctypes.c_char * size).from_address(address)
            buffers.append(
                np.frombuffer(raw, np.uint8) if size else np.empty(0, np.uint8)
            )
        self.run(communicator, buffers)


def program_grid(module: ModuleOp) -> Grid:
    """The grid a module runs on: its `mhlo.num_replicas` x
    `mhlo.num_partitions` (1 each where it does not say)."""
    counts = []
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        value = module.attributes.get(name)
        counts.append(value.value.data if isinstance(value, IntegerAttr) else 1)
    return Grid(*counts)


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


def communicator_for(grid: Grid) -> Communicator:
    """The calling thread's communicator (`running_as`), else this
    process's (module docstring)."""
    current = getattr(_CURRENT, "communicator", None)
    if current is None:
        return process_communicator(grid)
    if current.grid != grid:
        raise XlirError(
            f"error: the program runs on a grid of {grid.num_replicas} replica(s) "
            f"x {grid.num_partitions} partition(s), but it is called on one of "
            f"{current.grid.num_replicas} x {current.grid.num_partitions}"
        )
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
