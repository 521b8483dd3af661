"""The CUDA driver API through ctypes: the few calls a manifest's host
schedule needs (memory, copies, module load with the JIT's logs, launch,
events), each checked, an error naming the call and the driver's message.

`Driver` calls its library through a table of C signatures (`SIGNATURES`):
the real `libcuda.so.1` gets them as `argtypes`, and a fake
(`fake_cuda.FakeCuda`) is made of C callbacks of the same signatures, so a
rehearsal marshals every argument as the real run does.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from ctypes import (
    POINTER,
    c_char_p,
    c_float,
    c_int,
    c_size_t,
    c_ubyte,
    c_uint,
    c_uint64,
    c_void_p,
)
from dataclasses import dataclass
from typing import Any

import numpy as np

CUdeviceptr = c_uint64
VOIDP_P = POINTER(c_void_p)

SIGNATURES: dict[str, tuple[Any, ...]] = {
    "cuInit": (c_uint,),
    "cuDriverGetVersion": (POINTER(c_int),),
    "cuDeviceGetCount": (POINTER(c_int),),
    "cuDeviceGet": (POINTER(c_int), c_int),
    "cuDeviceGetName": (c_void_p, c_int, c_int),
    "cuDeviceGetAttribute": (POINTER(c_int), c_int, c_int),
    "cuDevicePrimaryCtxRetain": (VOIDP_P, c_int),
    "cuDevicePrimaryCtxRelease_v2": (c_int,),
    "cuDevicePrimaryCtxReset_v2": (c_int,),
    "cuCtxSetCurrent": (c_void_p,),
    "cuCtxSynchronize": (),
    "cuMemAlloc_v2": (POINTER(CUdeviceptr), c_size_t),
    "cuMemFree_v2": (CUdeviceptr,),
    "cuMemcpyHtoD_v2": (CUdeviceptr, c_void_p, c_size_t),
    "cuMemcpyDtoH_v2": (c_void_p, CUdeviceptr, c_size_t),
    "cuMemcpyDtoD_v2": (CUdeviceptr, CUdeviceptr, c_size_t),
    "cuMemcpyDtoDAsync_v2": (CUdeviceptr, CUdeviceptr, c_size_t, c_void_p),
    "cuMemsetD8_v2": (CUdeviceptr, c_ubyte, c_size_t),
    "cuModuleLoadDataEx": (VOIDP_P, c_void_p, c_uint, POINTER(c_int), VOIDP_P),
    "cuModuleGetFunction": (VOIDP_P, c_void_p, c_char_p),
    "cuModuleUnload": (c_void_p,),
    "cuFuncGetAttribute": (POINTER(c_int), c_int, c_void_p),
    "cuLaunchKernel": (
        c_void_p,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_void_p,
        VOIDP_P,
        VOIDP_P,
    ),
    "cuEventCreate": (VOIDP_P, c_uint),
    "cuEventRecord": (c_void_p, c_void_p),
    "cuEventSynchronize": (c_void_p,),
    "cuEventElapsedTime": (POINTER(c_float), c_void_p, c_void_p),
    "cuEventDestroy_v2": (c_void_p,),
    "cuGetErrorName": (c_int, POINTER(c_char_p)),
    "cuGetErrorString": (c_int, POINTER(c_char_p)),
}
"""Each driver function used: its argument types (all return CUresult)."""

CU_JIT_INFO_LOG_BUFFER = 3
CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
CU_JIT_LOG_VERBOSE = 12
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
LOG_BYTES = 1 << 16

SCALAR_TYPES: dict[str, Any] = {
    "ptr": c_uint64,
    "i1": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "index": ctypes.c_int64,
    "f32": c_float,
    "f64": ctypes.c_double,
}
"""A kernel parameter's type (the manifest's names) -> its C type."""


class CudaError(Exception):
    """A driver call failed: which call, the CUresult, the driver's words
    (and, for a module load, the JIT's log)."""


class NoDriver(Exception):
    """No CUDA driver on this machine (libcuda.so.1 missing, or cuInit
    failed): a reason, not a failure of a program."""


def load_library() -> Any:
    """libcuda.so.1 with `SIGNATURES` set, or `NoDriver` saying why not."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError as error:
        raise NoDriver(
            f"libcuda.so.1 cannot be loaded ({error}): this machine has no NVIDIA "
            "driver; run this on the GPU machine (or rehearse: run --fake)"
        ) from None
    for name, argtypes in SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = c_int
    return lib


@dataclass(frozen=True)
class Module:
    handle: int
    log: str
    """The JIT's information log (empty for a cubin)."""


@dataclass(frozen=True)
class Event:
    handle: int


class Driver:
    """One device's primary context and the calls a schedule makes."""

    def __init__(self, lib: Any, ordinal: int = 0):
        self.lib = lib
        try:
            self.call("cuInit", 0)
        except CudaError as error:
            raise NoDriver(f"cuInit failed: {error}") from None
        count = c_int()
        self.call("cuDeviceGetCount", ctypes.pointer(count))
        if count.value <= ordinal:
            raise NoDriver(
                f"the driver sees {count.value} device(s); no device {ordinal}"
            )
        device = c_int()
        self.call("cuDeviceGet", ctypes.pointer(device), ordinal)
        self.device = device.value
        self.use_primary_context()

    def use_primary_context(self) -> None:
        context = c_void_p()
        self.call("cuDevicePrimaryCtxRetain", ctypes.pointer(context), self.device)
        self.call("cuCtxSetCurrent", context)

    def reset(self) -> None:
        """A new primary context after a failure that left the old one
        unusable (an illegal address, a failed launch: CUDA's errors stick
        to the context); every allocation and module of the old one is gone."""
        self.call("cuDevicePrimaryCtxReset_v2", self.device)
        self.use_primary_context()

    # --- calls ----------------------------------------------------------------

    def call(self, name: str, *arguments: Any) -> None:
        result = getattr(self.lib, name)(*arguments)
        if result != 0:
            raise CudaError(f"{name} failed: {self.error_text(result)}")

    def error_text(self, result: int) -> str:
        name, text = c_char_p(), c_char_p()
        self.lib.cuGetErrorName(result, ctypes.pointer(name))
        self.lib.cuGetErrorString(result, ctypes.pointer(text))
        spelled = (name.value or b"CUDA_ERROR_?").decode()
        return f"{spelled} ({result}): {(text.value or b'').decode()}"

    def describe(self) -> dict[str, Any]:
        """The device's name, compute capability and the driver's version."""
        name = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", name, 256, self.device)
        major, minor, version = c_int(), c_int(), c_int()
        self.call(
            "cuDeviceGetAttribute",
            ctypes.pointer(major),
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            self.device,
        )
        self.call(
            "cuDeviceGetAttribute",
            ctypes.pointer(minor),
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            self.device,
        )
        self.call("cuDriverGetVersion", ctypes.pointer(version))
        return {
            "name": name.value.decode(),
            "compute_capability": f"{major.value}.{minor.value}",
            "driver_version": version.value,
        }

    # --- memory ---------------------------------------------------------------

    def allocate(self, size: int) -> int:
        pointer = CUdeviceptr()
        self.call("cuMemAlloc_v2", ctypes.pointer(pointer), max(size, 1))
        return pointer.value

    def free(self, pointer: int) -> None:
        self.call("cuMemFree_v2", pointer)

    def zero(self, pointer: int, size: int) -> None:
        if size:
            self.call("cuMemsetD8_v2", pointer, 0, size)

    def to_device(self, pointer: int, host: np.ndarray) -> None:
        data = np.ascontiguousarray(host)
        if data.nbytes:
            self.call("cuMemcpyHtoD_v2", pointer, data.ctypes.data, data.nbytes)

    def to_host(self, host: np.ndarray, pointer: int) -> None:
        assert host.flags.c_contiguous
        if host.nbytes:
            self.call("cuMemcpyDtoH_v2", host.ctypes.data, pointer, host.nbytes)

    def copy(self, target: int, source: int, size: int, stream: int = 0) -> None:
        """Device to device, in the order of the (default) stream."""
        if size:
            self.call("cuMemcpyDtoDAsync_v2", target, source, size, stream or None)

    def synchronize(self) -> None:
        self.call("cuCtxSynchronize")

    # --- modules and launches -------------------------------------------------

    def load_module(self, image: bytes) -> Module:
        """A PTX text (JIT-compiled by the driver for this device) or a cubin;
        a `CudaError` holding the JIT's error log where it fails."""
        info = ctypes.create_string_buffer(LOG_BYTES)
        error = ctypes.create_string_buffer(LOG_BYTES)
        options = (c_int * 5)(
            CU_JIT_INFO_LOG_BUFFER,
            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            CU_JIT_ERROR_LOG_BUFFER,
            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            CU_JIT_LOG_VERBOSE,
        )
        values = (c_void_p * 5)(
            ctypes.addressof(info), LOG_BYTES, ctypes.addressof(error), LOG_BYTES, 1
        )
        data = image if image.startswith(b"\x7fELF") else image.rstrip(b"\0") + b"\0"
        buffer = ctypes.create_string_buffer(data, len(data))
        module = c_void_p()
        result = self.lib.cuModuleLoadDataEx(
            ctypes.pointer(module), buffer, 5, options, values
        )
        if result != 0:
            log = error.value.decode(errors="replace").strip()
            raise CudaError(
                f"cuModuleLoadDataEx failed: {self.error_text(result)}\n"
                f"JIT error log:\n{log or '(empty)'}"
            )
        return Module(module.value or 0, info.value.decode(errors="replace").strip())

    def unload(self, module: Module) -> None:
        self.call("cuModuleUnload", module.handle)

    def function(self, module: Module, name: str) -> int:
        handle = c_void_p()
        self.call(
            "cuModuleGetFunction", ctypes.pointer(handle), module.handle, name.encode()
        )
        return handle.value or 0

    def function_attributes(self, function: int) -> dict[str, int]:
        """Registers per thread and local (spill) bytes of a loaded kernel."""
        registers, local = c_int(), c_int()
        self.call(
            "cuFuncGetAttribute",
            ctypes.pointer(registers),
            CU_FUNC_ATTRIBUTE_NUM_REGS,
            function,
        )
        self.call(
            "cuFuncGetAttribute",
            ctypes.pointer(local),
            CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
            function,
        )
        return {"registers": registers.value, "local_bytes": local.value}

    def launch(
        self,
        function: int,
        grid: Sequence[int],
        block: Sequence[int],
        shared_bytes: int,
        parameters: Sequence[tuple[str, int | float]],
    ) -> None:
        """Enqueue a launch on the default stream; `parameters` are (type,
        value) pairs, a device pointer's type being "ptr"."""
        values = [SCALAR_TYPES[kind](value) for kind, value in parameters]
        pointers = (c_void_p * max(1, len(values)))(
            *[ctypes.addressof(v) for v in values]
        )
        gx, gy, gz = (*grid, 1, 1)[:3]
        bx, by, bz = (*block, 1, 1)[:3]
        self.call(
            "cuLaunchKernel",
            function,
            gx,
            gy,
            gz,
            bx,
            by,
            bz,
            shared_bytes,
            None,
            pointers,
            None,
        )

    # --- events ---------------------------------------------------------------

    def event(self) -> Event:
        handle = c_void_p()
        self.call("cuEventCreate", ctypes.pointer(handle), 0)
        return Event(handle.value or 0)

    def record(self, event: Event) -> None:
        self.call("cuEventRecord", event.handle, None)

    def elapsed_ms(self, start: Event, end: Event) -> float:
        """Milliseconds between two recorded events, once `end` is done."""
        self.call("cuEventSynchronize", end.handle)
        milliseconds = c_float()
        self.call(
            "cuEventElapsedTime", ctypes.pointer(milliseconds), start.handle, end.handle
        )
        return float(milliseconds.value)

    def destroy(self, event: Event) -> None:
        self.call("cuEventDestroy_v2", event.handle)


def timed(
    driver: Driver, work: Callable[[], None], repeats: int, warmup: int
) -> list[float]:
    """`work`'s times in milliseconds by CUDA events, `repeats` times after
    `warmup` untimed runs."""
    for _ in range(warmup):
        work()
    driver.synchronize()
    start, end = driver.event(), driver.event()
    times = []
    try:
        for _ in range(repeats):
            driver.record(start)
            work()
            driver.record(end)
            times.append(driver.elapsed_ms(start, end))
    finally:
        driver.destroy(start)
        driver.destroy(end)
    return times
