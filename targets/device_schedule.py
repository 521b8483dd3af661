"""The generic executor of the `device` dialect: a host function's schedule
(allocate, copy, launch, events, synchronize, free, and the host control flow
around them) walked through any target's `StreamExecutor`, its kernels loaded
by that target's `load_kernel` from the image its compiler made of the
module's kernels (`Compiler.compile_kernels`).

Each op maps one to one onto the runtime interfaces (docs/loop-level.md, the
device dialect): `device.alloc` is `allocate`, `device.launch` a `launch` on
the grid the target picks for the kernel (`launch_dimensions`), a
`loop.view` of the arena a `sub_buffer`, `device.free` a `deallocate` once
the work enqueued before it is done (as cuMemFree waits), a `loop.reshape`
the whole buffer under its new shape, and a
`loop.get_global` a device buffer the run fills with the constant and frees
at its end, and a `device.collective` the exchange of its buffers (brought to
the host) through the communicator (targets/collective_steps.py). What the function returns is the caller's: a returned argument,
part of an allocation or buffer returned twice is copied into a buffer of
its own, as XLA's executables return buffers they own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xlir.dialects import device
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp
from xlir.dialects.stablehlo.process_groups import module_grid
from xlir.evaluator.collective_step import CollectiveStep, site_text
from xlir.evaluator.hlo.types import dense_to_numpy
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    DeviceClock,
    Event,
    Executable,
    LaunchTime,
    MemoryStats,
    Platform,
    ProgramRecord,
    Signature,
    Stream,
    StreamExecutor,
    TimedCall,
    buffer_bytes,
    launch_times,
    program_record,
)
from xlir.targets.collective_steps import communicator_for
from xlir.targets.signatures import loop_signature

from xlir.diagnostics import XlirError, format_at_op
from xlir.element_dtypes import array_dtype
from xlir.walk import walk

HOST_OPS: tuple[type[Operation], ...] = (
    *device.DEVICE_OPS,
    ViewOp,
    ReshapeOp,
    GetGlobalOp,
    arith.ConstantOp,
    arith.IndexCastOp,
    scf.WhileOp,
    scf.IfOp,
    scf.IndexSwitchOp,
    scf.ConditionOp,
    scf.YieldOp,
    func.ReturnOp,
)
"""The ops a host function may hold."""


class DeviceScheduleExecutable(Executable):
    """A loop-level module's host function, run through the executor of the
    stream it is given, with the kernels of `image` (what the target's
    `compile_kernels` made of the module)."""

    def __init__(
        self,
        platform: Platform,
        module: ModuleOp,
        image: Any,
        function: str = "main",
        sources: dict[str, str] | None = None,
        signature: Signature | None = None,
    ):
        """`signature`: the program's, where it was compiled from the HLO
        level (its unsigned types, which the loop level's buffers lose);
        else the host function's."""
        signature = signature or loop_signature(module, function)
        super().__init__(platform, signature, module)
        self.image = image
        self.sources = sources or {}
        self.function = _host_function(module, function)
        self.globals = {
            op.sym_name.data: op for op in module.ops if isinstance(op, GlobalOp)
        }
        self._kernels: dict[StreamExecutor, dict[str, Any]] = {}
        self.grid = module_grid(module)
        self.collective_steps = {
            op: CollectiveStep(site_text(op))
            for op in walk(self.function)
            if isinstance(op, device.CollectiveOp)
        }
        exchanges = {
            inner
            for op in self.collective_steps
            for inner in walk(op)
            if inner is not op
        }
        unknown = [
            format_at_op(op, f"'{op.name}' cannot run on the host", self.sources)
            for op in walk(self.function)
            if op is not self.function
            and not isinstance(op, HOST_OPS)
            and op not in exchanges
        ]
        if unknown:
            raise XlirError(
                f"error: the host schedule of @{function} holds {len(unknown)} op(s) "
                "the device-schedule executor does not run:\n" + "\n".join(unknown)
            )

    def execute(
        self, arguments: Sequence[DeviceBuffer], stream: Stream
    ) -> list[DeviceBuffer]:
        count = len(self.signature.arguments)
        if len(arguments) != count:
            raise XlirError(
                f"error: @{self.signature.function} takes {count} device buffer(s), "
                f"but {len(arguments)} were given"
            )
        kernels = self._kernels.setdefault(stream.executor, {})
        return _Run(self, stream, kernels).call(list(arguments))

    def image_constant(
        self, executor: StreamExecutor, name: str
    ) -> DeviceBuffer | None:
        """The device buffer of the constant `name` where the image holds it
        (read-only data the executor loaded with the kernels); None: each
        run copies the constant to the device and frees it at its end."""
        return None

    def launch_clock(self) -> DeviceClock | None:
        """Its device's, where the device times its launches."""
        return self.platform.executor(self.device).clock

    def timed_call(self, arrays: Sequence[Any]) -> TimedCall:
        """A call with the device's log of its launches kept
        (`StreamExecutor.log_launch`)."""
        if self.launch_clock() is None:
            return super().timed_call(arrays)
        executor = self.platform.executor(self.device)
        executor.launch_log = log = []
        try:
            start = executor.now()
            results = self(*arrays)
            end = executor.now()
        finally:
            executor.launch_log = None
        times = launch_times(log)
        ran = {t.kernel for t in times}
        for kernel, moved in self._launch_sites().items():
            if kernel not in ran:  # e.g. in a branch not taken
                times.append(LaunchTime(kernel, moved, 0, 0, 0, 0))
        return TimedCall(results, start, end, times)

    def _launch_sites(self) -> dict[str, int]:
        """Each kernel the host function launches, with the bytes of the
        distinct buffers a launch passes."""
        sites: dict[str, int] = {}
        for op in walk(self.function):
            if isinstance(op, device.LaunchOp):
                buffers = [
                    a for a in dict.fromkeys(op.args) if isinstance(a.type, MemRefType)
                ]
                sites.setdefault(
                    op.kernel.root_reference.data,
                    sum(buffer_bytes(b.type, op, self.sources) for b in buffers),
                )
        return sites

    def memory_stats(self) -> MemoryStats:
        """The loop-level record's figures, read off the host function."""
        assert self.module is not None  # given to __init__
        record = program_record(
            self.module, self.signature.function, True, self.sources
        )
        return record.stats


class ScheduleCompiler(Compiler):
    """The compiler of a target whose programs run at the loop level: the
    host function through `DeviceScheduleExecutable`, launching the kernels
    of the image `compile_kernels` makes (all such a target writes)."""

    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        image = self.compile_kernels(module, sources)
        function = record.signature.function
        return DeviceScheduleExecutable(self.platform, module, image, function, sources)


def _host_function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise XlirError(f"error: there is no function @{name} in the module")


class _Run:
    """One run of a host function: its values, the streams it made, the
    buffers it allocated and the constants it put on the device."""

    def __init__(
        self,
        executable: DeviceScheduleExecutable,
        stream: Stream,
        kernels: dict[str, Any],
    ):
        self.executable = executable
        self.executor = stream.executor
        self.stream = stream
        self.kernels = kernels
        self.values: dict[SSAValue, Any] = {}
        self.streams = [stream]
        self.allocated: set[DeviceBuffer] = set()
        self.constants: dict[str, DeviceBuffer] = {}

    def call(self, arguments: list[DeviceBuffer]) -> list[DeviceBuffer]:
        function = self.executable.function
        results = self.block(function.body.block, arguments)
        outputs = [
            self.own(result, results[:index]) for index, result in enumerate(results)
        ]
        self.release_constants()
        return outputs

    def block(self, block: Block, arguments: Sequence[Any]) -> list[Any]:
        """Run a block on its arguments' values; its terminator's operands."""
        for arg, value in zip(block.args, arguments, strict=True):
            self.values[arg] = value
        for op in block.ops:
            if isinstance(op, scf.YieldOp | scf.ConditionOp | func.ReturnOp):
                return [self.values[v] for v in op.operands]
            try:
                self.run(op)
            except XlirError as error:
                if str(error).startswith("error: "):
                    message = str(error).removeprefix("error: ")
                    raise XlirError(
                        format_at_op(op, message, self.executable.sources)
                    ) from None
                raise
        return []

    def run(self, op: Operation) -> None:
        values = self.values
        match op:
            case device.DefaultStreamOp():
                values[op.stream] = self.stream
            case device.StreamCreateOp():
                values[op.stream] = self.executor.create_stream()
                self.streams.append(values[op.stream])
            case device.StreamDestroyOp():
                values[op.stream].synchronize()
            case device.EventCreateOp():
                values[op.event] = Event()
            case device.EventDestroyOp():
                pass
            case device.RecordOp():
                values[op.stream].record_event(values[op.event])
            case device.WaitOp():
                values[op.stream].wait_event(values[op.event])
            case device.SynchronizeOp():
                values[op.stream].synchronize()
            case device.AllocOp():
                values[op.buffer] = self.allocate(op.buffer.type, op)
            case device.FreeOp():
                self.free(values[op.buffer])
            case device.CopyOp():
                self.copy(op)
            case device.ReadScalarOp():
                values[op.result] = self.read_scalar(op)
            case device.LaunchOp():
                self.launch(op)
            case device.CollectiveOp():
                self.collective(op)
            case ViewOp():
                size = buffer_bytes(op.result.type, op, self.executable.sources)
                view = self.executor.sub_buffer(values[op.source], op.byte_offset, size)
                values[op.result] = _typed(view, op.result.type)
            case ReshapeOp():
                source = values[op.source]
                whole = self.executor.sub_buffer(source, 0, source.size_in_bytes)
                values[op.result] = _typed(whole, op.result.type)
            case GetGlobalOp():
                name = op.global_name.root_reference.data
                values[op.result] = self.constant(name, op.result.type)
            case arith.ConstantOp():
                values[op.result] = _constant(op.value)
            case arith.IndexCastOp():
                values[op.result] = int(values[op.input])
            case scf.WhileOp():
                self.loop(op)
            case scf.IfOp():
                region = op.true_region if values[op.cond] else op.false_region
                self.branch(op, region.blocks[0] if region.blocks else None)
            case scf.IndexSwitchOp():
                self.switch(op)
            case _:
                raise AssertionError(f"{op.name} is not a host op")

    def allocate(self, type_: Attribute, op: Operation) -> DeviceBuffer:
        buffer = self.executor.allocate(
            buffer_bytes(type_, op, self.executable.sources)
        )
        self.allocated.add(buffer)
        return _typed(buffer, type_)

    def free(self, buffer: DeviceBuffer) -> None:
        """Once every stream of the run has done the work enqueued so far."""
        if buffer not in self.allocated:
            raise XlirError(
                "error: device.free of a buffer this schedule did not allocate"
            )
        for stream in self.streams:
            stream.synchronize()
        self.executor.deallocate(buffer)

    def copy(self, op: device.CopyOp) -> None:
        stream: Stream = self.values[op.stream]
        source, target = self.values[op.source], self.values[op.target]
        direction = op.direction.data
        if direction == device.CopyDirection.DEVICE_TO_DEVICE:
            stream.memcpy_device_to_device(target, source)
            return
        host = source if direction == device.CopyDirection.HOST_TO_DEVICE else target
        if not isinstance(host, np.ndarray):
            raise XlirError(
                f"error: device.copy {direction.value} needs host memory on its host "
                "side, but the schedule's buffers are all device memory"
            )
        if direction == device.CopyDirection.HOST_TO_DEVICE:
            stream.memcpy_host_to_device(target, host)
        else:
            stream.memcpy_device_to_host(host, source)

    def read_scalar(self, op: device.ReadScalarOp) -> Any:
        """Wait for the stream, then bring the buffer to the host and index it."""
        stream: Stream = self.values[op.stream]
        stream.synchronize()
        type_ = op.buffer.type
        assert isinstance(type_, MemRefType)
        dtype = array_dtype(type_.element_type)
        if dtype is None:
            raise XlirError(f"error: a scalar of {type_.element_type} cannot be read")
        host = np.empty(tuple(type_.get_shape()), dtype)
        self.executor.copy_device_to_host(host, self.values[op.buffer])
        return host[tuple(int(self.values[i]) for i in op.indices)]

    def launch(self, op: device.LaunchOp) -> None:
        name = op.kernel.root_reference.data
        kernel = self.kernels.get(name)
        if kernel is None:
            kernel = self.kernels[name] = self.executor.load_kernel(
                self.executable.image, name
            )
        grid = self.executor.launch_dimensions(kernel)
        arguments = [self.values[a] for a in op.args]
        self.executor.launch(self.values[op.stream], kernel, grid, arguments)

    def collective(self, op: device.CollectiveOp) -> None:
        """Once the stream is done: the step's buffers to the host, the
        exchange through the communicator, the results back."""
        stream: Stream = self.values[op.stream]
        stream.synchronize()
        buffers = [self.values[a] for a in op.args]
        hosts = [np.empty(b.size_in_bytes, np.uint8) for b in buffers]
        for host, buffer in zip(hosts, buffers, strict=True):
            self.executor.copy_device_to_host(host, buffer)
        step = self.executable.collective_steps[op]
        step.run(communicator_for(self.executable.grid), hosts)
        for index in range(len(op.inputs), len(buffers)):
            self.executor.copy_host_to_device(buffers[index], hosts[index])

    def constant(self, name: str, type_: Attribute) -> DeviceBuffer:
        """The device buffer of a `loop.global` of buffer type `type_`: the
        image's, or one filled on first use."""
        found = self.constants.get(name)
        if found is None:
            loaded = self.executable.image_constant(self.executor, name)
            if loaded is not None:
                return _typed(loaded, type_)
            op = self.executable.globals[name]
            found = self.constants[name] = self.allocate(op.buffer_type, op)
            self.executor.copy_host_to_device(found, constant_array(op))
        return found

    def release_constants(self) -> None:
        """Free the constants once the run's work is done: in the default
        stream's order, after the other streams' work (waited on by events)."""
        for stream in self.streams[1:]:
            self.stream.wait_event(stream.record_event())
        for buffer in self.constants.values():
            self.stream.enqueue(lambda b=buffer: self.executor.deallocate(b))

    def own(self, result: Any, earlier: Sequence[Any]) -> DeviceBuffer:
        """A returned buffer as the caller's own (see the module docstring)."""
        fresh = (
            result in self.allocated
            and result not in self.constants.values()
            and not any(result is e for e in earlier)
        )
        if fresh:
            return result
        copy = self.executor.allocate(result.size_in_bytes)
        copy.shape, copy.element_type = result.shape, result.element_type
        self.stream.memcpy_device_to_device(copy, result)
        return copy

    def loop(self, op: scf.WhileOp) -> None:
        carried = [self.values[v] for v in op.arguments]
        while True:
            condition, *passed = self.block(op.before_region.blocks[0], carried)
            if not condition:
                break
            carried = self.block(op.after_region.blocks[0], passed)
        for result, value in zip(op.results, passed, strict=True):
            self.values[result] = value

    def branch(self, op: Operation, block: Block | None) -> None:
        results = self.block(block, []) if block is not None else []
        for result, value in zip(op.results, results, strict=True):
            self.values[result] = value

    def switch(self, op: scf.IndexSwitchOp) -> None:
        index = int(self.values[op.arg])
        cases = list(op.cases.get_values())
        region = (
            op.case_regions[cases.index(index)] if index in cases else op.default_region
        )
        self.branch(op, region.blocks[0])


def constant_array(op: GlobalOp) -> np.ndarray:
    """A constant's value as the host array of its buffer's element type.
    Where that is the constant's own float type, its bits as they are: the
    evaluator holds bf16 and the narrow floats as f32, and converting those
    back makes every NaN the canonical one (its payload lost). Not an i1's
    bits: xDSL stores true as 0xFF, which a device's `not` (xor 1) leaves
    true."""
    host = np.asarray(dense_to_numpy(op.value, op.value.type))
    dtype = array_dtype(op.buffer_type.element_type)
    element = op.value.get_element_type()
    if (
        isinstance(element, AnyFloat)
        and element == op.buffer_type.element_type
        and dtype is not None
    ):
        bits = np.frombuffer(op.value.data.data, dtype)
        if bits.nbytes == len(op.value.data.data) and bits.size == host.size:
            return bits.reshape(host.shape).copy()
    return host.astype(dtype)


def _typed(buffer: DeviceBuffer, type_: Attribute) -> DeviceBuffer:
    """`buffer`, recording the shape and element type of its memref type."""
    assert isinstance(type_, MemRefType)
    buffer.shape = tuple(type_.get_shape())
    buffer.element_type = str(type_.element_type)
    return buffer


def _constant(value: Attribute) -> Any:
    if isinstance(value, IntegerAttr | FloatAttr):
        return value.value.data
    raise XlirError(f"error: a host constant {value} is not a scalar")
