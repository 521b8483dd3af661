"""The communicator across processes: MPI through mpi4py, one process per
device, device id = rank in `MPI.COMM_WORLD`.

Each collective is MPI's own on numpy views (no copies where the layout
allows): Allreduce, Allgather, Reduce_scatter_block, Alltoall, Bcast on a
communicator of the op's process group (`Split` once per set of groups, all
ranks together since all run the same program), and Isend/Irecv for
collective_permute. Reductions MPI lacks (a body other than one named op,
an element type MPI has no type for) gather the group's arrays and fold them
in group order, as the in-process communicator does.

Before the data moves, the ranks of the group exchange what each is about to
send (op, shape, element type): arrays that differ across ranks are a
`CollectiveError` on every rank naming them, not a truncated message or a
hang. A rank that raises or dies is the caller's to turn into MPI_Abort
(`abort`), which stops every other rank.

mpi4py is optional (`pip install -e '.[mpi]'`); `mpi_world()` says how to
get it where it is missing.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from xlir.dialects.stablehlo.process_groups import Grid

from xlir.communicator import (
    REDUCTIONS,
    CollectiveError,
    Communicator,
    Groups,
    Reduction,
    check_pairs,
    reduce_in_order,
)
from xlir.diagnostics import XlirError

INSTALL_HINT = (
    "MPI is not installed: `pip install -e '.[mpi]'` (mpich and mpi4py from pip; "
    "mpiexec lands in the virtualenv's bin)"
)

_LAUNCHER_VARIABLES = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE")
"""Set by mpiexec (MPICH's hydra, PMIx, Open MPI) in every process it starts."""

_MPI_TYPES = {
    np.dtype(t)
    for t in (
        np.bool_,
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
        np.float32,
        np.float64,
        np.complex64,
        np.complex128,
    )
}
"""Element types MPI reduces itself (float16, bfloat16, fp8 it has not)."""

_OPS = (
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "collective_permute",
    "collective_broadcast",
)
_MAX_RANK = 8
_DESCRIPTION_LENGTH = 5 + _MAX_RANK
"""Integers per rank in the shape check (`_describe`)."""


def launched_by_mpiexec() -> bool:
    """Whether this process was started by mpiexec (without importing MPI)."""
    return any(name in os.environ for name in _LAUNCHER_VARIABLES)


def mpi_module() -> Any:
    """mpi4py's `MPI`, or a diagnostic saying how to install it."""
    try:
        return importlib.import_module("mpi4py.MPI")
    except ImportError as error:
        raise XlirError(f"error: {INSTALL_HINT} ({error})") from error


def mpi_world() -> tuple[int, int]:
    """(rank, size) of `MPI.COMM_WORLD`."""
    world = mpi_module().COMM_WORLD
    return world.Get_rank(), world.Get_size()


def abort(message: str, code: int = 1) -> None:
    """Print `message` (prefixed with this rank) and stop every rank of the
    job: MPI_Abort, which mpiexec reports naming this rank."""
    mpi = mpi_module()
    rank = mpi.COMM_WORLD.Get_rank()
    sys.stdout.flush()
    print(f"rank {rank}: {message}", file=sys.stderr, flush=True)
    mpi.COMM_WORLD.Abort(code)


class MpiCommunicator(Communicator):
    """This process's end of the grid: rank `MPI.COMM_WORLD`'s rank, which
    must hold exactly `grid.size` processes."""

    def __init__(self, grid: Grid, world: Any = None):
        self.mpi = mpi_module()
        self.world = world if world is not None else self.mpi.COMM_WORLD
        size = self.world.Get_size()
        if size != grid.size:
            raise CollectiveError(
                f"error: the program runs on {grid.size} device(s) "
                f"({grid.num_replicas} replica(s) x {grid.num_partitions} "
                f"partition(s)), but mpiexec started {size} process(es); "
                f"run it with `mpiexec -n {grid.size}`"
            )
        super().__init__(grid, self.world.Get_rank())
        self._group_comms: dict[tuple[tuple[int, ...], ...], Any] = {}
        self._ops = {
            "add": self.mpi.SUM,
            "multiply": self.mpi.PROD,
            "maximum": self.mpi.MAX,
            "minimum": self.mpi.MIN,
        }

    # --- the collectives ---------------------------------------------------------

    def all_reduce(
        self,
        groups: Groups,
        array: np.ndarray,
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm, _ = self._group(groups, "all_reduce", array)
        out = _output(out, array.shape, array.dtype)
        op = self._mpi_op(reduction, array.dtype)
        if op is None:
            parts = self._gather_parts(comm, array)
            out[...] = reduce_in_order(list(parts), reduction)
        else:
            comm.Allreduce(_contiguous(array), _receiving(out), op)
        return out

    def all_gather(
        self,
        groups: Groups,
        array: np.ndarray,
        dimension: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm, group = self._group(groups, "all_gather", array, dimension)
        shape = list(array.shape)
        shape[dimension] *= len(group)
        out = _output(out, tuple(shape), array.dtype)
        if dimension == 0 and out.flags.c_contiguous:
            comm.Allgather(_contiguous(array), out)
        else:
            parts = self._gather_parts(comm, array)
            np.concatenate(list(parts), axis=dimension, out=out)
        return out

    def reduce_scatter(
        self,
        groups: Groups,
        array: np.ndarray,
        dimension: int,
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm, group = self._group(groups, "reduce_scatter", array, dimension)
        count = len(group)
        if array.shape[dimension] % count:
            raise CollectiveError(
                f"error: reduce_scatter: dimension {dimension} of {array.shape} "
                f"does not split into {count} equal parts"
            )
        shape = list(array.shape)
        shape[dimension] //= count
        out = _output(out, tuple(shape), array.dtype)
        op = self._mpi_op(reduction, array.dtype)
        if op is not None:
            blocks = _contiguous(np.stack(np.split(array, count, axis=dimension)))
            comm.Reduce_scatter_block(blocks, _receiving(out), op)
        else:
            total = reduce_in_order(list(self._gather_parts(comm, array)), reduction)
            out[...] = np.split(total, count, axis=dimension)[comm.Get_rank()]
        return out

    def all_to_all(
        self,
        groups: Groups,
        array: np.ndarray,
        split_dimension: int,
        concat_dimension: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm, group = self._group(
            groups, "all_to_all", array, split_dimension * 8 + concat_dimension
        )
        count = len(group)
        if array.shape[split_dimension] % count:
            raise CollectiveError(
                f"error: all_to_all: dimension {split_dimension} of {array.shape} "
                f"does not split into {count} equal parts"
            )
        send = _contiguous(np.stack(np.split(array, count, axis=split_dimension)))
        received = np.empty_like(send)
        comm.Alltoall(send, received)
        shape = list(send.shape[1:])
        shape[concat_dimension] *= count
        out = _output(out, tuple(shape), array.dtype)
        np.concatenate(list(received), axis=concat_dimension, out=out)
        return out

    def collective_permute(
        self,
        pairs: Sequence[tuple[int, int]],
        array: np.ndarray,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        check_pairs(pairs, self.size)
        self._check_same(self.world, "collective_permute", array, 0)
        out = _output(out, array.shape, array.dtype)
        requests = []
        source = next((s for s, t in pairs if t == self.rank), None)
        target = next((t for s, t in pairs if s == self.rank), None)
        receiving = _receiving(out)
        if source is not None:
            requests.append(self.world.Irecv(receiving, source=source, tag=7))
        if target is not None:
            requests.append(self.world.Isend(_contiguous(array), dest=target, tag=7))
        self.mpi.Request.Waitall(requests)
        if source is None:
            out[...] = 0
        elif receiving is not out:
            out[...] = receiving
        return out

    def collective_broadcast(
        self, groups: Groups, array: np.ndarray, out: np.ndarray | None = None
    ) -> np.ndarray:
        comm, _ = self._group(groups, "collective_broadcast", array)
        out = _output(out, array.shape, array.dtype)
        if comm.Get_rank() == 0:
            out[...] = array
        receiving = _receiving(out)
        comm.Bcast(receiving, root=0)
        if receiving is not out:
            out[...] = receiving
        return out

    def barrier(self) -> None:
        self.world.Barrier()

    # --- helpers -------------------------------------------------------------------

    def _group(
        self, groups: Groups, what: str, array: np.ndarray, extra: int = 0
    ) -> tuple[Any, list[int]]:
        """The MPI communicator of this rank's group (made once per set of
        groups, by every rank together), after the shape check."""
        group = self.own_group(groups)
        key = tuple(tuple(g) for g in groups)
        comm = self._group_comms.get(key)
        if comm is None:
            if list(group) == list(range(self.size)):
                comm = self.world
            else:
                color = min(min(g) for g in groups if self.rank in g)
                comm = self.world.Split(color, group.index(self.rank))
            self._group_comms[key] = comm
        self._check_same(comm, what, array, extra, group)
        return comm, group

    def _check_same(
        self,
        comm: Any,
        what: str,
        array: np.ndarray,
        extra: int,
        group: list[int] | None = None,
    ) -> None:
        """Every rank of `comm` sends the same op, shape and element type, or
        a CollectiveError on every one of them naming the ranks."""
        mine = _describe(what, array, extra)
        everyone = np.empty((comm.Get_size(), _DESCRIPTION_LENGTH), np.int64)
        comm.Allgather(mine, everyone)
        if (everyone == mine).all():
            return
        ranks = group if group is not None else list(range(comm.Get_size()))
        lines = [
            f"  rank {ranks[i]}: {_read_description(row)}"
            for i, row in enumerate(everyone)
        ]
        raise CollectiveError(
            f"error: {what}: the ranks do not agree on what they exchange "
            f"(rank {self.rank} sends {_read_description(mine)}):\n" + "\n".join(lines)
        )

    def _gather_parts(self, comm: Any, array: np.ndarray) -> np.ndarray:
        """Every group member's array, stacked in group order."""
        parts = np.empty((comm.Get_size(), *array.shape), array.dtype)
        comm.Allgather(_bytes(_contiguous(array)), _bytes(parts))
        return parts

    def _mpi_op(self, reduction: Reduction, dtype: np.dtype) -> Any:
        """MPI's op for a named reduction on a type MPI has, else None."""
        if not isinstance(reduction, str) or dtype not in _MPI_TYPES:
            return None
        assert reduction in REDUCTIONS, reduction
        if reduction in self._ops:
            return None if dtype == np.bool_ else self._ops[reduction]
        logical = dtype == np.bool_
        return {
            "and": self.mpi.LAND if logical else self.mpi.BAND,
            "or": self.mpi.LOR if logical else self.mpi.BOR,
            "xor": self.mpi.LXOR if logical else self.mpi.BXOR,
        }[reduction]


def _output(out: np.ndarray | None, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    if out is None:
        return np.empty(shape, dtype)
    if out.shape != tuple(shape) or out.dtype != dtype:
        raise CollectiveError(
            f"error: the result buffer is {out.dtype}{list(out.shape)}, the "
            f"collective makes {np.dtype(dtype)}{list(shape)}"
        )
    return out


def _contiguous(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array)


def _receiving(out: np.ndarray) -> np.ndarray:
    """`out` where MPI can write it in place, else a buffer to copy from."""
    return out if out.flags.c_contiguous else np.empty_like(out, order="C")


def _bytes(array: np.ndarray) -> np.ndarray:
    """The bytes of a contiguous array (MPI moves any element type so)."""
    return array.reshape(-1).view(np.uint8)


def _describe(what: str, array: np.ndarray, extra: int) -> np.ndarray:
    """What a rank is about to send, as integers every rank can compare: the
    op, the element type's name (16 bytes), the shape and an op parameter."""
    if array.ndim > _MAX_RANK:
        raise CollectiveError(
            f"error: {what}: arrays of rank > {_MAX_RANK} are not supported"
        )
    row = np.full(_DESCRIPTION_LENGTH, -1, np.int64)
    row[0] = _OPS.index(what)
    row[1:3] = np.frombuffer(array.dtype.name.encode()[:16].ljust(16, b"\0"), np.int64)
    row[3] = array.ndim
    row[4 : 4 + array.ndim] = array.shape
    row[-1] = extra
    return row


def _read_description(row: np.ndarray) -> str:
    dtype = row[1:3].tobytes().rstrip(b"\0").decode()
    shape = "x".join(str(int(d)) for d in row[4 : 4 + int(row[3])])
    return f"{_OPS[int(row[0])]} of {dtype}[{shape}]"
