"""This machine's memory as a device: the `StreamExecutor` and `Platform` of
the targets whose device is the host (the interpreter, the cpu, and a
simulator standing for a chip).

Device memory is bytes: each allocation a 64-byte aligned numpy byte array
(the buffer plan's alignment), holding elements as a device would (bf16 as
its 16 bits, i1 as one byte), so that a part of an allocation (a temp in the
arena) aliases it and a kernel sees typed views of it. Streams keep their
work until `synchronize()`, so events order it as they do on a device.

Three kinds of kernel image load here: `LoopKernels`, the `loop.kernel`s of a
loop-level module, run by the loop evaluator (a grid of several blocks
splits a kernel's outer `loop.parallel` between them, as a GPU's blocks
would); a mapping of names to `HostKernel`s, a target's own (a simulator's);
and a `HostExecutable`, a whole program on host arrays, launched on one
block with its arguments' buffers and then its outputs'.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.syntax import array_values, i64_array
from xlir.evaluator.loop.engine import Routine, Scope
from xlir.evaluator.loop.image import LoopModule
from xlir.evaluator.loop.values import register_dtype, storage_dtype
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    Grid,
    HostExecutable,
    KernelArgument,
    Platform,
    Signature,
    Stream,
    StreamExecutor,
    check_transfer,
)

from xlir.diagnostics import XlirError

ALIGNMENT = 64


def aligned_bytes(size: int) -> np.ndarray:
    """`size` zeroed bytes starting at a 64-byte boundary."""
    raw = np.zeros(size + ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + size]


def typed_view(buffer: DeviceBuffer, dtype: np.dtype, shape: Sequence[int]) -> Any:
    """The bytes of a host-memory buffer as an array of `dtype` and `shape`,
    sharing its memory."""
    nbytes = dtype.itemsize * prod(shape)
    if nbytes != buffer.size_in_bytes:
        raise XlirError(
            f"error: a device buffer of {buffer.size_in_bytes} bytes cannot hold "
            f"{list(shape)} elements of {dtype} ({nbytes} bytes)"
        )
    return buffer.handle.view(dtype).reshape(tuple(shape))


class HostMemoryExecutor(StreamExecutor):
    """See the module docstring."""

    def allocate(self, size_in_bytes: int) -> DeviceBuffer:
        self._count(size_in_bytes)
        return DeviceBuffer(self.ordinal, size_in_bytes, aligned_bytes(size_in_bytes))

    def deallocate(self, buffer: DeviceBuffer) -> None:
        if buffer.owner is not None:
            raise XlirError(
                "error: free of a part of an allocation; free the allocation itself"
            )
        if not buffer.freed:
            self._count(-buffer.size_in_bytes)
            buffer.freed = True
            buffer.handle = None

    def copy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        check_transfer("host to device", buffer, host.nbytes)
        buffer.handle[...] = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
        buffer.shape = tuple(host.shape)

    def copy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        check_transfer("device to host", buffer, host.nbytes)
        host[...] = buffer.handle.view(host.dtype).reshape(host.shape)

    def copy_device_to_device(self, target: DeviceBuffer, source: DeviceBuffer) -> None:
        check_transfer("device to device", source, target.size_in_bytes)
        check_transfer("device to device", target, source.size_in_bytes)
        target.handle[...] = source.handle

    def _sub_handle(self, buffer: DeviceBuffer, offset: int, size: int) -> Any:
        return buffer.handle[offset : offset + size]

    def load_kernel(self, image: Any, name: str) -> HostKernel:
        if isinstance(image, LoopKernels):
            return image.kernel(name)
        if isinstance(image, Mapping):  # a target's own kernels, by name
            if name not in image:
                raise XlirError(_no_kernel(name, "kernel", image))
            return image[name]
        if isinstance(image, HostExecutable):
            if name != image.signature.function:
                raise XlirError(
                    f"error: the executable runs @{image.signature.function}; it "
                    f"has no kernel @{name}"
                )
            return ProgramKernel(name, image.signature, image.run_into)
        raise XlirError(
            f"error: target '{self.platform.name}' loads loop-level kernels "
            f"(Compiler.compile_kernels), kernels by name and host executables, "
            f"not a {type(image).__name__}"
        )

    def _launch(
        self,
        stream: Stream,
        kernel: Any,
        grid: Grid,
        arguments: list[KernelArgument],
    ) -> None:
        stream.enqueue(lambda: kernel.run(grid, arguments))


class HostMemoryPlatform(Platform):
    """The platform of one device whose memory is the host's: a target names
    it and its compiler (a simulator standing for a chip is such a device),
    so that it needs no platform class of its own."""

    def __init__(self, name: str, compiler: Callable[[Platform], Compiler]) -> None:
        super().__init__()
        self.name, self.make_compiler = name, compiler

    def compiler(self) -> Compiler:
        return self.make_compiler(self)

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        return HostMemoryExecutor(self, ordinal)


class HostKernel(ABC):
    """A kernel loaded on a host-memory device."""

    name: str

    @abstractmethod
    def run(self, grid: Grid, arguments: Sequence[KernelArgument]) -> None:
        """Run every block of `grid` on the arguments."""


@dataclass(eq=False)
class ProgramKernel(HostKernel):
    """A whole program on host arrays: one block, its arguments' buffers
    then its outputs'."""

    name: str
    signature: Signature
    fill: Callable[[list[np.ndarray], list[np.ndarray]], None]
    """Run on the argument arrays, writing the output arrays."""

    def run(self, grid: Grid, arguments: Sequence[KernelArgument]) -> None:
        if prod(grid) != 1:
            raise XlirError(
                f"error: @{self.name} is a whole program, which runs on one block; "
                f"launch it on grid (1,), not {grid}"
            )
        specs = [*self.signature.arguments, *self.signature.results]
        if len(arguments) != len(specs):
            raise XlirError(
                f"error: @{self.name} takes {len(self.signature.arguments)} "
                f"argument(s) and {len(self.signature.results)} output(s), but was "
                f"launched with {len(arguments)} buffer(s)"
            )
        arrays = []
        for index, (spec, argument) in enumerate(zip(specs, arguments, strict=True)):
            if not isinstance(argument, DeviceBuffer):
                raise XlirError(
                    f"error: @{self.name}: argument {index} is a scalar; expected "
                    f"a device buffer of {spec.type_text}"
                )
            shape = argument.shape if spec.is_dynamic else spec.shape
            arrays.append(typed_view(argument, spec.dtype, shape))
        count = len(self.signature.arguments)
        self.fill(arrays[:count], arrays[count:])


class LoopKernels:
    """The `loop.kernel`s of a loop-level module, prepared for the loop
    evaluator: what host-memory targets' `Compiler.compile_kernels` makes."""

    def __init__(self, module: ModuleOp, sources: dict[str, str] | None = None):
        self.image = LoopModule(module, sources)
        self.kernels = {
            op.sym_name.data: op for op in module.ops if isinstance(op, KernelOp)
        }

    def kernel(self, name: str) -> LoopKernel:
        op = self.kernels.get(name)
        if op is None:
            raise XlirError(_no_kernel(name, "loop.kernel", self.kernels))
        return LoopKernel(name, op, self.image)


def _no_kernel(name: str, kind: str, kernels: Iterable[str]) -> str:
    known = ", ".join(f"@{k}" for k in sorted(kernels)) or "none"
    return f"error: the image has no {kind} @{name} (kernels: {known})"


@dataclass(eq=False)
class LoopKernel(HostKernel):
    """One `loop.kernel`, run by the loop evaluator on typed views of its
    buffer arguments."""

    name: str
    op: KernelOp
    image: LoopModule
    _blocks: dict[int, list[Routine]] = field(default_factory=dict)

    @property
    def buffer_parameters(self) -> list[bool]:
        """Which parameters are buffers (`launch` checks the arguments)."""
        return [isinstance(t, MemRefType) for t in self.op.argument_types]

    def run(self, grid: Grid, arguments: Sequence[KernelArgument]) -> None:
        types = self.op.argument_types
        values = [_argument_value(a, t) for a, t in zip(arguments, types, strict=True)]
        with np.errstate(all="ignore"):
            for routine in self.block_routines(prod(grid)):
                routine(values)

    def block_routines(self, blocks: int) -> list[Routine]:
        """One routine per block: the whole kernel for one block; for more,
        each block's share of the outer `loop.parallel`'s first dimension
        (compiled once per block count)."""
        if blocks == 1:
            return [self.image.program.routines[self.name]]
        found = self._blocks.get(blocks)
        if found is None:
            found = self._blocks[blocks] = [
                self._compile(share) for share in split_kernel(self.op, blocks)
            ]
        return found

    def _compile(self, kernel: KernelOp) -> Routine:
        program = self.image.program
        routine = Routine(self.name)
        scope = Scope(program, routine)
        block = kernel.body.block
        routine.args = scope.slots_of(block.args)
        routine.body = scope.block(block)
        if program.errors:
            raise XlirError("\n".join(program.errors))
        return routine


def _argument_value(argument: KernelArgument, type_: Attribute) -> Any:
    """A launch argument as the loop evaluator takes it: a buffer as a view of
    its memref type, a scalar as a numpy scalar of its type."""
    if isinstance(argument, DeviceBuffer):
        assert isinstance(type_, MemRefType)
        return typed_view(argument, storage_dtype(type_), type_.get_shape())
    return register_dtype(type_).type(argument)


def split_kernel(kernel: KernelOp, blocks: int) -> list[KernelOp]:
    """Copies of `kernel`, one per block, each running a contiguous share of
    the iterations of its outer `loop.parallel`'s first dimension (the
    shares differ by at most one). The kernel's body must be that one
    `loop.parallel` with constant bounds in its first dimension, beside ops
    that only compute values; otherwise a diagnostic."""
    parallel = _outer_parallel(kernel)
    lower, upper, step = (
        parallel.lower_bounds[0],
        parallel.upper_bounds[0],
        parallel.steps[0],
    )
    assert isinstance(lower, int) and isinstance(upper, int) and isinstance(step, int)
    trips = max(0, -(-(upper - lower) // step))
    position = list(kernel.body.block.ops).index(parallel)
    shares: list[KernelOp] = []
    for block in range(blocks):
        first, last = trips * block // blocks, trips * (block + 1) // blocks
        copy = kernel.clone()
        share = list(copy.body.block.ops)[position]
        assert isinstance(share, ParallelOp)
        _set_first(share, "static_lower", lower + first * step)
        _set_first(share, "static_upper", min(upper, lower + last * step))
        shares.append(copy)
    return shares


def _outer_parallel(kernel: KernelOp) -> ParallelOp:
    parallels = [op for op in kernel.body.block.ops if isinstance(op, ParallelOp)]
    others = [
        op
        for op in kernel.body.block.ops
        if not isinstance(op, ParallelOp) and not _computes_only(op)
    ]
    name = kernel.sym_name.data
    if len(parallels) != 1 or others:
        raise XlirError(
            f"error: @{name} cannot be split between blocks: its body is not one "
            "loop.parallel (launch it on one block)"
        )
    parallel = parallels[0]
    bounds = (parallel.lower_bounds, parallel.upper_bounds, parallel.steps)
    if not bounds[0] or not all(isinstance(b[0], int) for b in bounds):
        raise XlirError(
            f"error: @{name} cannot be split between blocks: its loop.parallel has "
            "no first dimension of constant bounds (launch it on one block)"
        )
    return parallel


def _computes_only(op: Operation) -> bool:
    """Whether an op beside the outer loop only makes values (a constant, a
    view, a global's buffer) or ends the body."""
    return not op.regions and (
        op.name.startswith("arith.")
        or op.name in ("loop.view", "loop.get_global", "loop.reshape", "loop.return")
    )


def _set_first(parallel: ParallelOp, key: str, value: int) -> None:
    """Set the first entry of a static bound list (`static_lower`, ...)."""
    values = list(array_values(getattr(parallel, key)))
    values[0] = value
    parallel.properties[key] = i64_array(values)
