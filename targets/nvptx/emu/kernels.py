"""The kernel image of the nvptx-emu target (`Compiler.compile_kernels`):
every kernel of a loop-level module `map-to-gpu` mapped, runnable on the
host on any grid of blocks of the threads of its launch (`gpu_launch`).

A kernel whose threads are independent is compiled to native code with its
threads as loops (`NativeKernel`); one with barriers, warp shuffles or
shared memory runs block by block with its threads in lockstep in the loop
evaluator (`LockstepKernel`). Both launch on device buffers of a
host-memory device (`run`, as the generic device-schedule executor does)
or on raw addresses and scalars (`run_raw`, as the fake CUDA driver of
scripts/gpu_check.py does, with the parameters of a CUDA launch).
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute
from xlir.analysis.kernel_aliasing import distinct_arguments, launches_by_kernel
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.evaluator.loop.engine import Routine
from xlir.evaluator.loop.image import LoopModule
from xlir.evaluator.loop.values import register_dtype, storage_dtype
from xlir.lowering.llvm.function import llvm_type
from xlir.targets.base import DeviceBuffer, Grid, KernelArgument
from xlir.targets.host_memory import HostKernel
from xlir.targets.nvptx.emu import simt_steps  # noqa: F401 (registers the steps)
from xlir.targets.nvptx.emu.emulation import (
    launch,
    lockstep_block,
    needs_lockstep,
    thread_loops,
)
from xlir.targets.nvptx.emu.host_code import HostCode

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width

C_TYPES: dict[str, Any] = {
    "ptr": ctypes.c_void_p,
    "i1": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}
"""A kernel parameter's kind (the nvptx manifest's) -> its C type."""


def parameter_kind(type_: Attribute, kernel: KernelOp) -> str:
    """ "ptr" for a buffer, else the LLVM type of the scalar (as in the PTX)."""
    if isinstance(type_, MemRefType):
        return "ptr"
    return str(llvm_type(type_, kernel))


def buffer_bytes(type_: MemRefType[Attribute]) -> int:
    """The bytes a buffer of `type_` spans in device memory."""
    return (byte_width(type_.element_type) or 0) * prod(type_.get_shape())


class EmulatedKernel(HostKernel):
    """One mapped kernel on the host; see the module docstring."""

    def __init__(self, kernel: KernelOp):
        self.name = kernel.sym_name.data
        self.blocks, self.threads, self.shared_bytes = launch(kernel)
        self.types = list(kernel.argument_types)
        self.buffer_parameters = [isinstance(t, MemRefType) for t in self.types]
        """Which parameters are buffers (`launch` checks the arguments)."""
        self.params = [parameter_kind(t, kernel) for t in self.types]
        self.extents = [
            buffer_bytes(t) if isinstance(t, MemRefType) else None for t in self.types
        ]
        """The bytes each buffer parameter spans (None for a scalar)."""
        self.any_grid = not needs_lockstep(kernel)
        """Whether it is right on any grid (map-to-gpu's grid-stride and
        one-thread kernels); a kernel working block by block (a row
        reduction) runs on its own grid only, as the nvptx executor says."""

    def run(self, grid: Grid, arguments: Sequence[KernelArgument]) -> None:
        """On device buffers of a host-memory device, where `launch` checked
        that its parameters have them: their addresses, once each is checked
        to hold its parameter's buffer; a grid of several dimensions as that
        many blocks along x, as the nvptx target's executor launches it."""
        if not self.any_grid and prod(grid) != self.blocks:
            raise XlirError(
                f"error: launch of @{self.name} on {prod(grid)} block(s): it works "
                f"block by block, so it runs on its own grid of {self.blocks} "
                "block(s) only"
            )
        values: list[int | float] = []
        for index, (argument, type_, extent) in enumerate(
            zip(arguments, self.types, self.extents, strict=True)
        ):
            if isinstance(argument, DeviceBuffer):
                if argument.size_in_bytes != extent:
                    raise XlirError(
                        f"error: @{self.name}: argument {index} is a device buffer of "
                        f"{argument.size_in_bytes} bytes; {type_} takes {extent}"
                    )
                values.append(argument.handle.ctypes.data)
            else:
                values.append(
                    argument.item() if isinstance(argument, np.generic) else argument
                )
        self.run_raw((prod(grid), 1, 1), (self.threads, 1, 1), 0, values)

    def run_raw(
        self,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        shared_bytes: int,
        values: Sequence[int | float],
    ) -> None:
        """On addresses of host memory and scalars, as a CUDA launch passes
        them; the kernel reads the block's x number only, so the blocks of x
        run once for each (y, z), as on a GPU."""
        if prod(block) != self.threads:
            raise XlirError(
                f"error: @{self.name} runs blocks of {self.threads} thread(s) (its "
                f"gpu_launch), but was launched with blocks of {prod(block)}"
            )
        for _ in range(prod(grid[1:])):
            self.execute(values, grid[0])

    def execute(self, values: Sequence[int | float], blocks: int) -> None:
        """Run `blocks` blocks on buffer addresses and scalars."""
        raise NotImplementedError


class NativeKernel(EmulatedKernel):
    """Threads as loops, compiled for the host (`emulation.thread_loops`)."""

    def __init__(self, kernel: KernelOp, code: HostCode):
        super().__init__(kernel)
        self.code = code
        """The loaded code, kept alive while the kernel is."""
        signature = ctypes.CFUNCTYPE(
            None, *[C_TYPES[p] for p in self.params], ctypes.c_int64
        )
        self.function = signature(code.address(self.name))

    def execute(self, values: Sequence[int | float], blocks: int) -> None:
        self.function(*values, blocks)


class LockstepKernel(EmulatedKernel):
    """One block at a time, its threads in lockstep in the loop evaluator
    (`emulation.lockstep_block`)."""

    def __init__(self, kernel: KernelOp, routine: Routine):
        super().__init__(kernel)
        self.routine = routine

    def execute(self, values: Sequence[int | float], blocks: int) -> None:
        arguments = [
            self.argument(v, t) for v, t in zip(values, self.types, strict=True)
        ]
        with np.errstate(all="ignore"):
            for block in range(blocks):
                self.routine([*arguments, np.int64(block), np.int64(blocks)])

    def argument(self, value: int | float, type_: Attribute) -> Any:
        """A buffer's address as an array of its memref type over that
        memory, a scalar as a numpy scalar: what the loop evaluator takes."""
        if not isinstance(type_, MemRefType):
            return register_dtype(type_).type(value)
        raw = (ctypes.c_uint8 * buffer_bytes(type_)).from_address(int(value))
        array = np.ctypeslib.as_array(raw).view(storage_dtype(type_))
        return array.reshape(tuple(type_.get_shape()))


class EmulatedKernels:
    """Every kernel of a mapped loop-level module, ready to run on the host
    (module docstring)."""

    def __init__(self, module: ModuleOp, sources: dict[str, str] | None = None):
        kernels = [op for op in module.ops if isinstance(op, KernelOp)]
        globals_ = [op for op in module.ops if isinstance(op, GlobalOp)]
        launches = launches_by_kernel(module)
        distinct = {
            k.sym_name.data: distinct_arguments(k, launches.get(k.sym_name.data, []))
            for k in kernels
        }
        native = [k for k in kernels if not needs_lockstep(k)]
        lockstep = [k for k in kernels if needs_lockstep(k)]
        self.kernels: dict[str, EmulatedKernel] = {}
        if native:
            self.code = HostCode([thread_loops(k) for k in native], globals_, distinct)
            for kernel in native:
                name = kernel.sym_name.data
                self.kernels[name] = NativeKernel(kernel, self.code)
        if lockstep:
            blocks = ModuleOp(
                [*(g.clone() for g in globals_), *(lockstep_block(k) for k in lockstep)]
            )
            self.evaluator = LoopModule(blocks, sources)
            for kernel in lockstep:
                name = kernel.sym_name.data
                routine = self.evaluator.program.routines[name]
                self.kernels[name] = LockstepKernel(kernel, routine)

    def kernel(self, name: str) -> EmulatedKernel:
        found = self.kernels.get(name)
        if found is None:
            known = ", ".join(f"@{k}" for k in sorted(self.kernels)) or "none"
            raise XlirError(
                f"error: the image has no loop.kernel @{name} (kernels: {known})"
            )
        return found
