"""The collective steps of a compiled program, run by any target's runtime.

A `device.collective` step names buffers and holds the HLO op that says
what to exchange. `CollectiveStep` is that op made ready once (from the text
a native entry records, `lowering/llvm/collective_calls.py`, or from the op
itself) and runs it on numpy views of the step's buffers through a
communicator, with the evaluator's meaning (evaluator/collectives.py).

Which communicator: the one `xlir.communicator.running_as` set on the
calling thread (a rank of an in-process grid), else the executable's own:
MPI where the process was started by mpiexec, a grid of one otherwise.
A program of several devices outside mpiexec is a diagnostic saying how to
start it.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from functools import cache

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xlir.dialects import device
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.collectives import run_collective
from xlir.evaluator.hlo.types import dtype_of, tensor_shape
from xlir.targets.mpi_communicator import (
    INSTALL_HINT,
    MpiCommunicator,
    launched_by_mpiexec,
)

from xlir.communicator import Communicator, current_communicator
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module


class CollectiveStep:
    """One collective step: its HLO op and the layouts of its buffers
    (inputs, then outputs)."""

    def __init__(self, exchange: Operation, types: Sequence[object]):
        self.exchange = exchange
        self.layouts = [(dtype_of(t), tensor_shape(t)) for t in types]  # pyright: ignore[reportArgumentType]
        self.input_count = len(exchange.operands)

    @classmethod
    def from_text(cls, text: str) -> CollectiveStep:
        """From the module text `collective_calls.site_text` made."""
        module = parse_module(make_context(), text, "<collective step>")
        function = module.body.block.first_op
        assert isinstance(function, func.FuncOp)
        exchange = function.body.block.first_op
        assert exchange is not None
        ftype = function.function_type
        return cls(exchange, [*ftype.inputs, *ftype.outputs])

    @classmethod
    def from_op(cls, op: device.CollectiveOp) -> CollectiveStep:
        region = op.body.clone()
        returned = region.block.last_op
        assert returned is not None
        types = [*region.block.arg_types, *returned.operand_types]
        exchange = region.block.first_op
        assert exchange is not None
        step = cls(exchange, types)
        step.region = region  # keeps the op's block alive
        return step

    def run(self, communicator: Communicator, buffers: Sequence[np.ndarray]) -> None:
        """Exchange: `buffers` are the step's, as typed arrays or raw bytes."""
        views = [
            buffer.reshape(-1).view(dtype).reshape(shape)
            for buffer, (dtype, shape) in zip(buffers, self.layouts, strict=True)
        ]
        run_collective(
            self.exchange,
            communicator,
            views[: self.input_count],
            views[self.input_count :],
        )

    def run_at(self, communicator: Communicator, addresses: Sequence[int]) -> None:
        """Exchange on the buffers at these addresses (a native entry's)."""
        buffers = []
        for address, (dtype, shape) in zip(addresses, self.layouts, strict=True):
            size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            raw = (ctypes.c_char * size).from_address(address) if size else b""
            buffers.append(np.frombuffer(raw, np.uint8) if size else np.empty(0, np.uint8))
        self.run(communicator, buffers)


def communicator_for(grid: Grid) -> Communicator:
    """The calling thread's communicator (`running_as`), else this
    process's: MPI under mpiexec, a grid of one otherwise."""
    current = current_communicator()
    if current is not None:
        if current.grid != grid:
            raise XlirError(
                f"error: the program runs on {grid.num_replicas} replica(s) x "
                f"{grid.num_partitions} partition(s), but it is called on a grid "
                f"of {current.grid.num_replicas} x {current.grid.num_partitions}"
            )
        return current
    return _process_communicator(grid)


@cache
def _process_communicator(grid: Grid) -> Communicator:
    if launched_by_mpiexec():
        return MpiCommunicator(grid)
    if grid.size == 1:
        return SingleDevice(grid)
    raise XlirError(
        f"error: the program runs on {grid.size} devices ({grid.num_replicas} "
        f"replica(s) x {grid.num_partitions} partition(s)): start one process per "
        f"device with `mpiexec -n {grid.size} xlir-run ...` or `xlir-run "
        f"--processes {grid.size} ...`"
        + ("" if _has_mpi() else f"; {INSTALL_HINT}")
    )


def _has_mpi() -> bool:
    try:
        __import__("mpi4py")
    except ImportError:
        return False
    return True


def collective_steps(module: ModuleOp, texts: Sequence[str]) -> list[CollectiveStep]:
    del module
    return [CollectiveStep.from_text(text) for text in texts]
