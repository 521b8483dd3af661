"""A stand-in for libcuda.so.1 on a machine without a GPU, for rehearsing
the GPU run: every function of `cuda.SIGNATURES` is a C callback of the
same signature (so the `Driver` marshals its arguments as it does for the
real library), device memory is host memory (each allocation a numpy byte
array whose address is the device pointer, filled with 0xff as fresh GPU
memory holds anything), and a launch runs the kernel on the host by a
`FakeKernel` that the caller provides by name (xlir's nvptx-emu kernels,
compiled from the same program).

It checks what a driver would refuse or what would crash a GPU: a copy or
a kernel pointer outside every live allocation, a PTX module without its
header, a kernel the module does not hold, a launch whose parameters differ
from the PTX entry's.
"""

from __future__ import annotations

import ctypes
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from gpucheck.cuda import SCALAR_TYPES, SIGNATURES

CUDA_ERROR_INVALID_VALUE = 1
CUDA_ERROR_INVALID_IMAGE = 200
CUDA_ERROR_INVALID_PTX = 218
CUDA_ERROR_NOT_FOUND = 500
CUDA_ERROR_ILLEGAL_ADDRESS = 700
CUDA_ERROR_LAUNCH_FAILED = 719

ERROR_NAMES = {
    0: "CUDA_SUCCESS",
    CUDA_ERROR_INVALID_VALUE: "CUDA_ERROR_INVALID_VALUE",
    CUDA_ERROR_INVALID_IMAGE: "CUDA_ERROR_INVALID_IMAGE",
    CUDA_ERROR_INVALID_PTX: "CUDA_ERROR_INVALID_PTX",
    CUDA_ERROR_NOT_FOUND: "CUDA_ERROR_NOT_FOUND",
    CUDA_ERROR_ILLEGAL_ADDRESS: "CUDA_ERROR_ILLEGAL_ADDRESS",
    CUDA_ERROR_LAUNCH_FAILED: "CUDA_ERROR_LAUNCH_FAILED",
}

PTX_PARAMETER_TYPES = {
    "u64": "ptr",
    "b64": "i64",
    "s64": "i64",
    "u32": "i32",
    "s32": "i32",
    "b32": "i32",
    "f32": "f32",
    "f64": "f64",
    "u8": "i8",
    "s8": "i8",
    "u16": "i16",
    "s16": "i16",
}
"""A PTX parameter's type -> the parameter kind a launch passes (a pointer
is a .u64)."""


class FakeKernel(Protocol):
    """A kernel the fake runs on the host."""

    params: Sequence[str]
    """Its parameters' kinds: "ptr" for a buffer, else a scalar type."""

    def run_raw(
        self,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        shared_bytes: int,
        values: Sequence[int | float],
    ) -> None:
        """Run every block of `grid` on `values` (device pointers are host
        addresses)."""


class _Failure(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class _Module:
    entries: dict[str, list[str]] | None
    """PTX entry -> its parameter kinds; None for a cubin (not parsed)."""


@dataclass
class FakeCuda:
    """See the module docstring. `kernels(name)` gives the host version of
    a kernel (KeyError: there is none)."""

    kernels: Callable[[str], FakeKernel]
    memory: dict[int, np.ndarray] = field(default_factory=dict)
    modules: dict[int, _Module] = field(default_factory=dict)
    functions: dict[int, tuple[str, FakeKernel, list[str] | None]] = field(
        default_factory=dict
    )
    events: dict[int, float] = field(default_factory=dict)
    launches: int = 0
    resets: int = 0
    messages: dict[int, bytes] = field(default_factory=dict)
    _keep: list[Any] = field(default_factory=list)
    _next: int = 1

    def library(self) -> Any:
        """An object with one C callback per driver function, as the
        `Driver` calls a loaded libcuda.so.1."""

        class Library:
            pass

        library = Library()
        for name, argtypes in SIGNATURES.items():
            implementation = getattr(self, "_" + name)
            callback = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(
                self._guarded(implementation)
            )
            self._keep.append(callback)
            setattr(library, name, callback)
        return library

    def _guarded(self, implementation: Callable[..., int | None]) -> Callable[..., int]:
        """A callback returns a CUresult: an exception must not escape into C."""

        def call(*arguments: Any) -> int:
            try:
                return implementation(*arguments) or 0
            except _Failure as failure:
                self.messages[failure.code] = str(failure).encode()
                return failure.code
            except Exception as error:  # a kernel failed on the host
                self.messages[CUDA_ERROR_LAUNCH_FAILED] = (
                    f"{type(error).__name__}: {error}".encode()
                )
                return CUDA_ERROR_LAUNCH_FAILED

        return call

    def _handle(self) -> int:
        self._next += 1
        return self._next

    # --- device and context ---------------------------------------------------

    def _cuInit(self, flags: int) -> None:
        return None

    def _cuDriverGetVersion(self, version: Any) -> None:
        version[0] = 0

    def _cuDeviceGetCount(self, count: Any) -> None:
        count[0] = 1

    def _cuDeviceGet(self, device: Any, ordinal: int) -> None:
        if ordinal != 0:
            raise _Failure(CUDA_ERROR_INVALID_VALUE, f"no device {ordinal}")
        device[0] = 0

    def _cuDeviceGetName(self, name: Any, length: int, device: int) -> None:
        text = b"fake CUDA device (host memory, nvptx-emu kernels)"[: length - 1]
        ctypes.memmove(name, text + b"\0", len(text) + 1)

    def _cuDeviceGetAttribute(self, value: Any, attribute: int, device: int) -> None:
        value[0] = {75: 8, 76: 0}.get(attribute, 0)

    def _cuDevicePrimaryCtxRetain(self, context: Any, device: int) -> None:
        context[0] = 1

    def _cuDevicePrimaryCtxRelease_v2(self, device: int) -> None:
        return None

    def _cuDevicePrimaryCtxReset_v2(self, device: int) -> None:
        self.memory.clear()
        self.modules.clear()
        self.functions.clear()
        self.resets += 1

    def _cuCtxSetCurrent(self, context: int | None) -> None:
        return None

    def _cuCtxSynchronize(self) -> None:
        return None

    # --- memory ---------------------------------------------------------------

    def _cuMemAlloc_v2(self, pointer: Any, size: int) -> None:
        raw = np.full(size + 256, 0xFF, dtype=np.uint8)
        start = -raw.ctypes.data % 256
        block = raw[start : start + size]
        self.memory[block.ctypes.data] = block
        pointer[0] = block.ctypes.data

    def _cuMemFree_v2(self, pointer: int) -> None:
        if self.memory.pop(pointer, None) is None:
            raise _Failure(
                CUDA_ERROR_INVALID_VALUE, f"free of {pointer:#x}: not allocated"
            )

    def check_range(self, pointer: int, size: int, what: str) -> None:
        """[pointer, pointer + size) must lie in one live allocation."""
        for base, block in self.memory.items():
            if base <= pointer and pointer + size <= base + block.size:
                return
        raise _Failure(
            CUDA_ERROR_ILLEGAL_ADDRESS,
            f"{what}: bytes [{pointer:#x}, +{size}) lie outside every allocation",
        )

    def _cuMemcpyHtoD_v2(self, target: int, source: int, size: int) -> None:
        self.check_range(target, size, "cuMemcpyHtoD")
        ctypes.memmove(target, source, size)

    def _cuMemcpyDtoH_v2(self, target: int, source: int, size: int) -> None:
        self.check_range(source, size, "cuMemcpyDtoH")
        ctypes.memmove(target, source, size)

    def _cuMemcpyDtoD_v2(self, target: int, source: int, size: int) -> None:
        self.check_range(source, size, "cuMemcpyDtoD source")
        self.check_range(target, size, "cuMemcpyDtoD target")
        ctypes.memmove(target, source, size)

    def _cuMemcpyDtoDAsync_v2(
        self, target: int, source: int, size: int, stream: int | None
    ) -> None:
        self._cuMemcpyDtoD_v2(target, source, size)

    def _cuMemsetD8_v2(self, pointer: int, value: int, size: int) -> None:
        self.check_range(pointer, size, "cuMemsetD8")
        ctypes.memset(pointer, value, size)

    # --- modules --------------------------------------------------------------

    def _cuModuleLoadDataEx(
        self, module: Any, image: int, count: int, options: Any, values: Any
    ) -> None:
        settings = {options[i]: values[i] for i in range(count)}
        head = ctypes.string_at(image, 4)
        try:
            entries = (
                None if head == b"\x7fELF" else _ptx_entries(ctypes.string_at(image))
            )
        except _Failure as failure:
            log, size = settings.get(5), settings.get(6)
            if log and size:
                text = str(failure).encode()[: size - 1]
                ctypes.memmove(log, text + b"\0", len(text) + 1)
            raise
        handle = self._handle()
        self.modules[handle] = _Module(entries)
        module[0] = handle

    def _cuModuleUnload(self, module: int) -> None:
        self.modules.pop(module, None)

    def _cuModuleGetFunction(self, function: Any, module: int, name: bytes) -> None:
        loaded = self.modules.get(module)
        text = name.decode()
        if loaded is None:
            raise _Failure(CUDA_ERROR_INVALID_VALUE, "no such module")
        if loaded.entries is not None and text not in loaded.entries:
            raise _Failure(CUDA_ERROR_NOT_FOUND, f"the PTX has no .entry {text}")
        try:
            kernel = self.kernels(text)
        except KeyError:
            raise _Failure(CUDA_ERROR_NOT_FOUND, f"no host version of {text}") from None
        declared = loaded.entries[text] if loaded.entries is not None else None
        if declared is not None and _sizes(declared) != _sizes(kernel.params):
            raise _Failure(
                CUDA_ERROR_INVALID_IMAGE,
                f"{text}: the PTX entry takes {declared}, its host version "
                f"{list(kernel.params)}",
            )
        handle = self._handle()
        self.functions[handle] = (text, kernel, declared)
        function[0] = handle

    def _cuFuncGetAttribute(self, value: Any, attribute: int, function: int) -> None:
        value[0] = 0

    def _cuLaunchKernel(
        self,
        function: int,
        gx: int,
        gy: int,
        gz: int,
        bx: int,
        by: int,
        bz: int,
        shared: int,
        stream: int | None,
        parameters: Any,
        extra: Any,
    ) -> None:
        name, kernel, _ = self.functions[function]
        if bx * by * bz > 1024 or min(gx, gy, gz, bx, by, bz) < 1:
            raise _Failure(
                CUDA_ERROR_INVALID_VALUE,
                f"{name}: launch of grid ({gx}, {gy}, {gz}) x block ({bx}, {by}, {bz})",
            )
        values: list[int | float] = []
        for index, kind in enumerate(kernel.params):
            c_type = SCALAR_TYPES[kind]
            value = ctypes.cast(parameters[index], ctypes.POINTER(c_type))[0]
            if kind == "ptr":
                self.check_range(value, 1, f"{name} parameter {index}")
            values.append(value)
        self.launches += 1
        kernel.run_raw((gx, gy, gz), (bx, by, bz), shared, values)

    # --- events and errors ----------------------------------------------------

    def _cuEventCreate(self, event: Any, flags: int) -> None:
        handle = self._handle()
        self.events[handle] = 0.0
        event[0] = handle

    def _cuEventRecord(self, event: int, stream: int | None) -> None:
        self.events[event] = time.perf_counter()

    def _cuEventSynchronize(self, event: int) -> None:
        return None

    def _cuEventElapsedTime(self, milliseconds: Any, start: int, end: int) -> None:
        milliseconds[0] = (self.events[end] - self.events[start]) * 1e3

    def _cuEventDestroy_v2(self, event: int) -> None:
        self.events.pop(event, None)

    def _text(self, text: bytes) -> bytes:
        kept = ctypes.c_char_p(text)
        self._keep.append(kept)
        return text

    def _cuGetErrorName(self, result: int, text: Any) -> None:
        name = ERROR_NAMES.get(result, f"CUDA_ERROR_{result}").encode()
        text[0] = self._text(name)

    def _cuGetErrorString(self, result: int, text: Any) -> None:
        text[0] = self._text(self.messages.get(result, b"(fake driver)"))


def _sizes(kinds: Sequence[str]) -> list[int]:
    """The bytes of each parameter (a PTX .u64 may be a pointer or an i64)."""
    return [ctypes.sizeof(SCALAR_TYPES.get(kind, ctypes.c_int64)) for kind in kinds]


ENTRY = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)", re.S)
PARAMETER = re.compile(r"\.param\s+\.(\w+)")


def _ptx_entries(text: bytes) -> dict[str, list[str]]:
    """The `.entry` kernels of a PTX module and their parameter kinds, or a
    `_Failure` as the JIT gives for a text that is not a PTX module."""
    ptx = text.decode(errors="replace")
    for directive in (".version", ".target", ".address_size"):
        if directive not in ptx:
            raise _Failure(
                CUDA_ERROR_INVALID_PTX, f"ptxas fatal: the module has no {directive}"
            )
    if ptx.count("{") != ptx.count("}"):
        raise _Failure(CUDA_ERROR_INVALID_PTX, "ptxas fatal: unbalanced braces")
    entries: dict[str, list[str]] = {}
    for match in ENTRY.finditer(ptx):
        kinds = [
            PTX_PARAMETER_TYPES.get(kind, kind)
            for kind in PARAMETER.findall(match.group(2))
        ]
        entries[match.group(1)] = kinds
    return entries
