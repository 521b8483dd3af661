"""A compiled CPU program: native code called through ctypes on numpy memory.

Arguments are passed as they are (no copy when they are C-contiguous and of
the right dtype), outputs are fresh arrays (or the caller's, `out=`), and the
temp arena is allocated once per executable and thread (so concurrent calls
from several threads never share one), 64-byte aligned as the plan assumes.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from xlir.targets.base import (
    HostExecutable,
    MemoryStats,
    Platform,
    Signature,
)
from xlir.targets.cpu.llvm_jit import LoadedObject
from xlir.targets.cpu.thread_runtime import load_runtime, needs_runtime

ENTRY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
"""`void entry(void **args, void **results, void *temp)` (lowering/llvm/host.py)."""

ALIGNMENT = 64


def aligned_bytes(size: int) -> np.ndarray:
    """`size` bytes starting at a 64-byte boundary."""
    raw = np.empty(size + ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + size]


class CpuExecutable(HostExecutable):
    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        objects: Sequence[bytes],
        temp_bytes: int,
        stats: MemoryStats,
        llvm_ir: str,
    ):
        super().__init__(platform, signature)
        self.objects = tuple(objects)
        """The object files, one per part of parallel code generation (what
        the compilation cache stores)."""
        self.temp_bytes = temp_bytes
        self.llvm_ir = llvm_ir
        """The LLVM IR before optimization (each part's)."""
        self._stats = replace(
            stats, generated_code_size_in_bytes=sum(map(len, self.objects))
        )
        if needs_runtime(self.objects):
            load_runtime()
        self._object = LoadedObject(self.objects)
        self._entry = ENTRY(self._object.address(signature.function))
        self._local = threading.local()

    def _arena(self) -> np.ndarray:
        arena = getattr(self._local, "arena", None)
        if arena is None:
            arena = aligned_bytes(max(self.temp_bytes, 1))
            self._local.arena = arena
        return arena

    def run(
        self, arrays: Sequence[np.ndarray], out: Sequence[np.ndarray] | None = None
    ) -> list[np.ndarray]:
        """Run on checked host arrays, writing into `out` when given."""
        inputs = [np.ascontiguousarray(a) for a in arrays]
        outputs = (
            list(out)
            if out is not None
            else [np.empty(r.shape, dtype=r.dtype) for r in self.signature.results]
        )
        args = (ctypes.c_void_p * max(len(inputs), 1))(*[a.ctypes.data for a in inputs])
        results = (ctypes.c_void_p * max(len(outputs), 1))(
            *[o.ctypes.data for o in outputs]
        )
        self._entry(
            ctypes.addressof(args), ctypes.addressof(results), self._arena().ctypes.data
        )
        return outputs

    def __call__(self, *arrays: Any, out: Sequence[np.ndarray] | None = None):
        checked = self.signature.check_arguments(arrays)
        if out is not None:
            _check_out(self.signature, out, checked)
        results = self.run(checked, out)
        return results[0] if len(results) == 1 else tuple(results)

    def memory_stats(self) -> MemoryStats:
        """The buffer plan's figures and the object code's size."""
        return self._stats

    def as_text(self) -> str:
        """The LLVM IR before optimization (a cache hit's too: the entry keeps it)."""
        return self.llvm_ir


def _check_out(
    signature: Signature, out: Sequence[np.ndarray], arguments: Sequence[np.ndarray]
) -> None:
    """Shapes and types as the signature says, and no output sharing memory
    with an argument or another output: the code reads arguments while it
    writes results, and tells LLVM that distinct buffers never overlap
    (lowering/kernel_aliasing.py)."""
    if len(out) != len(signature.results):
        raise ValueError(
            f"out: @{signature.function} has {len(signature.results)} result(s), "
            f"but {len(out)} arrays were given"
        )
    for spec, array in zip(signature.results, out, strict=True):
        if (
            not isinstance(array, np.ndarray)
            or array.dtype != spec.dtype
            or tuple(array.shape) != spec.shape
            or not array.flags.c_contiguous
            or not array.flags.writeable
        ):
            raise ValueError(
                f"out: {spec.name} must be a writable C-contiguous "
                f"{spec.dtype} array of shape {list(spec.shape)} ({spec.type_text})"
            )
    others = [
        (f"argument {spec.name}", array)
        for spec, array in zip(signature.arguments, arguments, strict=True)
    ]
    for spec, array in zip(signature.results, out, strict=True):
        for name, other in others:
            if np.may_share_memory(array, other):
                raise ValueError(
                    f"out: {spec.name} shares memory with {name}; "
                    "outputs must be arrays of their own"
                )
        others.append((f"out {spec.name}", array))
