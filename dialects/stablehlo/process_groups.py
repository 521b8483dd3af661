"""How a collective splits the process grid into process groups (the spec's
"Collective ops" section), shared by the verifiers, the evaluator and every
runtime that executes collectives.

A process is `(replica_id, partition_id)` in a grid of `num_replicas` by
`num_partitions`; its flat id (its rank) is `replica_id * num_partitions +
partition_id`. An op's `replica_groups` (and its channel handle and
`use_global_device_ids`) select one of four strategies, which turn the groups
into lists of processes. `-1` entries pad ragged groups and are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp
from xdsl.utils.str_enum import StrEnum

ProcessId = tuple[int, int]
"""(replica_id, partition_id)."""


class GroupingMode(StrEnum):
    CROSS_REPLICA = "cross_replica"
    CROSS_PARTITION = "cross_partition"
    CROSS_REPLICA_AND_PARTITION = "cross_replica_and_partition"
    FLATTENED_IDS = "flattened_ids"


@dataclass(frozen=True)
class Grid:
    """The process grid's size."""

    num_replicas: int
    num_partitions: int

    @property
    def size(self) -> int:
        return self.num_replicas * self.num_partitions

    def rank(self, process: ProcessId) -> int:
        return process[0] * self.num_partitions + process[1]

    def process(self, rank: int) -> ProcessId:
        return divmod(rank, self.num_partitions)


def module_grid(module: ModuleOp) -> Grid:
    """The grid a module is written for: its `mhlo.num_replicas` x
    `mhlo.num_partitions` (1 where it does not say), as JAX exports them."""
    counts = []
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        value = module.attributes.get(name)
        counts.append(value.value.data if isinstance(value, IntegerAttr) else 1)
    return Grid(counts[0], counts[1])


def group_rows(attr: DenseIntOrFPElementsAttr | None) -> list[list[int]]:
    """The rows of a `replica_groups` (or `source_target_pairs`) attribute,
    without the `-1` padding of ragged rows."""
    if attr is None:
        return []
    values = [v for v in attr.get_values() if isinstance(v, int)]
    shape = attr.get_shape()
    if len(shape) != 2 or shape[1] == 0:
        return []
    width = shape[1]
    rows = [values[i : i + width] for i in range(0, len(values), width)]
    return [[v for v in row if v != -1] for row in rows]


def mode_of(
    channel_id: int, use_global_device_ids: bool, has_cross_replica_and_partition: bool
) -> GroupingMode:
    """The strategy of an op from its channel id and flag. Ops whose spec has
    no `cross_replica_and_partition` (all_to_all, collective_permute,
    collective_broadcast) use `cross_partition` for a positive channel id."""
    if channel_id <= 0:
        return GroupingMode.CROSS_REPLICA
    if use_global_device_ids:
        return GroupingMode.FLATTENED_IDS
    if has_cross_replica_and_partition:
        return GroupingMode.CROSS_REPLICA_AND_PARTITION
    return GroupingMode.CROSS_PARTITION


class GroupsDoNotFit(ValueError):
    """The groups name a replica, partition or process the grid lacks, or
    leave one out where the strategy needs every one covered."""


def _id_count(mode: GroupingMode, grid: Grid) -> tuple[int, str]:
    if mode in (GroupingMode.CROSS_REPLICA, GroupingMode.CROSS_REPLICA_AND_PARTITION):
        return grid.num_replicas, "replica"
    if mode is GroupingMode.CROSS_PARTITION:
        return grid.num_partitions, "partition"
    return grid.size, "process"


def process_groups(
    mode: GroupingMode,
    groups: Sequence[Sequence[int]],
    grid: Grid,
    cover_all: bool = True,
) -> list[list[ProcessId]]:
    """The process groups `mode` makes of `groups` on `grid`, in the spec's
    order. No groups: one group of every id. `cover_all`: every id must be
    in a group (every collective but collective_broadcast, whose left-out
    processes receive zeros)."""
    count, what = _id_count(mode, grid)
    if not groups:
        groups = [list(range(count))]
    seen: set[int] = set()
    for group in groups:
        for value in group:
            if not 0 <= value < count:
                raise GroupsDoNotFit(
                    f"{what} id {value} is out of range: the grid of "
                    f"{grid.num_replicas} replica(s) x {grid.num_partitions} "
                    f"partition(s) has {count} {what} id(s)"
                )
            seen.add(value)
    missing = sorted(set(range(count)) - seen)
    if cover_all and missing:
        raise GroupsDoNotFit(
            f"the groups leave out {what} id(s) {missing} of the grid of "
            f"{grid.num_replicas} replica(s) x {grid.num_partitions} partition(s)"
        )
    replicas = range(grid.num_replicas)
    partitions = range(grid.num_partitions)
    if mode is GroupingMode.CROSS_REPLICA:
        return [[(r, p) for r in group] for group in groups for p in partitions]
    if mode is GroupingMode.CROSS_PARTITION:
        return [[(r, p) for p in group] for group in groups for r in replicas]
    if mode is GroupingMode.CROSS_REPLICA_AND_PARTITION:
        return [[(r, p) for p in partitions for r in group] for group in groups]
    return [[grid.process(i) for i in group] for group in groups]


def group_of(
    process: ProcessId, groups: Sequence[Sequence[ProcessId]]
) -> list[ProcessId] | None:
    """The group holding `process`, or None."""
    for group in groups:
        if process in group:
            return list(group)
    return None
