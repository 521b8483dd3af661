"""What a collective op does, on numpy arrays, through a communicator: the
one meaning the evaluator's process grid and every runtime give it.

`run_collective(op, communicator, inputs, outputs)` turns the op's
`replica_groups` (or `source_target_pairs`), channel and
`use_global_device_ids` into the spec's process groups on the
communicator's grid (dialects/stablehlo/process_groups.py), recognises a
reduction body that is one named op of its two arguments (what MPI reduces
natively), and calls the communicator once per operand. The evaluator
passes no outputs; a runtime passes views of its planned buffers, which
receive the results with no copy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, Region
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
    CollectiveReduceOp,
    PartitionIdOp,
    ReduceScatterOp,
    ReplicaIdOp,
    grouping_mode,
    replica_groups,
)
from xlir.dialects.stablehlo.process_groups import (
    Grid,
    GroupsDoNotFit,
    group_rows,
    process_groups,
)
from xlir.evaluator.hlo.engine import ModuleInterpreter
from xlir.evaluator.hlo.regions import apply_region

from xlir.communicator import Communicator, Groups, Reduction
from xlir.diagnostics import XlirError, format_at_op

_NAMED_REDUCTIONS: dict[type[Operation], str] = {
    ew.AddOp: "add",
    ew.MultiplyOp: "multiply",
    ew.MaximumOp: "maximum",
    ew.MinimumOp: "minimum",
    ew.AndOp: "and",
    ew.OrOp: "or",
    ew.XorOp: "xor",
}


def run_collective(
    op: Operation,
    communicator: Communicator,
    inputs: Sequence[np.ndarray],
    outputs: Sequence[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """The results of `op` on this rank (into `outputs` where given)."""
    outs: list[np.ndarray | None] = (
        list(outputs) if outputs is not None else [None] * len(op.results)
    )
    if isinstance(op, ReplicaIdOp | PartitionIdOp):
        value = (
            communicator.replica_id
            if isinstance(op, ReplicaIdOp)
            else communicator.partition_id
        )
        out = outs[0] if outs[0] is not None else np.empty((), np.uint32)
        out[...] = value
        return [out]
    inputs = _detached(inputs, outs)
    match op:
        case AllReduceOp() | CollectiveReduceOp():
            groups = _groups(op, communicator)
            reduction = reduction_of(op.computation)
            results = [
                communicator.all_reduce(groups, x, reduction, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
            if isinstance(op, CollectiveReduceOp) and not _leads(groups, communicator):
                for result in results:
                    result[...] = 0
            return results
        case ReduceScatterOp():
            groups = _groups(op, communicator)
            reduction = reduction_of(op.computation)
            dimension = op.scatter_dimension.value.data
            return [
                communicator.reduce_scatter(groups, x, dimension, reduction, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
        case AllGatherOp():
            groups = _groups(op, communicator)
            dimension = op.all_gather_dim.value.data
            return [
                communicator.all_gather(groups, x, dimension, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
        case AllToAllOp():
            groups = _groups(op, communicator)
            split = op.split_dimension.value.data
            concat = op.concat_dimension.value.data
            return [
                communicator.all_to_all(groups, x, split, concat, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
        case CollectivePermuteOp():
            pairs = _pairs(op, communicator)
            return [
                communicator.collective_permute(pairs, x, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
        case CollectiveBroadcastOp():
            groups = _groups(op, communicator, cover_all=False)
            return [
                communicator.collective_broadcast(groups, x, out)
                for x, out in zip(inputs, outs, strict=True)
            ]
        case _:
            raise XlirError(format_at_op(op, f"'{op.name}' is not a collective"))


def reduction_of(region: Region) -> Reduction:
    """The body's name in `REDUCTIONS` where it is one such op of its two
    arguments (either order); else the body itself, run by the evaluator."""
    block = region.block
    first = block.first_op
    if (
        first is not None
        and type(first) in _NAMED_REDUCTIONS
        and set(first.operands) == set(block.args)
        and len(block.args) == 2
        and first.next_op is not None
        and list(first.next_op.operands) == list(first.results)
    ):
        return _NAMED_REDUCTIONS[type(first)]
    program = ModuleInterpreter(ModuleOp([])).compile_region(region)

    def body(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return apply_region(program, [a, b], 1)[0]

    return body


def grid_groups(op: Operation, grid: Grid, cover_all: bool = True) -> list[list[int]]:
    """The op's process groups on `grid`, as ranks; a diagnostic at the op
    where its groups do not fit the grid."""
    try:
        groups = process_groups(grouping_mode(op), replica_groups(op), grid, cover_all)
    except GroupsDoNotFit as error:
        raise XlirError(format_at_op(op, f"'{op.name}': {error}")) from error
    return [[grid.rank(process) for process in group] for group in groups]


def permute_pairs(op: CollectivePermuteOp, grid: Grid) -> list[tuple[int, int]]:
    """collective_permute's (source, target) pairs on `grid`, as ranks."""
    pairs = group_rows(op.source_target_pairs)
    try:
        groups = process_groups(grouping_mode(op), pairs, grid, cover_all=False)
    except GroupsDoNotFit as error:
        raise XlirError(format_at_op(op, f"'{op.name}': {error}")) from error
    return [(grid.rank(source), grid.rank(target)) for source, target in groups]


def _groups(op: Operation, communicator: Communicator, cover_all: bool = True):
    return grid_groups(op, communicator.grid, cover_all)


def _pairs(op: CollectivePermuteOp, communicator: Communicator):
    return permute_pairs(op, communicator.grid)


def _leads(groups: Groups, communicator: Communicator) -> bool:
    """Whether this rank is the first of its group."""
    return any(group and group[0] == communicator.rank for group in groups)


def _detached(
    inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray | None]
) -> list[np.ndarray]:
    """The inputs, copied where an output shares their memory (a result
    planned in its operand's buffer), since the exchange reads one while it
    writes the other."""
    return [
        x.copy()
        if any(o is not None and np.shares_memory(x, o) for o in outputs)
        else x
        for x in inputs
    ]


def program_grid(module: ModuleOp) -> Grid:
    """The grid a module runs on: its `mhlo.num_replicas` x
    `mhlo.num_partitions` (1 each where it does not say)."""
    counts = []
    for name in ("mhlo.num_replicas", "mhlo.num_partitions"):
        value = module.attributes.get(name)
        counts.append(value.value.data if isinstance(value, IntegerAttr) else 1)
    return Grid(*counts)
