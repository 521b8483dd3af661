"""The nvptx-emu runtime: host memory as the device (`HostMemoryExecutor`),
the program's host schedule run by the generic device-schedule executor,
and its kernels launched at their `gpu_launch` from the image
`EmulatedKernels` (kernels.py), as the nvptx target launches its PTX."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xlir.targets.base import (
    Compiler,
    Grid,
    Platform,
    StreamExecutor,
)
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.host_memory import HostMemoryExecutor
from xlir.targets.nvptx import NvptxCompiler
from xlir.targets.nvptx.emu.kernels import EmulatedKernel, EmulatedKernels

from xlir.diagnostics import XlirError


class EmulatorExecutor(HostMemoryExecutor):
    """Host memory; kernels from an `EmulatedKernels` image."""

    def load_kernel(self, image: Any, name: str) -> EmulatedKernel:
        if not isinstance(image, EmulatedKernels):
            raise XlirError(
                "error: target 'nvptx-emu' loads the kernels its compiler emulates "
                f"(Compiler.compile_kernels), not a {type(image).__name__}"
            )
        return image.kernel(name)

    def launch_dimensions(self, kernel: Any) -> Grid:
        assert isinstance(kernel, EmulatedKernel)
        return (kernel.blocks,)


class EmulatorPlatform(Platform):
    name = "nvptx-emu"

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        return EmulatorExecutor(self, ordinal)

    def compiler(self) -> Compiler:
        return EmulatorCompiler(self)


class EmulatorCompiler(NvptxCompiler):
    """The nvptx target's compiler, down to the kernels mapped onto the GPU;
    the kernels are then emulated (`EmulatedKernels`) rather than made
    PTX."""

    executable_class = DeviceScheduleExecutable

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> EmulatedKernels:
        return EmulatedKernels(self.mapped(module, sources), sources)

    def compile_ahead_of_time(self, module: ModuleOp, *args: Any, **kwargs: Any) -> Any:
        """None: the emulator's code lives in this process (compile ahead of
        time for the nvptx target)."""
        return Compiler.compile_ahead_of_time(self, module, *args, **kwargs)
