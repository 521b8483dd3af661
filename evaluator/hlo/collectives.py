"""Kernels of the collective and communication ops, and of
`interpreter.run_parallel`.

A kernel finds its process at run time in `interp.process` (a
`ProcessContext`: set by the grid that runs the interpreter, a grid of one
otherwise) and calls that process's `Communicator` with the op's groups as
ranks. The reduction of all_reduce and its kin is the op's computation run
on whole arrays; when it is one named ufunc (add, max, ...) the communicator
is told its `ReduceKind` too, so that a library can use its own.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xlir.dialects.interpreter import PrintOp, RunParallelOp
from xlir.dialects.stablehlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
    CollectiveReduceOp,
    InfeedOp,
    OutfeedOp,
    PartitionIdOp,
    RecvOp,
    ReduceScatterOp,
    ReplicaIdOp,
    SendOp,
    channel_id,
)
from xlir.dialects.stablehlo.elementwise import (
    AddOp,
    AndOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OrOp,
    XorOp,
)
from xlir.dialects.stablehlo.process_groups import Grid, GroupsDoNotFit
from xlir.evaluator.hlo.engine import ModuleInterpreter, Program, impl
from xlir.evaluator.hlo.process_grid import ProcessContext, run_programs
from xlir.evaluator.hlo.regions import apply_region, compact_ufunc
from xlir.evaluator.hlo.types import Unsupported, dtype_of

from xlir.communicator import (
    CollectiveError,
    Communicator,
    ReduceKind,
    Reduction,
    groups_of,
)
from xlir.diagnostics import format_at_op

Array = np.ndarray
Kernel = Callable[..., Any]

_PRINT_LOCK = threading.Lock()
"""One print at a time, whichever process prints."""

_KINDS: dict[type[Operation], ReduceKind] = {
    AddOp: ReduceKind.SUM,
    MultiplyOp: ReduceKind.PRODUCT,
    MinimumOp: ReduceKind.MIN,
    MaximumOp: ReduceKind.MAX,
    AndOp: ReduceKind.AND,
    OrOp: ReduceKind.OR,
    XorOp: ReduceKind.XOR,
}


def reduction_of(op: Operation, interp: ModuleInterpreter) -> Reduction:
    """The op's computation as a `Reduction`."""
    body: Program = interp.compile_region(op.regions[0])
    kind = None
    compact = compact_ufunc(body)
    if compact is not None:
        kind = _KINDS.get(type(body.steps[0][4]))
        _, combine = compact
        return Reduction(lambda a, b: np.asarray(combine(a, b)), kind)
    return Reduction(lambda a, b: apply_region(body, [a, b], 1)[0])


def _context(interp: ModuleInterpreter) -> ProcessContext:
    return interp.process_context()


class _Groups:
    """The op's process groups, found once per grid (ranks, group order)."""

    def __init__(self, op: Operation):
        self.op = op
        self.grid: Grid | None = None
        self.groups: list[list[int]] = []

    def mine(self, communicator: Communicator) -> list[int] | None:
        if self.grid != communicator.grid:
            try:
                self.groups = groups_of(self.op, communicator.grid)
            except GroupsDoNotFit as error:
                raise Unsupported(
                    f"{error}; run the program on a grid it fits (run_grid, or "
                    "xlir-run with as many processes as the module's "
                    "mhlo.num_replicas x mhlo.num_partitions)"
                ) from None
            self.grid = communicator.grid
        for group in self.groups:
            if communicator.rank in group:
                return group
        return None


def _own_group(op: Operation, groups: _Groups, communicator: Communicator) -> list[int]:
    group = groups.mine(communicator)
    if group is None:  # the verifiers and groups_of make every rank covered
        raise Unsupported(f"rank {communicator.rank} is in no group of '{op.name}'")
    return group


def _located(op: Operation, interp: ModuleInterpreter, run: Kernel) -> Kernel:
    """`run`, with the op's location on the CollectiveErrors it raises."""

    def located(*values: Array) -> Any:
        try:
            return run(*values)
        except CollectiveError as error:
            message = f"'{op.name}': {error}"
            raise CollectiveError(format_at_op(op, message, interp.sources)) from None

    return located


def _results(values: Sequence[Array]) -> Any:
    return values[0] if len(values) == 1 else list(values)


@impl(AllReduceOp)
def _all_reduce(op: Operation, interp: ModuleInterpreter) -> Kernel:
    reduction = reduction_of(op, interp)
    groups = _Groups(op)

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        return _results(communicator.all_reduce_many(values, group, reduction))

    return _located(op, interp, run)


@impl(CollectiveReduceOp)
def _collective_reduce(op: Operation, interp: ModuleInterpreter) -> Kernel:
    """all_reduce, kept by the group's first process; zeros elsewhere."""
    reduction = reduction_of(op, interp)
    groups = _Groups(op)

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        reduced = communicator.all_reduce_many(values, group, reduction)
        if group[0] != communicator.rank:
            reduced = [np.zeros_like(v) for v in reduced]
        return _results(reduced)

    return _located(op, interp, run)


@impl(ReduceScatterOp)
def _reduce_scatter(op: Operation, interp: ModuleInterpreter) -> Kernel:
    reduction = reduction_of(op, interp)
    groups = _Groups(op)
    axis = op.scatter_dimension.value.data  # type: ignore[attr-defined]

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        for v in values:
            if v.shape[axis] % len(group):
                raise Unsupported(
                    f"the scatter dimension ({v.shape[axis]} elements) does not "
                    f"split into the {len(group)} processes of the group"
                )
        return _results(
            [communicator.reduce_scatter(v, group, axis, reduction) for v in values]
        )

    return _located(op, interp, run)


@impl(AllGatherOp)
def _all_gather(op: Operation, interp: ModuleInterpreter) -> Kernel:
    groups = _Groups(op)
    axis = op.all_gather_dim.value.data  # type: ignore[attr-defined]

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        return _results([communicator.gather_along(v, group, axis) for v in values])

    return _located(op, interp, run)


@impl(AllToAllOp)
def _all_to_all(op: Operation, interp: ModuleInterpreter) -> Kernel:
    groups = _Groups(op)
    split = op.split_dimension.value.data  # type: ignore[attr-defined]
    concat = op.concat_dimension.value.data  # type: ignore[attr-defined]

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        return _results(
            [communicator.all_to_all(v, group, split, concat) for v in values]
        )

    return _located(op, interp, run)


@impl(CollectivePermuteOp)
def _collective_permute(op: Operation, interp: ModuleInterpreter) -> Kernel:
    assert isinstance(op, CollectivePermuteOp)
    groups = _Groups(op)
    pairs = op.pairs()

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        group = _own_group(op, groups, communicator)
        rank_pairs = [(group[s], group[t]) for s, t in pairs]
        received = [communicator.permute(v, group, rank_pairs) for v in values]
        return _results(
            [
                np.zeros_like(v) if r is None else r
                for v, r in zip(values, received, strict=True)
            ]
        )

    return _located(op, interp, run)


@impl(CollectiveBroadcastOp)
def _collective_broadcast(op: Operation, interp: ModuleInterpreter) -> Kernel:
    assert isinstance(op, CollectiveBroadcastOp)
    groups = _Groups(op)
    dynamic = op.has_dynamic_root is not None

    def run(*values: Array) -> Any:
        communicator = _context(interp).communicator
        data = list(values[:-1] if dynamic else values)
        roots = [int(r) for r in np.ravel(values[-1])] if dynamic else [0] * len(data)
        group = groups.mine(communicator)
        if group is None:  # not in any group: zeros
            return _results([np.zeros_like(v) for v in data])
        for root in roots:
            if not 0 <= root < len(group):
                raise Unsupported(
                    f"root {root} is out of range for a group of {len(group)}"
                )
        return _results(
            [
                communicator.broadcast(v, group, root)
                for v, root in zip(data, roots, strict=True)
            ]
        )

    return _located(op, interp, run)


def _id_kernel(op: Operation, interp: ModuleInterpreter, index: int) -> Kernel:
    dtype = dtype_of(op.results[0].type)

    def run() -> Array:
        communicator = _context(interp).communicator
        return np.asarray(communicator.grid.process(communicator.rank)[index], dtype)

    return run


@impl(ReplicaIdOp)
def _replica_id(op: Operation, interp: ModuleInterpreter) -> Kernel:
    return _id_kernel(op, interp, 0)


@impl(PartitionIdOp)
def _partition_id(op: Operation, interp: ModuleInterpreter) -> Kernel:
    return _id_kernel(op, interp, 1)


def _token() -> Array:
    return np.zeros((), np.bool_)


@impl(SendOp)
def _send(op: Operation, interp: ModuleInterpreter) -> Kernel:
    channel = channel_id(op)

    def run(*values: Array) -> Array:
        _context(interp).communicator.send(list(values[:-1]), channel)
        return _token()

    return _located(op, interp, run)


@impl(RecvOp)
def _recv(op: Operation, interp: ModuleInterpreter) -> Kernel:
    channel = channel_id(op)
    types = [r.type for r in op.results[:-1]]

    def run(token: Array) -> list[Array]:
        values = _context(interp).communicator.recv(channel)
        _check_received(op, "received", values, types)
        return [*values, _token()]

    return _located(op, interp, run)


def _check_received(
    op: Operation, what: str, values: Sequence[Array], types: Sequence[Any]
) -> None:
    shapes = [tuple(t.get_shape()) for t in types if isinstance(t, TensorType)]
    got = [tuple(np.shape(v)) for v in values]
    if got != shapes:
        raise Unsupported(
            f"'{op.name}' {what} arrays of shapes {[list(s) for s in got]}, but its "
            f"results have shapes {[list(s) for s in shapes]}"
        )


@impl(InfeedOp)
def _infeed(op: Operation, interp: ModuleInterpreter) -> Kernel:
    types = [r.type for r in op.results[:-1]]

    def run(token: Array) -> list[Array]:
        context = _context(interp)
        with context.lock:
            if not context.infeed:
                raise Unsupported("the infeed is empty")
            values = context.infeed.popleft()
        _check_received(op, "read", values, types)
        return [*values, _token()]

    return run


@impl(OutfeedOp)
def _outfeed(op: Operation, interp: ModuleInterpreter) -> Kernel:
    def run(*values: Array) -> Array:
        context = _context(interp)
        with context.lock:
            context.outfeed.append([np.array(v, copy=True) for v in values[:-1]])
        return _token()

    return run


@impl(PrintOp)
def _print(op: Operation, interp: ModuleInterpreter) -> Kernel:
    """Prints the value's type and elements (`tensor<2xi32> {` `[0, 1]` `}`),
    one value at a time, so that the processes of a grid do not interleave."""
    assert isinstance(op, PrintOp)
    type_text = str(op.operand.type)

    def run(value: Array) -> None:
        text = np.array2string(np.asarray(value), separator=", ", threshold=sys.maxsize)
        with _PRINT_LOCK:
            print(f"{type_text} {{\n  {text}\n}}", flush=True)

    return run


@impl(RunParallelOp)
def _run_parallel(op: Operation, interp: ModuleInterpreter) -> Kernel:
    """Runs the programs as a grid (one interpreter per process) on the
    operands, and returns every process's results, rank after rank."""
    assert isinstance(op, RunParallelOp)
    rows = op.grid()
    grid = Grid(len(rows), len(rows[0]))
    names = [name for row in rows for name in row]
    for name in names:
        interp.function_program(name)  # raises Unsupported for a missing one
    counts = [len(interp.functions[n].regions[0].blocks[0].args) for n in names]
    feeds = [ref.string_value() for ref in op.infeed or []]

    def run(*values: Array) -> Any:
        inputs: list[list[Array]] = []
        start = 0
        for count in counts:
            inputs.append(list(values[start : start + count]))
            start += count
        infeed = [interp.call(name, []) for name in feeds]
        results = run_programs(
            interp.module, grid, names, inputs, interp.sources, infeed
        )
        flat = [r for rank_results in results for r in rank_results]
        return _results(flat) if flat else None

    return run
