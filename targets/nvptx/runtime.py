"""The nvptx runtime: a `StreamExecutor` over one GPU through the CUDA
driver (cuda_driver.py), and the image its kernels load from.

Device buffers are `cuMemAlloc` allocations (a part of one is its address
plus an offset); copies are the driver's synchronous `cuMemcpy*`; a stream
is a CUDA stream, on which launches are queued in order when the
device-schedule executor's work runs (`Stream.synchronize`), which then
waits for the CUDA stream. `load_kernel` loads the image's PTX once per
device (the driver compiles it for the GPU it has) and finds the kernel; its
launch (blocks, threads, shared bytes) is the one `map-to-gpu` chose.
Elementwise and one-thread kernels are right on any grid (their blocks, of
every dimension, launched as that many blocks along x); a row reduction
runs on its own grid only, and another is a diagnostic.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np
from xlir.targets.base import (
    DeviceBuffer,
    Grid,
    KernelArgument,
    Platform,
    Stream,
    StreamExecutor,
    check_transfer,
)
from xlir.targets.nvptx.cuda_driver import CudaDriver
from xlir.targets.nvptx.ptx import KernelInfo

from xlir.diagnostics import XlirError


@dataclass(eq=False)
class PtxImage:
    """The PTX of a program's kernels and how each is launched."""

    ptx: str
    kernels: dict[str, KernelInfo]
    modules: dict[int, ctypes.c_void_p] = field(default_factory=dict)
    """The loaded module, per device ordinal."""


@dataclass(frozen=True)
class LoadedKernel:
    name: str
    function: ctypes.c_void_p
    info: KernelInfo


class CudaStream(Stream):
    """A CUDA stream under the generic queue (module docstring)."""

    def __init__(self, executor: CudaExecutor):
        super().__init__(executor)
        self.driver = executor.driver
        self.handle = self.driver.create_stream()

    def synchronize(self) -> None:
        super().synchronize()
        self.driver.synchronize(self.handle)


class CudaExecutor(StreamExecutor):
    """One GPU (module docstring)."""

    def __init__(self, platform: Platform, ordinal: int, driver: CudaDriver):
        super().__init__(platform, ordinal)
        self.driver = driver
        self.context = driver.primary_context(ordinal)

    def allocate(self, size_in_bytes: int) -> DeviceBuffer:
        pointer = self.driver.allocate(size_in_bytes)
        self._count(size_in_bytes)
        return DeviceBuffer(self.ordinal, size_in_bytes, pointer)

    def deallocate(self, buffer: DeviceBuffer) -> None:
        if buffer.released:
            return
        if buffer.owner is None:
            self.driver.free(buffer.handle)
            self._count(-buffer.size_in_bytes)
        buffer.freed = True

    def copy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        check_transfer("host to device", buffer, host.nbytes)
        source = np.ascontiguousarray(host)
        self.driver.copy_to_device(buffer.handle, source.ctypes.data, source.nbytes)

    def copy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        check_transfer("device to host", buffer, host.nbytes)
        target = host if host.flags.c_contiguous else np.empty_like(host, order="C")
        self.driver.copy_to_host(target.ctypes.data, buffer.handle, target.nbytes)
        if target is not host:
            host[...] = target

    def copy_device_to_device(self, target: DeviceBuffer, source: DeviceBuffer) -> None:
        check_transfer("device to device", source, target.size_in_bytes)
        if source.size_in_bytes:
            self.driver.copy_on_device(
                target.handle, source.handle, source.size_in_bytes
            )

    def _sub_handle(self, buffer: DeviceBuffer, offset: int, size: int) -> Any:
        return buffer.handle + offset

    def create_stream(self) -> Stream:
        return CudaStream(self)

    def load_kernel(self, image: Any, name: str) -> LoadedKernel:
        if not isinstance(image, PtxImage):
            raise XlirError(
                f"error: target 'nvptx' loads kernels from PTX, not from a "
                f"{type(image).__name__}"
            )
        info = image.kernels.get(name)
        if info is None:
            raise XlirError(f"error: the PTX has no kernel @{name}")
        module = image.modules.get(self.ordinal)
        if module is None:
            module = self.driver.load_module(image.ptx.encode() + b"\0")
            image.modules[self.ordinal] = module
        return LoadedKernel(name, self.driver.function(module, name), info)

    def launch_dimensions(self, kernel: Any) -> Grid:
        assert isinstance(kernel, LoadedKernel)
        return (kernel.info.blocks,)

    def _launch(
        self,
        stream: Stream,
        kernel: Any,
        grid: Grid,
        arguments: list[KernelArgument],
    ) -> None:
        assert isinstance(kernel, LoadedKernel) and isinstance(stream, CudaStream)
        info = kernel.info
        if len(arguments) != len(info.params):
            raise XlirError(
                f"error: launch of @{info.name}: it takes {len(info.params)} "
                f"argument(s), not {len(arguments)}"
            )
        blocks = prod(grid)
        if not info.any_grid and blocks != info.blocks:
            raise XlirError(
                f"error: launch of @{info.name} on {blocks} block(s): it works "
                f"block by block (one row each), so it runs on its own grid of "
                f"{info.blocks} block(s) (launch_dimensions)"
            )
        values = [
            (kind, a.handle if isinstance(a, DeviceBuffer) else a)
            for kind, a in zip(info.params, arguments, strict=True)
        ]

        def launch() -> None:
            self.driver.launch(
                kernel.function,
                blocks,
                info.threads,
                info.shared_bytes,
                stream.handle,
                values,
            )

        stream.enqueue(launch)
