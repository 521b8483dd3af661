"""The communicator: how the processes of a sharded program talk.

A sharded (SPMD) program runs once per device of a grid of replicas x
partitions; its collective ops (all_reduce, all_gather, ...) exchange arrays
between those runs. A `Communicator` is one run's end of that exchange: its
device id in the grid (`rank`) and the collective operations on numpy
arrays. There are two: in-process (threads, for the evaluator and tests)
and MPI (one process per device, `targets/mpi_communicator.py`). Both are
called with the spec's process groups already computed (every group of the
op, in device ids), so the spec's modes live in one place above this one.

The interface sits below the evaluator so that the evaluator's process grid,
the runtimes and the tools share it.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from xlir.diagnostics import XlirError
from xlir.dialects.stablehlo.process_groups import Grid

REDUCTIONS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")
"""Reductions named by their op: MPI and numpy have each of them built in."""

Reduction = str | Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A name from `REDUCTIONS`, or any other elementwise body, folded over a
group in its order ((x0 op x1) op x2 ...), the same on every rank."""

Groups = Sequence[Sequence[int]]
"""Every process group of one collective, in device ids."""


class CollectiveError(XlirError):
    """A collective that cannot complete: a peer failed or did not arrive in
    time, arrays differ in shape across ranks, or groups that do not fit the
    grid. The message names the rank(s)."""


class Communicator(ABC):
    """One device's end of the collectives of a grid.

    Each operation takes every process group of the op (`Groups`); this
    rank's is the one holding `rank`, and results are in that group's order.
    `out`, where given, receives the result (a view of a planned buffer, so
    no copy follows); the result is returned either way."""

    def __init__(self, grid: Grid, rank: int):
        if not 0 <= rank < grid.size:
            raise CollectiveError(
                f"rank {rank} is not a device of a grid of {grid.num_replicas} "
                f"replica(s) x {grid.num_partitions} partition(s)"
            )
        self.grid = grid
        self.rank = rank

    @property
    def size(self) -> int:
        return self.grid.size

    @property
    def replica_id(self) -> int:
        return self.grid.process(self.rank)[0]

    @property
    def partition_id(self) -> int:
        return self.grid.process(self.rank)[1]

    def own_group(self, groups: Groups) -> list[int]:
        """This rank's group of `groups`, after `check_groups`."""
        check_groups(groups, self.grid.size)
        for group in groups:
            if self.rank in group:
                return list(group)
        raise CollectiveError(f"rank {self.rank} is in no process group of {groups}")

    @abstractmethod
    def all_reduce(
        self,
        groups: Groups,
        array: np.ndarray,
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """The reduction of the group's arrays, elementwise."""

    @abstractmethod
    def all_gather(
        self,
        groups: Groups,
        array: np.ndarray,
        dimension: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """The group's arrays concatenated along `dimension`."""

    @abstractmethod
    def reduce_scatter(
        self,
        groups: Groups,
        array: np.ndarray,
        dimension: int,
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """This rank's part (by its place in the group) of the reduction,
        split along `dimension`."""

    @abstractmethod
    def all_to_all(
        self,
        groups: Groups,
        array: np.ndarray,
        split_dimension: int,
        concat_dimension: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """Split along `split_dimension` into one part per group member, send
        part i to member i, concatenate what arrives along
        `concat_dimension` in group order."""

    @abstractmethod
    def collective_permute(
        self,
        pairs: Sequence[tuple[int, int]],
        array: np.ndarray,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """Send to the target of each (source, target) pair whose source is
        this rank; the array from the pair whose target is this rank, zeros
        where there is none."""

    @abstractmethod
    def collective_broadcast(
        self, groups: Groups, array: np.ndarray, out: np.ndarray | None = None
    ) -> np.ndarray:
        """The array of the first member of this rank's group."""

    @abstractmethod
    def barrier(self) -> None:
        """Wait until every rank of the grid is here."""


def check_groups(groups: Groups, size: int) -> None:
    """Refuse groups that do not fit `size` processes: ids out of range, or
    an id in two groups."""
    seen: set[int] = set()
    for group in groups:
        for device in group:
            if not 0 <= device < size:
                raise CollectiveError(
                    f"process group {list(group)} names device {device}, but the "
                    f"program runs on {size} process(es) (ids 0..{size - 1})"
                )
            if device in seen:
                raise CollectiveError(
                    f"device {device} is in more than one process group of "
                    f"{[list(g) for g in groups]}"
                )
            seen.add(device)


def check_pairs(pairs: Sequence[tuple[int, int]], size: int) -> None:
    """Refuse permutation pairs outside `size` processes, or a source or a
    target named twice."""
    for index in (0, 1):
        ends = [pair[index] for pair in pairs]
        for device in ends:
            if not 0 <= device < size:
                raise CollectiveError(
                    f"collective_permute pair names device {device}, but the "
                    f"program runs on {size} process(es) (ids 0..{size - 1})"
                )
        if len(set(ends)) != len(ends):
            role = "source" if index == 0 else "target"
            raise CollectiveError(
                f"collective_permute pairs {list(pairs)} name a {role} twice"
            )


def reduce_in_order(arrays: Sequence[np.ndarray], reduction: Reduction) -> np.ndarray:
    """Fold `arrays` with `reduction` in their order: what every rank of a
    group computes, so every rank gets the same bits."""
    combine = _NUMPY_REDUCTIONS[reduction] if isinstance(reduction, str) else reduction
    result = arrays[0]
    for array in arrays[1:]:
        result = combine(result, array)
    return np.asarray(result, dtype=arrays[0].dtype)


def _logical(ufunc: np.ufunc, bitwise: np.ufunc) -> Callable[..., np.ndarray]:
    """Booleans combine logically, integers bitwise (StableHLO's and/or/xor)."""

    def combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return ufunc(a, b) if a.dtype == np.bool_ else bitwise(a, b)

    return combine


_NUMPY_REDUCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": _logical(np.logical_and, np.bitwise_and),
    "or": _logical(np.logical_or, np.bitwise_or),
    "xor": _logical(np.logical_xor, np.bitwise_xor),
}


_CURRENT = threading.local()


@contextmanager
def running_as(communicator: Communicator) -> Iterator[Communicator]:
    """Run the collectives of executables called on this thread, inside the
    `with`, through `communicator` (a rank of an in-process grid is a thread)."""
    previous = getattr(_CURRENT, "communicator", None)
    _CURRENT.communicator = communicator
    try:
        yield communicator
    finally:
        _CURRENT.communicator = previous


def current_communicator() -> Communicator | None:
    """The communicator `running_as` set on this thread, or None."""
    return getattr(_CURRENT, "communicator", None)
