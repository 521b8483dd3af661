"""A StableHLO process grid in one Python process: the oracle for programs
with collectives, as StableHLO's reference interpreter runs them.

Each process (replica_id, partition_id) runs its function on its own
`ModuleInterpreter` in a thread of its own; the processes meet at each
collective through an `InProcessCommunicator` (xlir/communicator.py), whose
members hand their values to a shared rendezvous and wait for the rest of
their group. A process that fails stops the others: they raise a
CollectiveError naming it. So does a deadlock (every live process waiting,
none able to go on, e.g. a collective one rank never reaches), found at
once rather than by a timeout.

    run_grid(module, num_replicas, num_partitions, per_process_inputs)

runs `main` (or `function`) on every process; `per_process_inputs[rank]` are
rank's arguments, and the result is each rank's outputs.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.stablehlo.process_groups import Grid

from xlir.communicator import CollectiveError, Communicator, grid_problems
from xlir.diagnostics import XlirError

Array = np.ndarray

WAIT_LIMIT_S = 300.0
"""How long a process waits for its group at one collective before it gives
up (a safety net: deadlocks are found without it)."""


class _Rendezvous:
    """Where the processes of one grid meet: the values of each collective,
    the channels of send/recv, and who is waiting on what."""

    def __init__(self, size: int):
        self.size = size
        self.cond = threading.Condition()
        self.slots: dict[tuple[tuple[int, ...], int], dict[int, tuple[Array, str]]] = {}
        self.readers: dict[tuple[tuple[int, ...], int], int] = {}
        self.counts: dict[tuple[int, tuple[int, ...]], int] = {}
        self.channels: dict[int, deque[list[Array]]] = {}
        self.waiting: dict[int, Callable[[], bool]] = {}
        self.done: set[int] = set()
        self.failure: str | None = None

    # --- called with the lock held -------------------------------------

    def _wait(self, rank: int, ready: Callable[[], bool], what: str) -> None:
        """Wait until `ready()`; raise if the grid failed or deadlocked."""
        self.waiting[rank] = ready
        try:
            self.cond.notify_all()
            while not ready():
                if self.failure is not None:
                    raise CollectiveError(self.failure)
                stuck = [r for r in range(self.size) if r not in self.done]
                if all(r in self.waiting and not self.waiting[r]() for r in stuck):
                    finished = sorted(self.done)
                    self.failure = (
                        f"deadlock: rank(s) {sorted(self.waiting)} wait at a "
                        "collective or receive their partners never reach"
                        + (f" (rank(s) {finished} have finished)" if finished else "")
                        + f"; rank {rank} waits at {what}"
                    )
                    self.cond.notify_all()
                    raise CollectiveError(self.failure)
                if not self.cond.wait(timeout=WAIT_LIMIT_S):
                    self.failure = f"rank {rank} waited {WAIT_LIMIT_S:.0f} s at {what}"
                    self.cond.notify_all()
                    raise CollectiveError(self.failure)
            if self.failure is not None:
                raise CollectiveError(self.failure)
        finally:
            del self.waiting[rank]

    # --- what the communicators call ------------------------------------

    def exchange(
        self, rank: int, group: Sequence[int], value: Array, what: str
    ) -> list[Array]:
        """Every member's value at this collective of `group` (the members'
        n-th over the same group meet); all must be at the same kind of
        collective, `what`."""
        members = tuple(group)
        with self.cond:
            count = self.counts.get((rank, members), 0)
            self.counts[(rank, members)] = count + 1
            key = (members, count)
            slot = self.slots.setdefault(key, {})
            slot[rank] = (value, what)
            self._wait(
                rank,
                lambda: len(slot) == len(members),
                f"{what} over ranks {list(members)}",
            )
            values = [slot[r][0] for r in members]
            others = {r: slot[r][1] for r in members if slot[r][1] != what}
            self.readers[key] = self.readers.get(key, 0) + 1
            if self.readers[key] == len(members):
                del self.slots[key], self.readers[key]
        if others:
            at = ", ".join(f"rank {r} at {w}" for r, w in sorted(others.items()))
            raise CollectiveError(
                f"the ranks of group {list(members)} disagree on the collective: "
                f"rank {rank} is at {what}, {at}"
            )
        return values

    def send(self, values: list[Array], channel: int) -> None:
        with self.cond:
            self.channels.setdefault(channel, deque()).append(values)
            self.cond.notify_all()

    def recv(self, rank: int, channel: int) -> list[Array]:
        with self.cond:
            queue = self.channels.setdefault(channel, deque())
            self._wait(rank, lambda: bool(queue), f"a receive on channel {channel}")
            return queue.popleft()

    def finish(self, rank: int, error: str | None = None) -> None:
        with self.cond:
            self.done.add(rank)
            if error is not None and self.failure is None:
                self.failure = error
            self.cond.notify_all()


class InProcessCommunicator(Communicator):
    """A rank of a grid whose ranks are threads of this process."""

    def __init__(self, grid: Grid, rank: int, rendezvous: _Rendezvous):
        super().__init__(grid, rank)
        self._rendezvous = rendezvous

    def all_gather(self, value: Array, group: Sequence[int]) -> list[Array]:
        return self._rendezvous.exchange(self.rank, group, _kept(value), "all_gather")

    def gather_same_shape(
        self, value: Array, group: Sequence[int], what: str
    ) -> list[Array]:
        """The members' values; they must all be at `what` (the kind of
        collective), with this rank's shape and dtype."""
        value = _kept(value)
        values = self._rendezvous.exchange(self.rank, group, value, what)
        return self.check_same_shape(values, value, group, what)

    def open_channels(self) -> None:
        """Nothing to do: the ranks' rendezvous holds every channel."""

    def send(self, values: Sequence[Array], channel: int) -> None:
        self._rendezvous.send([np.array(v, copy=True) for v in values], channel)

    def recv(self, channel: int) -> list[Array]:
        return self._rendezvous.recv(self.rank, channel)


def _kept(value: Array) -> Array:
    """A copy of what a rank hands the others: its caller may reuse the
    memory (a runtime's planned buffer) once it has what it gathers, while
    slower ranks still read this."""
    return np.array(value, copy=True)


@dataclass
class ProcessContext:
    """What a process's collectives and feeds use: its communicator, the
    grid's infeed (each entry the values one infeed op reads) and outfeed."""

    communicator: Communicator
    infeed: deque[list[Array]] = field(default_factory=deque)
    outfeed: list[list[Array]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def single_process() -> ProcessContext:
    """The context of a program run outside a grid: a grid of one."""
    return ProcessContext(InProcessCommunicator(Grid(1, 1), 0, _Rendezvous(1)))


def run_programs(
    module: ModuleOp,
    grid: Grid,
    functions: Sequence[str],
    inputs: Sequence[Sequence[Array]],
    sources: dict[str, str] | None = None,
    infeed: Sequence[list[Array]] = (),
) -> list[list[Array]]:
    """Run `functions[rank]` with `inputs[rank]` on every process of `grid`
    (one thread and one interpreter each); each rank's results. The first
    failure stops every rank and is raised (with the rank that failed)."""
    from xlir.evaluator.hlo.engine import ModuleInterpreter

    if len(functions) != grid.size or len(inputs) != grid.size:
        raise XlirError(
            f"error: a grid of {grid.num_replicas} x {grid.num_partitions} runs "
            f"{grid.size} processes, but got {len(functions)} function(s) and "
            f"{len(inputs)} input list(s)"
        )
    problems = grid_problems(module, grid, sources)
    if problems:
        raise XlirError("\n".join(problems))
    shared_infeed = deque(infeed)
    outfeed: list[list[Array]] = []
    lock = threading.Lock()
    interpreters = [ModuleInterpreter(module, sources) for _ in range(grid.size)]

    def process(communicator: Communicator) -> list[Array]:
        interp = interpreters[communicator.rank]
        interp.process = ProcessContext(communicator, shared_infeed, outfeed, lock)
        return interp.call(
            functions[communicator.rank], list(inputs[communicator.rank])
        )

    return run_ranks(grid, process)


def run_ranks(
    grid: Grid, body: Callable[[Communicator], list[Array]]
) -> list[list[Array]]:
    """`body(communicator)` on one thread per rank of `grid`, the ranks
    meeting at their collectives in this process; each rank's results. The
    first failure stops every rank and is raised (with the rank that
    failed). What runs a grid of anything in-process (the interpreter's
    programs here, compiled executables for `xlir-run --processes`)."""
    rendezvous = _Rendezvous(grid.size)
    results: list[list[Array] | None] = [None] * grid.size
    errors: list[BaseException | None] = [None] * grid.size

    def process(rank: int) -> None:
        communicator = InProcessCommunicator(grid, rank, rendezvous)
        try:
            results[rank] = body(communicator)
        except BaseException as error:
            errors[rank] = error
            replica, partition = grid.process(rank)
            first_line = str(error).split("\n")[0]
            rendezvous.finish(
                rank,
                f"rank {rank} (replica {replica}, partition {partition}) "
                f"failed: {first_line}",
            )
            return
        rendezvous.finish(rank)

    threads = [
        threading.Thread(target=process, args=(rank,), name=f"xlir-rank-{rank}")
        for rank in range(grid.size)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _raise_first(errors, grid)
    return [list(r or []) for r in results]


def _raise_first(errors: Sequence[BaseException | None], grid: Grid) -> None:
    """Raise the failure that stopped the grid: the first rank's own error
    (not a CollectiveError that only reports another rank's)."""
    own = [
        (rank, e)
        for rank, e in enumerate(errors)
        if e is not None and not isinstance(e, CollectiveError)
    ]
    induced = [(rank, e) for rank, e in enumerate(errors) if e is not None]
    chosen = own or induced
    if not chosen:
        return
    rank, error = chosen[0]
    replica, partition = grid.process(rank)
    if isinstance(error, CollectiveError):
        raise error
    if isinstance(error, XlirError):
        raise XlirError(
            f"{error}\n(on rank {rank}: replica {replica}, partition {partition})"
        ) from error
    raise error


def run_grid(
    module: ModuleOp,
    num_replicas: int,
    num_partitions: int,
    per_process_inputs: Sequence[Sequence[Any]],
    function: str = "main",
    sources: dict[str, str] | None = None,
) -> list[list[Array]]:
    """Run `function` of `module` on every process of a num_replicas x
    num_partitions grid (SPMD); `per_process_inputs[rank]` are the arguments
    of rank `replica_id * num_partitions + partition_id`. Returns each rank's
    results."""
    grid = Grid(num_replicas, num_partitions)
    inputs = [[np.asarray(a) for a in args] for args in per_process_inputs]
    return run_programs(module, grid, [function] * grid.size, inputs, sources)
