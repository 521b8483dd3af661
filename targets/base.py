"""The runtime interfaces every xlir target implements, named after XLA's.

* `Platform`: a kind of device. It lists its devices, hands out one
  `StreamExecutor` per device, and gives the target's `Compiler` and
  `TransferManager`.
* `StreamExecutor`: one device. Allocate and free device memory (and name a
  part of an allocation), synchronous copies between host and device, create
  streams, load a kernel image and launch a kernel from it on a grid of
  blocks with device buffers and scalars as arguments.
* `Stream`: an ordered queue of copies and launches, with events to record and
  wait on, and `synchronize()`.
* `TransferManager`: numpy arrays on the host <-> device buffers, byte sizes.
* `Compiler`: `optimize(module)` runs the target's HLO pipeline and reads
  the `ProgramRecord` once; `run_backend(module, record) -> Executable`;
  `compile_kernels(module)`: the image its executor loads the kernels of a
  loop-level module from; `compile_ahead_of_time(module, options)` where the
  target supports it, and `load_ahead_of_time(data, name)` where it runs
  what that wrote.
* `Executable`: `execute(arguments, stream)` on device buffers; calling it with
  numpy arrays checks them against its `signature` and returns an array or a
  tuple of arrays; `memory_stats()` with XLA's figures; `as_text()`; where it
  times its kernel launches, `launch_clock()` and `timed_call(arrays)` (each
  kernel's time on the device's `DeviceClock`, for `xlir-run --profile`).

A `Target` (targets/target.py) makes its `Platform`; the registry
(targets/registry.py) finds targets by name.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from io import StringIO
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xlir.dialects import device
from xlir.dialects.hlo_buffers import PLAN, PlanAttr
from xlir.dialects.interpreter import RunParallelOp
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.memory import ViewOp
from xlir.dialects.stablehlo.process_groups import module_grid
from xlir.passes.hlo.buffers.report import buffer_stats
from xlir.targets.signatures import function_signature, loop_signature
from xlir.targets.target import CompileOptions, Target

from xlir.communicator import grid_problems
from xlir.context import make_context
from xlir.diagnostics import XlirError, format_at_op
from xlir.element_types import byte_width
from xlir.levels import is_loop_level
from xlir.pass_manager import pipeline_text, run_pipeline
from xlir.signature import (
    MemoryStats,
    Signature,
    TensorSpec,
)
from xlir.walk import walk

# --- devices, memory, streams --------------------------------------------------


@dataclass(eq=False)
class DeviceBuffer:
    """A piece of device memory: its device, its size, and the target's own
    handle (for host-memory targets, a numpy array of its bytes)."""

    device: int
    size_in_bytes: int
    handle: Any = None
    shape: tuple[int, ...] = ()
    element_type: str = ""
    freed: bool = False
    owner: DeviceBuffer | None = None
    """The allocation this buffer is a part of (`StreamExecutor.sub_buffer`),
    which frees it with itself."""

    @property
    def released(self) -> bool:
        """Whether its memory has been freed (its own, or its owner's)."""
        return self.freed or (self.owner is not None and self.owner.released)


Grid = tuple[int, ...]
"""The blocks of a launch, per dimension (CUDA's gridDim, XLA's
LaunchDimensions' block counts): one to three positive counts."""

KernelArgument = DeviceBuffer | int | float | np.generic
"""What a kernel is launched with: device buffers, and scalars by value."""


def check_grid(grid: Sequence[int]) -> Grid:
    """`grid` as a tuple, or a diagnostic saying what a grid is."""
    if (
        not isinstance(grid, tuple | list)
        or not 1 <= len(grid) <= 3
        or not all(isinstance(n, int | np.integer) and n > 0 for n in grid)
    ):
        raise XlirError(
            f"error: launch grid {grid!r} is not a grid; expected one to three "
            "positive block counts, e.g. (4,) or (2, 3)"
        )
    return tuple(int(n) for n in grid)


def check_transfer(what: str, buffer: DeviceBuffer, nbytes: int) -> None:
    """A copy of `nbytes` to or from `buffer` (`what`: e.g. "host to device")
    needs live memory of that size; otherwise a diagnostic."""
    if buffer.released:
        raise XlirError(f"error: copy {what}: the device buffer has been freed")
    if nbytes != buffer.size_in_bytes:
        raise XlirError(
            f"error: copy {what}: {nbytes} bytes do not fit a device buffer of "
            f"{buffer.size_in_bytes} bytes; the sizes must be equal"
        )


def check_parameters(
    name: str, arguments: Sequence[KernelArgument], buffers: Sequence[bool]
) -> None:
    """A launch's arguments against a kernel's parameters, which `buffers`
    says are device buffers (True) or scalars: a diagnostic unless each
    has its argument, of its kind. `launch` checks so every kernel that
    says its parameters (its `buffer_parameters`)."""
    if len(arguments) != len(buffers):
        raise XlirError(
            f"error: launch of @{name}: it takes {len(buffers)} argument(s), not "
            f"{len(arguments)}"
        )
    kinds = ["a scalar", "a device buffer"]
    for index, (argument, buffer) in enumerate(zip(arguments, buffers, strict=True)):
        if isinstance(argument, DeviceBuffer) != buffer:
            raise XlirError(
                f"error: launch of @{name}: argument {index} is "
                f"{kinds[not buffer]}; expected {kinds[buffer]}"
            )


@dataclass(eq=False)
class Event:
    """Recorded on a stream; done once the stream has run up to it."""

    done: bool = False
    stream: Stream | None = None


class Stream:
    """An ordered queue of work on one device: `enqueue` keeps Python work
    (the host-memory targets' copies and launches) until `synchronize()` runs
    it in order; a target whose device has queues of its own enqueues there
    and overrides `synchronize`."""

    _ids = itertools.count()

    def __init__(self, executor: StreamExecutor):
        self.executor = executor
        self.id = next(self._ids)
        self._pending: list[Callable[[], None]] = []

    def enqueue(self, work: Callable[[], None]) -> None:
        self._pending.append(work)

    def record_event(self, event: Event | None = None) -> Event:
        event = event if event is not None else Event()
        event.done, event.stream = False, self

        def mark() -> None:
            event.done = True

        self.enqueue(mark)
        return event

    def wait_event(self, event: Event) -> None:
        """Work enqueued after this waits until `event` is done; the event
        must have been recorded on a stream."""
        recorder = event.stream
        if recorder is None:
            raise XlirError(
                "error: wait on an event that was never recorded; record it on a "
                "stream first (Stream.record_event)"
            )

        def wait() -> None:
            if not event.done:
                recorder.synchronize()

        self.enqueue(wait)

    def memcpy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        """Enqueue a copy of `host` (read when the copy runs) into `buffer`."""
        check_transfer("host to device", buffer, host.nbytes)
        self.enqueue(lambda: self.executor.copy_host_to_device(buffer, host))

    def memcpy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        """Enqueue a copy of `buffer` into `host` (valid after synchronize)."""
        check_transfer("device to host", buffer, host.nbytes)
        self.enqueue(lambda: self.executor.copy_device_to_host(host, buffer))

    def memcpy_device_to_device(
        self, target: DeviceBuffer, source: DeviceBuffer
    ) -> None:
        """Enqueue a copy of `source` into `target`, of the same size."""
        check_transfer("device to device", source, target.size_in_bytes)
        check_transfer("device to device", target, source.size_in_bytes)
        self.enqueue(lambda: self.executor.copy_device_to_device(target, source))

    def synchronize(self) -> None:
        while self._pending:
            work = self._pending.pop(0)
            work()

    @property
    def pending(self) -> int:
        return len(self._pending)


# --- timing launches ------------------------------------------------------------


@dataclass(frozen=True)
class DeviceClock:
    """The clock a device times its kernel launches by."""

    name: str
    """In words, with how launches are timed on it."""
    hz: float
    """Ticks per second."""
    unit: str = "ns"
    """What one tick is called ("ns", "cycles")."""
    simulated: bool = False
    """Whether its time is a simulator's model of the device rather than
    measured (the same on every run)."""
    between_launches: str = "the host's: calls, copies, allocation"
    """What the time of a call outside its kernels is spent on."""

    def microseconds(self, ticks: float) -> float:
        return ticks * 1e6 / self.hz


@dataclass(frozen=True)
class LaunchTime:
    """The launches of one kernel (or launch site) in one call, in ticks of
    the device's clock."""

    kernel: str
    bytes: int
    """Of the distinct buffers one launch passes."""
    start: int
    """The first launch's start."""
    end: int
    """The last launch's end."""
    busy: int
    """The time spent in the kernel, over its launches."""
    count: int
    counters: dict[str, int] = field(default_factory=dict)
    """The device's own counts over these launches (a simulator's
    instructions, say), by name."""


def launch_times(log: Sequence[LaunchTime]) -> list[LaunchTime]:
    """A log of single launches as one record per kernel, in the order of
    their first launches."""
    kernels: dict[str, LaunchTime] = {}
    for launch in log:
        seen = kernels.get(launch.kernel)
        if seen is None:
            kernels[launch.kernel] = launch
            continue
        counters = dict(seen.counters)
        for name, count in launch.counters.items():
            counters[name] = counters.get(name, 0) + count
        kernels[launch.kernel] = replace(
            seen,
            end=launch.end,
            busy=seen.busy + launch.busy,
            count=seen.count + launch.count,
            counters=counters,
        )
    return list(kernels.values())


@dataclass(frozen=True)
class TimedCall:
    """A call of an executable with its launches timed (`Executable.timed_call`)."""

    results: Any
    """What calling the executable returns."""
    start: int
    end: int
    """The call's span, in ticks of the clock its launches are timed by."""
    launches: list[LaunchTime]
    """One record per kernel (or launch site)."""


class StreamExecutor(ABC):
    """One device of a platform."""

    clock: DeviceClock | None = None
    """The clock it times its launches by (`now`, `log_launch`), where it
    does."""

    def __init__(self, platform: Platform, ordinal: int):
        self.platform = platform
        self.ordinal = ordinal
        self.allocated_bytes = 0
        self.peak_bytes = 0
        self.launch_log: list[LaunchTime] | None = None
        """While a list (`DeviceScheduleExecutable.timed_call`), the launches
        that ran, each logged by an executor with a clock as it runs one."""

    def now(self) -> int:
        """Its clock's reading, in ticks (executors with a `clock` override
        it)."""
        raise XlirError(f"error: a {self.platform.name} device keeps no clock")

    def log_launch(
        self,
        kernel: str,
        arguments: Sequence[KernelArgument],
        start: int,
        end: int,
        counters: dict[str, int] | None = None,
    ) -> None:
        """Log a launch of `kernel` that ran from `start` to `end` (ticks of
        `clock`), while a log is kept."""
        if self.launch_log is None:
            return
        buffers = {id(a): a for a in arguments if isinstance(a, DeviceBuffer)}
        moved = sum(b.size_in_bytes for b in buffers.values())
        self.launch_log.append(
            LaunchTime(kernel, moved, start, end, end - start, 1, counters or {})
        )

    @abstractmethod
    def allocate(self, size_in_bytes: int) -> DeviceBuffer: ...

    @abstractmethod
    def deallocate(self, buffer: DeviceBuffer) -> None: ...

    @abstractmethod
    def copy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        """Synchronous copy of a host array into a device buffer."""

    @abstractmethod
    def copy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        """Synchronous copy of a device buffer into a host array."""

    @abstractmethod
    def copy_device_to_device(self, target: DeviceBuffer, source: DeviceBuffer) -> None:
        """Synchronous copy between two device buffers of one size."""

    def sub_buffer(self, buffer: DeviceBuffer, offset: int, size: int) -> DeviceBuffer:
        """`size` bytes of `buffer` from `offset` (a temp in the arena), freed
        with it."""
        if buffer.released:
            raise XlirError("error: a part of a device buffer that has been freed")
        if offset < 0 or size < 0 or offset + size > buffer.size_in_bytes:
            raise XlirError(
                f"error: bytes [{offset}, {offset + size}) lie outside a device "
                f"buffer of {buffer.size_in_bytes} bytes"
            )
        handle = self._sub_handle(buffer, offset, size)
        return DeviceBuffer(self.ordinal, size, handle, (size,), "i8", owner=buffer)

    @abstractmethod
    def _sub_handle(self, buffer: DeviceBuffer, offset: int, size: int) -> Any:
        """The target's handle of bytes [offset, offset + size) of `buffer`."""

    def create_stream(self) -> Stream:
        return Stream(self)

    @abstractmethod
    def load_kernel(self, image: Any, name: str) -> Any:
        """Load kernel `name` from a compiled image (what the target's compiler
        makes: `Compiler.compile_kernels`, or an executable); returns a
        handle to launch, or a diagnostic where the image has no such
        kernel."""

    def launch_dimensions(self, kernel: Any) -> Grid:
        """The grid the target launches a loaded kernel on when the program
        does not say (`device.launch` carries none): one block unless the
        target maps the kernel's parallel loops onto more."""
        return (1,)

    def launch(
        self,
        stream: Stream,
        kernel: Any,
        grid: Sequence[int],
        arguments: Sequence[KernelArgument],
    ) -> None:
        """Enqueue one launch of a loaded kernel on `stream`, on `grid`
        blocks, with `arguments`: device buffers of this device that have not
        been freed, and scalars."""
        blocks = check_grid(grid)
        if stream.executor is not self:
            raise XlirError(
                f"error: launch on a stream of device {stream.executor.ordinal}, "
                f"but the kernel is loaded on device {self.ordinal}"
            )
        name = getattr(kernel, "name", "the kernel")
        for index, argument in enumerate(arguments):
            if isinstance(argument, DeviceBuffer):
                if argument.released:
                    raise XlirError(
                        f"error: launch of @{name}: argument {index} is a device "
                        "buffer that has been freed"
                    )
                if argument.device != self.ordinal:
                    raise XlirError(
                        f"error: launch of @{name}: argument {index} lives on "
                        f"device {argument.device}, not on device {self.ordinal}"
                    )
            elif not isinstance(argument, int | float | np.generic):
                raise XlirError(
                    f"error: launch of @{name}: argument {index} is a "
                    f"{type(argument).__name__}; expected a device buffer or a scalar"
                )
        buffers = getattr(kernel, "buffer_parameters", None)
        if buffers is not None:
            check_parameters(name, arguments, buffers)
        self._launch(stream, kernel, blocks, list(arguments))

    @abstractmethod
    def _launch(
        self,
        stream: Stream,
        kernel: Any,
        grid: Grid,
        arguments: list[KernelArgument],
    ) -> None:
        """`launch` once its arguments are checked: enqueue the kernel."""

    def _count(self, delta: int) -> None:
        self.allocated_bytes += delta
        self.peak_bytes = max(self.peak_bytes, self.allocated_bytes)


class TransferManager:
    """Moves numpy arrays to device buffers and back."""

    def byte_size(self, shape: Sequence[int], element: Attribute) -> int:
        return int(np.prod(tuple(shape), dtype=np.int64)) * (byte_width(element) or 0)

    def to_device(
        self,
        executor: StreamExecutor,
        array: np.ndarray,
        spec: TensorSpec | None = None,
    ) -> DeviceBuffer:
        buffer = executor.allocate(array.nbytes)
        buffer.shape = tuple(array.shape)
        buffer.element_type = spec.element_type if spec is not None else ""
        executor.copy_host_to_device(buffer, array)
        return buffer

    def from_device(
        self, executor: StreamExecutor, buffer: DeviceBuffer, spec: TensorSpec
    ) -> np.ndarray:
        host = np.empty(spec.shape, dtype=spec.dtype)
        executor.copy_device_to_host(host, buffer)
        return host


class Platform(ABC):
    """A kind of device, with its compiler and transfer manager."""

    name: str = ""
    target: Target
    """The target whose platform this is (set by `Target.platform()`)."""

    def __init__(self) -> None:
        self._executors: dict[int, StreamExecutor] = {}

    @abstractmethod
    def device_count(self) -> int: ...

    def unavailable(self) -> str | None:
        """Why this platform has no device here (a GPU target on a machine
        without one), in words; None where it has devices or nothing to say."""
        return None

    def devices(self) -> list[str]:
        return [f"{self.name}:{i}" for i in range(self.device_count())]

    def executor(self, ordinal: int = 0) -> StreamExecutor:
        if not 0 <= ordinal < self.device_count():
            why = self.unavailable()
            raise XlirError(
                f"error: target '{self.name}' has {self.device_count()} "
                f"device(s); there is no device {ordinal}"
                + (f" ({why})" if why else "")
            )
        if ordinal not in self._executors:
            self._executors[ordinal] = self._make_executor(ordinal)
        return self._executors[ordinal]

    @abstractmethod
    def _make_executor(self, ordinal: int) -> StreamExecutor: ...

    @abstractmethod
    def compiler(self) -> Compiler: ...

    def transfer_manager(self) -> TransferManager:
        return TransferManager()


class Compiler(ABC):
    """Module in, executable out: the target's HLO passes, the record of what
    the program takes and needs (read once, here), then the backend."""

    def __init__(self, platform: Platform):
        self.platform = platform
        self.options = CompileOptions().with_environment()
        """The choices of this compiler's compiles (fast math, bounds checks,
        threads, ...): the defaults, with their environment aliases."""

    @property
    def target(self) -> Target:
        return self.platform.target

    def hlo_pipeline_text(self, pipeline: str | None = None) -> str:
        """The HLO-level pipeline of a compile as a spec: `pipeline`, or
        the target's for this compiler's options."""
        if pipeline is not None:
            return pipeline
        return pipeline_text(self.target.hlo_pipeline(self.options))

    def run_hlo_passes(
        self,
        module: ModuleOp,
        pipeline: str | None = None,
        sources: dict[str, str] | None = None,
    ) -> ModuleOp:
        """Target-independent optimization: `pipeline` (a pass-pipeline spec;
        None: the target's `hlo_pipeline`, "": none)."""
        _reject_nested_modules(module, sources)
        passes = (
            self.target.hlo_pipeline(self.options) if pipeline is None else pipeline
        )
        run_pipeline(make_context(), module, passes, sources)
        return module

    def optimize(
        self,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> ProgramRecord:
        """Runs the HLO passes on `module` (in place) and reads its record,
        after refusing collectives whose groups do not fit the grid the
        module states (`mhlo.num_replicas` x `mhlo.num_partitions`; one
        device where it states none, except in a test module whose
        `interpreter.run_parallel` ops pick their own grids). A
        module already at the loop level gets no default pipeline; one that
        is there after its pipeline (`hlo-opt,hlo-to-loop`) goes on from
        there."""
        misfits = grid_problems(module, module_grid(module), sources)
        if misfits and (_states_grid(module) or not _runs_own_grids(module)):
            raise XlirError("\n".join(misfits))
        if pipeline is not None or not is_loop_level(module):
            self.run_hlo_passes(module, pipeline, sources)
        return program_record(module, function, is_loop_level(module))

    @abstractmethod
    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        """An executable of `module`, optimized, whose record is `record`."""

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> Any:
        """The image this target's executor loads the `loop.kernel`s of a
        loop-level module from (`StreamExecutor.load_kernel`): what the
        generic executor of the `device` dialect launches; not every target
        compiles kernels on their own."""
        raise XlirError(
            f"error: target '{self.platform.name}' does not compile loop-level "
            "kernels on their own"
        )

    def lookup(
        self, text: str, function: str, pipeline: str | None
    ) -> Executable | None:
        """An executable compiled earlier from this program text, without
        parsing it (a target's compilation cache); None by default."""
        return None

    def compile(
        self,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> Executable:
        record = self.optimize(module, function, sources, pipeline)
        return self.run_backend(module, record, sources)

    def compile_ahead_of_time(
        self,
        module: ModuleOp,
        options: Any = None,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> Any:
        """Native code to link into another program (e.g. an object file and
        a C header), for the target `options` name; not every target can."""
        raise XlirError(
            f"error: target '{self.platform.name}' does not support ahead-of-time "
            "compilation; use a target whose TargetInfo says ahead_of_time"
        )

    def load_ahead_of_time(self, data: bytes, name: str) -> Executable:
        """An executable of a file `compile_ahead_of_time` wrote (`name`: the
        file's, for messages), run without compiling, where the target says
        it can (`Target.program_magic`)."""
        raise XlirError(
            f"{name}: error: target '{self.platform.name}' does not run "
            "ahead-of-time compiled files"
        )


def _states_grid(module: ModuleOp) -> bool:
    return any(
        key in module.attributes for key in ("mhlo.num_replicas", "mhlo.num_partitions")
    )


def _runs_own_grids(module: ModuleOp) -> bool:
    """A test module's `interpreter.run_parallel` ops pick their own grids;
    any other module without a stated grid runs on one device."""
    return any(isinstance(op, RunParallelOp) for op in walk(module))


def _reject_nested_modules(module: ModuleOp, sources: dict[str, str] | None) -> None:
    """A program is one module of functions: a module inside it is a symbol
    table of its own, whose functions the program cannot call."""
    for op in module.ops:
        if isinstance(op, ModuleOp):
            raise XlirError(
                format_at_op(
                    op,
                    "a nested 'builtin.module' cannot be compiled; a program is "
                    "one module of functions (compile the inner module on its own)",
                    sources,
                )
            )


def planned_memory_stats(module: ModuleOp, signature: Signature) -> MemoryStats:
    """The figures of the buffer plan of `signature`'s function in `module`:
    those `assign-buffers` recorded on it (a compile reads them rather than
    planning again), or a plan made here."""
    function = SymbolTable.lookup_symbol(module, signature.function)
    recorded = function.attributes.get(PLAN) if function else None
    if isinstance(recorded, PlanAttr):
        return MemoryStats(
            argument_size_in_bytes=recorded.arguments.data,
            output_size_in_bytes=recorded.outputs.data,
            alias_size_in_bytes=recorded.alias.data,
            temp_size_in_bytes=recorded.arena.data,
            constant_size_in_bytes=recorded.constants.data,
        )
    planned = buffer_stats(module).get(signature.function)
    if planned is not None:
        return MemoryStats(
            argument_size_in_bytes=planned.argument_size_in_bytes,
            output_size_in_bytes=planned.output_size_in_bytes,
            alias_size_in_bytes=planned.alias_size_in_bytes,
            temp_size_in_bytes=planned.temp_size_in_bytes,
            constant_size_in_bytes=planned.constant_size_in_bytes,
        )
    return MemoryStats(
        argument_size_in_bytes=sum(a.nbytes for a in signature.arguments),
        output_size_in_bytes=sum(r.nbytes for r in signature.results),
    )


@dataclass(frozen=True)
class ProgramRecord:
    """What an optimized program takes, returns and needs, read off it once
    when its HLO passes are done and carried down to the backend."""

    signature: Signature
    stats: MemoryStats
    arena_bytes: int
    """The temp arena its host function allocates."""
    loop_level: bool
    """Whether the optimized module is at the loop level (it came in so, or
    its pipeline lowered it)."""


def program_record(
    module: ModuleOp,
    function: str,
    loop_level: bool,
    sources: dict[str, str] | None = None,
) -> ProgramRecord:
    """The record of `function` in an optimized module: at the HLO level from
    its buffer plan, at the loop level from its host function (temps are the
    allocations it does not return, aliases the arguments it returns,
    constants the globals)."""
    if not loop_level:
        signature = function_signature(module, function)
        stats = planned_memory_stats(module, signature)
        return ProgramRecord(signature, stats, stats.temp_size_in_bytes, False)
    sources = sources or {}
    signature = loop_signature(module, function)
    host = SymbolTable.lookup_symbol(module, function)
    assert host is not None  # loop_signature found it
    block = host.regions[0].blocks[0]
    returned = set(block.last_op.operands) if block.last_op else set()
    temp = arena = 0
    for op in walk(host):
        if isinstance(op, device.AllocOp) and op.results[0] not in returned:
            temp += buffer_bytes(op.results[0].type, op, sources)
        if isinstance(op, ViewOp) and isinstance(op.operands[0].owner, device.AllocOp):
            arena = buffer_bytes(op.operands[0].type, op, sources)
    alias = sum(
        buffer_bytes(v.type, host, sources) for v in returned if v in block.args
    )
    constants = sum(
        buffer_bytes(op.buffer_type, op, sources)
        for op in module.ops
        if isinstance(op, GlobalOp)
    )
    stats = MemoryStats(
        argument_size_in_bytes=sum(a.nbytes for a in signature.arguments),
        output_size_in_bytes=sum(r.nbytes for r in signature.results),
        alias_size_in_bytes=alias,
        temp_size_in_bytes=temp,
        constant_size_in_bytes=constants,
    )
    return ProgramRecord(signature, stats, arena, True)


def buffer_bytes(type_: Attribute, op: Operation, sources: dict[str, str]) -> int:
    """The bytes of a buffer of a static memref type, or a diagnostic at `op`."""
    size = byte_width(type_.element_type) if isinstance(type_, MemRefType) else None
    if size is None or not isinstance(type_, MemRefType):
        raise XlirError(
            format_at_op(op, f"a buffer of type {type_} has no size in bytes", sources)
        )
    return size * prod(type_.get_shape())


class Executable(ABC):
    """A compiled function, runnable on its platform's devices."""

    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        module: ModuleOp | None = None,
        device: int = 0,
        stats: MemoryStats | None = None,
    ):
        self.platform = platform
        self.signature = signature
        self.module = module
        """The optimized HLO-level module, with its buffer plan."""
        self.device = device
        self.stats = stats or MemoryStats(
            argument_size_in_bytes=sum(a.nbytes for a in signature.arguments),
            output_size_in_bytes=sum(r.nbytes for r in signature.results),
        )
        """XLA's memory figures: the compile's record's (`ProgramRecord`),
        else the argument and output bytes only."""

    @abstractmethod
    def execute(
        self, arguments: Sequence[DeviceBuffer], stream: Stream
    ) -> list[DeviceBuffer]:
        """Enqueue a run on `stream`; results are valid after it syncs."""

    def __call__(self, *arrays: Any) -> np.ndarray | tuple[np.ndarray, ...]:
        checked = self.signature.check_arguments(arrays)
        executor = self.platform.executor(self.device)
        transfer = self.platform.transfer_manager()
        stream = executor.create_stream()
        inputs = [
            transfer.to_device(executor, array, spec)
            for array, spec in zip(checked, self.signature.arguments, strict=True)
        ]
        try:
            outputs = self.execute(inputs, stream)
            stream.synchronize()
            results = tuple(
                transfer.from_device(executor, buffer, spec)
                for buffer, spec in zip(outputs, self.signature.results, strict=True)
            )
        finally:
            for buffer in inputs:
                executor.deallocate(buffer)
        for buffer in outputs:
            executor.deallocate(buffer)
        return results[0] if len(results) == 1 else results

    def allocate_outputs(self, executor: StreamExecutor) -> list[DeviceBuffer]:
        """One device buffer per result of the signature, typed like it."""
        outputs = [executor.allocate(spec.nbytes) for spec in self.signature.results]
        for buffer, spec in zip(outputs, self.signature.results, strict=True):
            buffer.shape, buffer.element_type = spec.shape, spec.element_type
        return outputs

    def memory_stats(self) -> MemoryStats:
        return self.stats

    def launch_clock(self) -> DeviceClock | None:
        """The clock `timed_call` times its launches by; None where it does
        not time them (a profile then times each kernel run alone)."""
        return None

    def timed_call(self, arrays: Sequence[Any]) -> TimedCall:
        """A call with each kernel's launches timed on `launch_clock()`."""
        raise XlirError(
            f"error: executables of target '{self.platform.name}' do not time "
            "their kernel launches"
        )

    @property
    def check_failures(self) -> list[str]:
        """What the `check.*` ops of its runs found wrong, where its target
        runs them (`Target.runs_check_ops`); none elsewhere."""
        return []

    def as_text(self) -> str:
        """The optimized program, as text."""
        if self.module is None:
            return ""
        text = StringIO()
        Printer(stream=text).print_op(self.module)
        return text.getvalue()


class HostExecutable(Executable):
    """An executable that runs on the host's numpy arrays (`run`), as one
    kernel of a host-memory device: `execute` loads it on the stream's
    executor and enqueues its launch, on one block, with the arguments'
    buffers and then the outputs'."""

    @abstractmethod
    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run on already checked host arrays."""

    def run_into(self, arrays: list[np.ndarray], outputs: list[np.ndarray]) -> None:
        """`run`, writing its results into `outputs` (views of device memory)."""
        for output, value in zip(outputs, self.run(arrays), strict=True):
            output[...] = value

    def execute(
        self, arguments: Sequence[DeviceBuffer], stream: Stream
    ) -> list[DeviceBuffer]:
        executor = stream.executor
        kernel = executor.load_kernel(self, self.signature.function)
        outputs = self.allocate_outputs(executor)
        executor.launch(stream, kernel, (1,), [*arguments, *outputs])
        return outputs
