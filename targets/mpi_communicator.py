"""The communicator across processes: MPI through mpi4py, one process per
device, device id = rank in `MPI.COMM_WORLD`.

Each collective is MPI's own on numpy views (no copies where the layout
allows): Allreduce, Allgather (straight into all_gather's result where the
gathered axis leads), Reduce_scatter_block, Alltoall, Bcast on a
communicator of the op's process group (`Create_group` once per group, by
its members), Isend/Irecv for collective_permute, and a queue per channel
at a home rank for send/recv (targets/mpi_channels.py). Reductions MPI lacks (a body other than one named op,
an element type MPI has no type for) gather the group's arrays and fold them
in group order, as the in-process communicator does.

A variadic all_reduce moves its operands as one message: packed into one
buffer, one Allreduce, unpacked into its results.

Before the data moves, the ranks of the group exchange what each is about to
send (op, and a digest of the arrays' shapes and element types): arrays
that differ across ranks are a `CollectiveError` on every rank naming them,
not a truncated message or a hang. A rank that raises or dies is the caller's to turn into MPI_Abort
(`abort`), which stops every other rank.

mpi4py is optional (`pip install -e '.[mpi]'`); `mpi_world()` says how to
get it where it is missing.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.targets.mpi_channels import MpiChannels

from xlir.communicator import CollectiveError, Communicator, ReduceKind, Reduction
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
        self._group_comms: dict[tuple[int, ...], Any] = {}
        self._descriptions: dict[tuple[Any, ...], np.ndarray] = {}
        """`_describe`'s rows, made once per kind of exchange."""
        self._packs: dict[tuple[np.dtype, int], np.ndarray] = {}
        self._channels: MpiChannels | None = None
        """send/recv's queues (targets/mpi_channels.py), once opened."""
        self._ops = {
            ReduceKind.SUM: self.mpi.SUM,
            ReduceKind.PRODUCT: self.mpi.PROD,
            ReduceKind.MAX: self.mpi.MAX,
            ReduceKind.MIN: self.mpi.MIN,
        }

    # --- the collectives -----------------------------------------------------

    def all_gather(self, value: np.ndarray, group: Sequence[int]) -> list[np.ndarray]:
        value = np.asarray(value)
        comm = self._comm(group)
        if not self._agree(comm, "all_gather", [value]):
            return [np.asarray(v) for v in comm.allgather(value)]  # shapes differ
        return list(self._gather_parts(comm, value))

    def gather_along(
        self,
        value: np.ndarray,
        group: Sequence[int],
        axis: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm = self._checked(group, "all_gather", [value])
        before, rest = value.shape[:axis], value.shape[axis:]
        shape = (*before, len(group) * rest[0], *rest[1:])
        into = out if out is not None and out.flags.c_contiguous else None
        result = np.empty(shape, value.dtype) if into is None else into
        if math.prod(before) == 1:  # each member's part is one block of it
            comm.Allgather(_bytes(_contiguous(value)), _bytes(result))
        else:
            parts = self._gather_parts(comm, value)
            result.reshape(*before, len(group), *rest)[...] = np.moveaxis(
                parts, 0, axis
            )
        if out is not None and into is None:
            out[...] = result
            return out
        return result

    def open_channels(self) -> None:
        if self._channels is None:
            self._channels = MpiChannels(self.mpi, self.world)

    def send(self, values: Sequence[np.ndarray], channel: int) -> None:
        self._opened().send(values, channel)

    def recv(self, channel: int) -> list[np.ndarray]:
        return self._opened().recv(channel)

    def _opened(self) -> MpiChannels:
        if self._channels is None:
            raise CollectiveError(
                "error: stablehlo.send/recv across processes: the program's "
                "runtime did not open the channels (`open_channels`) on every rank"
            )
        return self._channels

    def all_reduce(
        self,
        value: np.ndarray,
        group: Sequence[int],
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        comm = self._checked(group, "all_reduce", [value])
        op = self._mpi_op(reduction, value.dtype)
        if op is None:
            return super().all_reduce(value, group, reduction, out)
        if out is None or not out.flags.c_contiguous:
            result = np.empty_like(value, order="C")
            comm.Allreduce(_contiguous(value), result, op)
            if out is None:
                return result
            out[...] = result
            return out
        comm.Allreduce(_contiguous(value), out, op)
        return out

    def all_reduce_many(
        self,
        values: Sequence[np.ndarray],
        group: Sequence[int],
        reduction: Reduction,
        outs: Sequence[np.ndarray] | None = None,
    ) -> list[np.ndarray]:
        """One shape check and one Allreduce of the values packed together,
        where MPI reduces their (one) element type itself."""
        dtype = values[0].dtype
        op = self._mpi_op(reduction, dtype)
        if len(values) == 1 or op is None or any(v.dtype != dtype for v in values):
            return super().all_reduce_many(values, group, reduction, outs)
        comm = self._checked(group, "all_reduce", values)
        packed = np.concatenate([v.reshape(-1) for v in values], out=self._pack(values))
        comm.Allreduce(self.mpi.IN_PLACE, packed, op)
        results = outs if outs is not None else [np.empty_like(v) for v in values]
        start = 0
        for result in results:
            result[...] = packed[start : start + result.size].reshape(result.shape)
            start += result.size
        return list(results)

    def reduce_scatter(
        self,
        value: np.ndarray,
        group: Sequence[int],
        axis: int,
        reduction: Reduction,
    ) -> np.ndarray:
        comm = self._checked(group, "reduce_scatter", [value], axis)
        op = self._mpi_op(reduction, value.dtype)
        if op is None:
            return super().reduce_scatter(value, group, axis, reduction)
        parts = np.split(value, len(group), axis=axis)
        out = np.empty_like(parts[0], order="C")
        comm.Reduce_scatter_block(_contiguous(np.stack(parts)), out, op)
        return out

    def all_to_all(
        self,
        value: np.ndarray,
        group: Sequence[int],
        split_axis: int,
        concat_axis: int,
    ) -> np.ndarray:
        comm = self._checked(group, "all_to_all", [value], split_axis * 8 + concat_axis)
        send = _contiguous(np.stack(np.split(value, len(group), axis=split_axis)))
        received = np.empty_like(send)
        comm.Alltoall(_bytes(send), _bytes(received))
        return np.concatenate(list(received), axis=concat_axis)

    def broadcast(
        self, value: np.ndarray, group: Sequence[int], root: int
    ) -> np.ndarray:
        comm = self._checked(group, "collective_broadcast", [value], root)
        out = np.array(value, order="C", copy=True)
        comm.Bcast(_bytes(out), root=root)
        return out

    def permute(
        self, value: np.ndarray, group: Sequence[int], pairs: Sequence[tuple[int, int]]
    ) -> np.ndarray | None:
        self._checked(group, "collective_permute", [value])
        source = next((s for s, t in pairs if t == self.rank), None)
        target = next((t for s, t in pairs if s == self.rank), None)
        out = np.empty_like(value, order="C") if source is not None else None
        requests = []
        if out is not None:
            requests.append(self.world.Irecv(_bytes(out), source=source, tag=_TAG))
        if target is not None:
            send = _bytes(_contiguous(value))
            requests.append(self.world.Isend(send, dest=target, tag=_TAG))
        self.mpi.Request.Waitall(requests)
        return out

    # --- helpers ---------------------------------------------------------------

    def _comm(self, group: Sequence[int]) -> Any:
        """The MPI communicator of `group`, made once by its members."""
        key = tuple(group)
        comm = self._group_comms.get(key)
        if comm is None:
            if key == tuple(range(self.size)):
                comm = self.world
            else:
                members = self.world.Get_group().Incl(list(key))
                comm = self.world.Create_group(members)
            self._group_comms[key] = comm
        return comm

    def _pack(self, values: Sequence[np.ndarray]) -> np.ndarray:
        """A buffer for `values` end to end (one per size and element type,
        kept: a step packs the same arrays at every call)."""
        key = (values[0].dtype, sum(v.size for v in values))
        pack = self._packs.get(key)
        if pack is None:
            pack = self._packs[key] = np.empty(key[1], key[0])
        return pack

    def _checked(
        self,
        group: Sequence[int],
        what: str,
        values: Sequence[np.ndarray],
        extra: int = 0,
    ) -> Any:
        """The group's communicator, once its members agree on what they
        exchange; a CollectiveError naming them where they do not."""
        comm = self._comm(group)
        if not self._agree(comm, what, values, extra):
            everyone = comm.allgather(_text(what, values))
            lines = [f"  rank {r}: {d}" for r, d in zip(group, everyone, strict=True)]
            raise CollectiveError(
                f"error: {what}: the ranks of group {list(group)} do not agree on "
                "what they exchange:\n" + "\n".join(lines)
            )
        return comm

    def _agree(
        self, comm: Any, what: str, values: Sequence[np.ndarray], extra: int = 0
    ) -> bool:
        """Whether every member sends the same op, shapes and element types
        (one small Allgather)."""
        key = (what, tuple((v.dtype, v.shape) for v in values), extra)
        mine = self._descriptions.get(key)
        if mine is None:
            mine = self._descriptions[key] = _describe(what, values, extra)
        everyone = np.empty((comm.Get_size(), len(mine)), np.int64)
        comm.Allgather(mine, everyone)
        return bool((everyone == mine).all())

    def _gather_parts(self, comm: Any, value: np.ndarray) -> np.ndarray:
        """Every member's array, stacked in group order."""
        parts = np.empty((comm.Get_size(), *value.shape), value.dtype)
        comm.Allgather(_bytes(_contiguous(value)), _bytes(parts))
        return parts

    def _mpi_op(self, reduction: Reduction, dtype: np.dtype) -> Any:
        """MPI's op for a named reduction on a type MPI has, else None."""
        kind = reduction.kind
        if kind is None or dtype not in _MPI_TYPES:
            return None
        if kind in self._ops:
            return None if dtype == np.bool_ else self._ops[kind]
        logical = dtype == np.bool_
        return {
            ReduceKind.AND: self.mpi.LAND if logical else self.mpi.BAND,
            ReduceKind.OR: self.mpi.LOR if logical else self.mpi.BOR,
            ReduceKind.XOR: self.mpi.LXOR if logical else self.mpi.BXOR,
        }[kind]


_TAG = 7
"""The MPI tag of collective_permute's messages."""


def _contiguous(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array)


def _bytes(array: np.ndarray) -> np.ndarray:
    """The bytes of a contiguous array (MPI moves any element type so)."""
    return array.reshape(-1).view(np.uint8)


def _describe(what: str, arrays: Sequence[np.ndarray], extra: int) -> np.ndarray:
    """What a rank is about to send, as integers every rank can compare: the
    op, an op parameter, and a digest of the arrays' element types and
    shapes (a fixed size, whatever their number and ranks)."""
    digest = hashlib.blake2b(_text(what, arrays).encode(), digest_size=8).digest()
    row = [_OPS.index(what), extra, *np.frombuffer(digest, np.int64)]
    return np.array(row, np.int64)


def _text(what: str, arrays: Sequence[np.ndarray]) -> str:
    """`all_reduce of float32[2x3], float32[4]`."""
    parts = ", ".join(f"{a.dtype}[{'x'.join(map(str, a.shape))}]" for a in arrays)
    return f"{what} of {parts}"
