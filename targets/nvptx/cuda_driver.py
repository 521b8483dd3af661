"""The CUDA driver API through ctypes: what the nvptx runtime calls, and
nothing else (no CUDA toolkit, no Python package: `libcuda.so.1` comes with
the NVIDIA driver).

`load_driver()` opens the library and runs `cuInit`; where either fails it
says why in words (a machine without a GPU is the common case, not an
error). Every call's status is checked: a failure is an XlirError naming the
call and CUDA's name for the error.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

from xlir.diagnostics import XlirError

LIBRARY = "libcuda.so.1"

JIT_ERROR_LOG_BUFFER = 5
JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
"""`CUjit_option`s: where the driver's PTX compiler writes its errors."""

LOG_BYTES = 16384

SCALAR_TYPES = {
    "i1": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}
"""The ctypes type a scalar kernel parameter of an LLVM type is passed as."""


class CudaDriver:
    """Checked calls into an initialized `libcuda` (module docstring)."""

    def __init__(self, library: ctypes.CDLL):
        self.library = library

    def call(self, name: str, *arguments: object) -> None:
        status = getattr(self.library, name)(*arguments)
        if status != 0:
            raise XlirError(
                f"error: CUDA driver call {name} failed: {self.error(status)}"
            )

    def error(self, status: int) -> str:
        text = ctypes.c_char_p()
        self.library.cuGetErrorName(status, ctypes.byref(text))
        return (text.value or b"").decode() or f"error {status}"

    def device_count(self) -> int:
        count = ctypes.c_int()
        self.call("cuDeviceGetCount", ctypes.byref(count))
        return count.value

    def device_name(self, ordinal: int) -> str:
        name = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", name, 256, self.device(ordinal))
        return name.value.decode()

    def device(self, ordinal: int) -> ctypes.c_int:
        device = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(device), ordinal)
        return device

    def primary_context(self, ordinal: int) -> ctypes.c_void_p:
        """The device's primary context, made current on this thread."""
        context = ctypes.c_void_p()
        self.call(
            "cuDevicePrimaryCtxRetain", ctypes.byref(context), self.device(ordinal)
        )
        self.call("cuCtxSetCurrent", context)
        return context

    def allocate(self, size: int) -> int:
        pointer = ctypes.c_uint64()
        self.call("cuMemAlloc_v2", ctypes.byref(pointer), ctypes.c_size_t(max(size, 1)))
        return pointer.value

    def free(self, pointer: int) -> None:
        self.call("cuMemFree_v2", ctypes.c_uint64(pointer))

    def memory_info(self) -> tuple[int, int]:
        """(free, total) bytes of the current context's device."""
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self.call("cuMemGetInfo_v2", ctypes.byref(free), ctypes.byref(total))
        return free.value, total.value

    def copy_to_device(self, pointer: int, host: int, size: int) -> None:
        self.call(
            "cuMemcpyHtoD_v2",
            ctypes.c_uint64(pointer),
            ctypes.c_void_p(host),
            ctypes.c_size_t(size),
        )

    def copy_to_host(self, host: int, pointer: int, size: int) -> None:
        self.call(
            "cuMemcpyDtoH_v2",
            ctypes.c_void_p(host),
            ctypes.c_uint64(pointer),
            ctypes.c_size_t(size),
        )

    def copy_on_device(self, target: int, source: int, size: int) -> None:
        self.call(
            "cuMemcpyDtoD_v2",
            ctypes.c_uint64(target),
            ctypes.c_uint64(source),
            ctypes.c_size_t(size),
        )

    def load_module(self, image: bytes) -> ctypes.c_void_p:
        """A module of PTX (NUL-terminated) or a cubin; the driver's JIT
        errors are in the diagnostic where it fails."""
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(LOG_BYTES)
        options = (ctypes.c_int * 2)(
            JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES
        )
        values = (ctypes.c_void_p * 2)(
            ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(LOG_BYTES)
        )
        status = self.library.cuModuleLoadDataEx(
            ctypes.byref(module), ctypes.c_char_p(image), 2, options, values
        )
        if status != 0:
            raise XlirError(
                f"error: the CUDA driver cannot load the kernels ({self.error(status)}):\n"
                + log.value.decode(errors="replace")
            )
        return module

    def function(self, module: ctypes.c_void_p, name: str) -> ctypes.c_void_p:
        function = ctypes.c_void_p()
        self.call("cuModuleGetFunction", ctypes.byref(function), module, name.encode())
        return function

    def launch(
        self,
        function: ctypes.c_void_p,
        blocks: int,
        threads: int,
        shared_bytes: int,
        stream: ctypes.c_void_p | None,
        arguments: Sequence[tuple[str, object]],
    ) -> None:
        """`cuLaunchKernel` on a one-dimensional grid; `arguments` are
        (parameter kind, value): "ptr" with a device address, or a scalar's
        LLVM type with its value."""
        values = [
            ctypes.c_uint64(int(value)) if kind == "ptr" else SCALAR_TYPES[kind](value)  # pyright: ignore[reportArgumentType]
            for kind, value in arguments
        ]
        pointers = (ctypes.c_void_p * max(len(values), 1))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values]
        )
        self.call(
            "cuLaunchKernel",
            function,
            blocks,
            1,
            1,
            threads,
            1,
            1,
            shared_bytes,
            stream,
            pointers,
            None,
        )

    def create_stream(self) -> ctypes.c_void_p:
        stream = ctypes.c_void_p()
        self.call("cuStreamCreate", ctypes.byref(stream), 0)
        return stream

    def synchronize(self, stream: ctypes.c_void_p | None) -> None:
        self.call("cuStreamSynchronize", stream)

    def destroy_stream(self, stream: ctypes.c_void_p) -> None:
        self.call("cuStreamDestroy_v2", stream)

    def create_event(self) -> ctypes.c_void_p:
        event = ctypes.c_void_p()
        self.call("cuEventCreate", ctypes.byref(event), 0)
        return event

    def record_event(
        self, event: ctypes.c_void_p, stream: ctypes.c_void_p | None
    ) -> None:
        self.call("cuEventRecord", event, stream)

    def elapsed_ms(self, start: ctypes.c_void_p, end: ctypes.c_void_p) -> float:
        """Milliseconds between two recorded events (waits for the second)."""
        self.call("cuEventSynchronize", end)
        elapsed = ctypes.c_float()
        self.call("cuEventElapsedTime", ctypes.byref(elapsed), start, end)
        return elapsed.value


def load_driver() -> tuple[CudaDriver | None, str]:
    """The initialized driver, or None and why there is none."""
    try:
        library = ctypes.CDLL(LIBRARY)
    except OSError as error:
        return None, (
            f"{LIBRARY} cannot be loaded ({error}): this machine has no NVIDIA "
            "driver, so no GPU to run on (compiling to PTX works without one)"
        )
    driver = CudaDriver(library)
    status = library.cuInit(0)
    if status != 0:
        return (
            None,
            f"cuInit failed ({driver.error(status)}): the NVIDIA driver found no usable GPU",
        )
    return driver, ""
