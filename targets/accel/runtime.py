"""XA-1 behind xlir's runtime interfaces (`xlir.targets.base`, named after XLA's):
`AccelPlatform` "accel" with one device, an `AccelStreamExecutor` whose memory is
the simulator's DRAM, and a `TransferManager` that moves arrays in their DRAM
format (manual table 2.7, which is numpy's row-major layout of the same type).

Its compiler (`compiler.py`) lowers a program's kernels to one object; kernels are loaded from XA1 objects and launched by the calling convention of
section 8.2; the launches of a stream run in order on the simulator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xlir.targets.accel.device import LAUNCH_OVERHEAD, Device, Program
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.accel.profile import Profile
from xlir.targets.accel.simulator import SimulationError
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    DeviceClock,
    Grid,
    KernelArgument,
    Platform,
    Stream,
    StreamExecutor,
    TensorSpec,
    TransferManager,
    check_transfer,
)

from xlir.diagnostics import XlirError

UNSUPPORTED_KINDS = {"c": "complex"}
UNSUPPORTED_DTYPES = {np.dtype(np.float64): "f64"}


def check_dram_format(dtype: np.dtype) -> None:
    """Table 2.7: XA-1 has no f64 or complex data (a compiler must reject them)."""
    name = UNSUPPORTED_DTYPES.get(dtype) or UNSUPPORTED_KINDS.get(dtype.kind)
    if name is not None:
        raise XlirError(f"error: XA-1 does not support {name} data ({dtype})")


SIMULATED_CLOCK = DeviceClock(
    "XA-1's 1 GHz core clock, simulated (each launch's cycles from the simulator)",
    1e9,
    unit="cycles",
    simulated=True,
    between_launches="launch overhead, 1,000 cycles a launch (manual section 8.4)",
)


@dataclass(frozen=True)
class LoadedKernel:
    program: Program
    name: str
    nargs: int


class AccelStreamExecutor(StreamExecutor):
    """One XA-1: device memory is DRAM addresses; copies take no device cycles.
    Its clock is the simulated device time (`Device.cycles`)."""

    clock = SIMULATED_CLOCK

    def __init__(self, platform: Platform, ordinal: int, dram_size: int):
        super().__init__(platform, ordinal)
        self.device = Device(dram_size)
        self._programs: dict[bytes, Program] = {}

    def allocate(self, size_in_bytes: int) -> DeviceBuffer:
        address = self.device.allocate(size_in_bytes)
        self._count(size_in_bytes)
        return DeviceBuffer(self.ordinal, size_in_bytes, address)

    def now(self) -> int:
        return self.device.cycles

    def deallocate(self, buffer: DeviceBuffer) -> None:
        if buffer.freed:
            raise XlirError(f"error: device buffer at {buffer.handle:#x} freed twice")
        self.device.free(buffer.handle)
        self._count(-buffer.size_in_bytes)
        buffer.freed = True

    def copy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        check_dram_format(host.dtype)
        check_transfer("host to device", buffer, host.nbytes)
        self.device.write(buffer.handle, host)

    def copy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        check_transfer("device to host", buffer, host.nbytes)
        data = self.device.read(buffer.handle, host.nbytes)
        host[...] = np.frombuffer(data, host.dtype).reshape(host.shape)

    def load_kernel(self, image: Any, name: str) -> LoadedKernel:
        """`image`: an `ObjectFile` or its bytes; loaded (rodata to DRAM) once."""
        program = self.program(image)
        try:
            symbol = program.simulator.obj.symbol(name)
        except KeyError:
            names = ", ".join(s.name for s in program.simulator.obj.symbols)
            raise XlirError(
                f"error: the object has no loop.kernel @{name} (it has: {names})"
            ) from None
        return LoadedKernel(program, name, symbol.nargs)

    def program(self, image: Any) -> Program:
        """The loaded program of an object (or its bytes), loaded on first
        use; its `profiles` are its launches' (benchmarks/accel.py)."""
        data = image.to_bytes() if isinstance(image, ObjectFile) else bytes(image)
        if data not in self._programs:
            self._programs[data] = self.device.load(ObjectFile.from_bytes(data))
        return self._programs[data]

    def copy_device_to_device(self, target: DeviceBuffer, source: DeviceBuffer) -> None:
        check_transfer("device to device", source, target.size_in_bytes)
        check_transfer("device to device", target, source.size_in_bytes)
        data = self.device.read(source.handle, source.size_in_bytes)
        self.device.write(target.handle, data)

    def _sub_handle(self, buffer: DeviceBuffer, offset: int, size: int) -> int:
        """A part of a DRAM allocation is its address plus the offset."""
        return buffer.handle + offset

    def _launch(
        self,
        stream: Stream,
        kernel: Any,
        grid: Grid,
        arguments: list[KernelArgument],
    ) -> None:
        """Arguments: device buffers (their addresses), Python ints (i32 or u32)
        and floats (f32 bit patterns), in the kernel's parameter order. XA-1
        is one core: a launch on any grid runs the kernel once, the one core
        doing every block's iterations (the other blocks have none)."""
        assert isinstance(kernel, LoadedKernel)
        if len(arguments) != kernel.nargs:
            raise XlirError(
                f"error: kernel '{kernel.name}' takes {kernel.nargs} arguments, "
                f"got {len(arguments)}"
            )
        values = [_argument(a) for a in arguments]

        def run() -> None:
            before = self.device.cycles
            try:
                profile = kernel.program.launch(kernel.name, values)
            except SimulationError as error:
                raise XlirError(f"error: {error}") from None
            start = before + LAUNCH_OVERHEAD
            counters = _counters(profile)
            self.log_launch(kernel.name, arguments, start, self.device.cycles, counters)

        stream.enqueue(run)


def _counters(profile: Profile) -> dict[str, int]:
    """The simulator's counts of a launch (section 6.6), for a profile."""
    return {
        "instructions": profile.instructions,
        **{f"instructions.{u}": n for u, n in profile.instructions_by_unit.items()},
        "stall_cycles": profile.stall_cycles,
        "dma_busy_cycles": profile.dma_busy_cycles,
        "matrix_busy_cycles": profile.matrix_busy_cycles,
        "mmacs": profile.mmacs,
        "dram_bytes": profile.dram_bytes,
        "flops_executed": profile.flops,
    }


def _argument(value: Any) -> int:
    if isinstance(value, DeviceBuffer):
        return value.handle
    if isinstance(value, float | np.floating):
        return int(np.array(value, np.float32).view(np.uint32))
    return int(value) & 0xFFFFFFFF


class AccelTransferManager(TransferManager):
    def to_device(
        self,
        executor: StreamExecutor,
        array: np.ndarray,
        spec: TensorSpec | None = None,
    ) -> DeviceBuffer:
        check_dram_format(array.dtype)
        return super().to_device(executor, array, spec)


class AccelPlatform(Platform):
    name = "accel"

    def __init__(self, dram_size: int = 1 << 30):
        super().__init__()
        self.dram_size = dram_size

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        return AccelStreamExecutor(self, ordinal, self.dram_size)

    def compiler(self) -> Compiler:
        from xlir.targets.accel.compiler import AccelCompiler

        return AccelCompiler(self)

    def transfer_manager(self) -> TransferManager:
        return AccelTransferManager()
