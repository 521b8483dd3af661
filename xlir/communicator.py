"""The `Communicator`: one process's link to the others of its process grid,
with the collective operations on numpy arrays.

It is the one interface the StableHLO collectives run on: the evaluator's
in-process grid (threads of one Python process, `evaluator/hlo/process_grid`)
and the runtime's MPI communicator (one OS process per rank) implement it.

Ranks are flat process ids, `replica_id * num_partitions + partition_id`
(`Grid.rank`). A *group* is a sequence of ranks in the op's group order; the
caller is one of them, and every member calls the same operation with the
same group. Results follow the group order (gather concatenates in it; a
reduction folds in it, so that a float sum is the same on every member).

Only `all_gather`, `send`, `recv` and `open_channels` are abstract: every
other collective has a definition in terms of `all_gather` here, which an
implementation overrides where it has a native one (MPI_Allreduce and so
on).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import Operation
from xdsl.utils.str_enum import StrEnum

from xlir.diagnostics import XlirError, format_at_op
from xlir.dialects.stablehlo.collectives import (
    GROUPED_OPS,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
    grouping_mode,
    replica_groups,
)
from xlir.dialects.stablehlo.process_groups import (
    Grid,
    GroupingMode,
    GroupsDoNotFit,
    process_groups,
)
from xlir.walk import walk

Combine = Callable[[np.ndarray, np.ndarray], np.ndarray]


class ReduceKind(StrEnum):
    """The reductions a communication library knows by name."""

    SUM = "sum"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    AND = "and"
    OR = "or"
    XOR = "xor"


@dataclass(frozen=True)
class Reduction:
    """How two values combine elementwise: `combine` always (the op's
    computation run on whole arrays), and `kind` when the computation is one
    of the named reductions (None: only `combine` computes it)."""

    combine: Combine
    kind: ReduceKind | None = None


class CollectiveError(XlirError):
    """A collective could not complete: ranks disagree on shapes or ops, a
    rank failed or stopped answering. The message names the rank(s); the
    evaluator's kernels add the op's location."""


class Communicator(ABC):
    """One rank's view of the process grid (module docstring)."""

    def __init__(self, grid: Grid, rank: int):
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

    # --- what an implementation provides --------------------------------

    @abstractmethod
    def all_gather(self, value: np.ndarray, group: Sequence[int]) -> list[np.ndarray]:
        """Every member's `value`, in group order (shapes may differ)."""

    @abstractmethod
    def send(self, values: Sequence[np.ndarray], channel: int) -> None:
        """Put `values` on the channel (point-to-point by channel id; the
        receiver takes them in the order they were sent)."""

    @abstractmethod
    def recv(self, channel: int) -> list[np.ndarray]:
        """The oldest values sent on the channel (waits for them)."""

    @abstractmethod
    def open_channels(self) -> None:
        """Get ready for `send` and `recv`: every rank of a program that has
        them calls it before running."""

    # --- collectives, defined by all_gather -----------------------------

    def gather_same_shape(
        self, value: np.ndarray, group: Sequence[int], what: str
    ) -> list[np.ndarray]:
        """`all_gather` for the collective `what`, and a CollectiveError if
        the members' shapes or dtypes differ (naming the ranks)."""
        return self.check_same_shape(self.all_gather(value, group), value, group, what)

    def check_same_shape(
        self,
        values: Sequence[np.ndarray],
        value: np.ndarray,
        group: Sequence[int],
        what: str,
    ) -> list[np.ndarray]:
        """`values` (the members', in group order), if each has the shape
        and dtype of this rank's `value`; else a CollectiveError."""
        for rank, other in zip(group, values, strict=True):
            if other.shape != value.shape or other.dtype != value.dtype:
                raise CollectiveError(
                    f"{what}: rank {rank} has a {other.dtype} array of shape "
                    f"{list(other.shape)} but rank {self.rank} has a {value.dtype} "
                    f"array of shape {list(value.shape)}; they must agree"
                )
        return list(values)

    def all_reduce(
        self,
        value: np.ndarray,
        group: Sequence[int],
        reduction: Reduction,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """The members' values folded in group order (into `out` where given:
        a runtime's planned buffer, which `value` may not share)."""
        values = self.gather_same_shape(value, group, "all_reduce")
        result = values[0]
        for other in values[1:]:
            result = reduction.combine(result, other)
        if out is None:
            return np.asarray(result, dtype=value.dtype)
        out[...] = result
        return out

    def all_reduce_many(
        self,
        values: Sequence[np.ndarray],
        group: Sequence[int],
        reduction: Reduction,
        outs: Sequence[np.ndarray] | None = None,
    ) -> list[np.ndarray]:
        """A variadic all_reduce: `all_reduce` of each value (into `outs`
        where given, which no value may share). An implementation whose every
        exchange synchronises the group overrides it to move them together."""
        into = outs if outs is not None else [None] * len(values)
        return [
            self.all_reduce(value, group, reduction, out)
            for value, out in zip(values, into, strict=True)
        ]

    def gather_along(
        self,
        value: np.ndarray,
        group: Sequence[int],
        axis: int,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        """all_gather's result: the members' values, which must agree in
        shape and dtype, concatenated along `axis` in group order (into
        `out` where given, which `value` may not share)."""
        values = self.gather_same_shape(value, group, "all_gather")
        return np.concatenate(values, axis=axis, out=out)

    def reduce_scatter(
        self,
        value: np.ndarray,
        group: Sequence[int],
        axis: int,
        reduction: Reduction,
    ) -> np.ndarray:
        """Part i (of len(group) along `axis`) of the all_reduce, for the
        i-th member."""
        total = self.all_reduce(value, group, reduction)
        parts = np.split(total, len(group), axis=axis)
        return parts[list(group).index(self.rank)]

    def all_to_all(
        self,
        value: np.ndarray,
        group: Sequence[int],
        split_axis: int,
        concat_axis: int,
    ) -> np.ndarray:
        """Part i of each member's value (split len(group) ways along
        `split_axis`) goes to member i, which concatenates the parts it gets
        along `concat_axis` in group order."""
        values = self.gather_same_shape(value, group, "all_to_all")
        index = list(group).index(self.rank)
        parts = [np.split(v, len(group), axis=split_axis)[index] for v in values]
        return np.concatenate(parts, axis=concat_axis)

    def broadcast(
        self, value: np.ndarray, group: Sequence[int], root: int
    ) -> np.ndarray:
        """The value of member `root` (an index into the group)."""
        values = self.gather_same_shape(value, group, "collective_broadcast")
        return values[root]

    def permute(
        self, value: np.ndarray, group: Sequence[int], pairs: Sequence[tuple[int, int]]
    ) -> np.ndarray | None:
        """What the pair (source, rank) sends this rank, None if no pair
        targets it. `pairs` are ranks of `group`, which every member of the
        exchange passes alike."""
        values = self.gather_same_shape(value, group, "collective_permute")
        for source, target in pairs:
            if target == self.rank:
                return values[list(group).index(source)]
        return None


def groups_of(op: Operation, grid: Grid) -> list[list[int]]:
    """The op's process groups on `grid`, as ranks in group order (raises
    GroupsDoNotFit). collective_permute's are the groups its pairs' ids
    index into: the replicas of each partition (cross_replica), or the
    partitions of each replica (cross_partition)."""
    mode = grouping_mode(op)
    if isinstance(op, CollectivePermuteOp):
        pairs = [list(pair) for pair in op.pairs()]
        process_groups(mode, pairs, grid, cover_all=False)  # the ids fit the grid
        replicas = mode is GroupingMode.CROSS_REPLICA
        count = grid.num_replicas if replicas else grid.num_partitions
        groups = process_groups(mode, [list(range(count))], grid)
    else:
        groups = process_groups(
            mode,
            replica_groups(op),
            grid,
            cover_all=not isinstance(op, CollectiveBroadcastOp),
        )
    return [[grid.rank(p) for p in group] for group in groups]


def grid_problems(
    module: Operation, grid: Grid, sources: dict[str, str] | None = None
) -> list[str]:
    """A located diagnostic for each collective of `module` whose groups do
    not fit `grid`: what a grid must refuse before it runs anything."""
    problems: list[str] = []
    for op in walk(module):
        if type(op) not in GROUPED_OPS:
            continue
        try:
            groups_of(op, grid)
        except GroupsDoNotFit as error:
            problems.append(
                format_at_op(
                    op,
                    f"'{op.name}' does not fit the process grid: {error}",
                    sources,
                )
            )
    return problems
