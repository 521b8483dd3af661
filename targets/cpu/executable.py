"""A compiled CPU program: native code called through ctypes on numpy memory.

Arguments are passed as they are (no copy when they are C-contiguous and of
the right dtype), outputs are fresh arrays (or the caller's, `out=`), and the
temp arena (the plan's, with the launches' scratch: `scratch-in-arena`) is
allocated once per executable and thread (so concurrent calls from several
threads never share one, no call allocates it, and it goes with the
executable), 64-byte aligned as the plan assumes.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.collective_step import CollectiveStep
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.base import DeviceClock, HostExecutable, Platform, TimedCall
from xlir.targets.collective_steps import communicator_for
from xlir.targets.cpu.collective_calls import (
    calling,
    load_collectives,
    needs_collectives,
)
from xlir.targets.cpu.gemm_runtime import load_called_gemms
from xlir.targets.cpu.launch_timers import (
    HOST_CLOCK,
    LaunchSite,
    load_launch_timers,
    needs_launch_timers,
    timed_call,
)
from xlir.targets.cpu.sort_routine import load_sort_routines, needs_sort_routines
from xlir.targets.cpu.thread_runtime import (
    load_runtime,
    load_support,
    needs_runtime,
    needs_support,
)
from xlir.targets.host_memory import aligned_bytes

from xlir.signature import MemoryStats, Signature

ONE_DEVICE = Grid(1, 1)

ENTRY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
"""`void entry(void **args, void **results, void *temp)` (host_entry.py)."""


class CpuExecutable(HostExecutable):
    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        objects: Sequence[bytes],
        temp_bytes: int,
        stats: MemoryStats,
        llvm_ir: str,
        launch_sites: Sequence[LaunchSite] | None = None,
        collective_sites: Sequence[str] = (),
        grid: Grid = ONE_DEVICE,
    ):
        self.launch_sites = None if launch_sites is None else tuple(launch_sites)
        """The kernel launched at each timed site, where the executable was
        compiled with launch timers (launch_timers.py); None otherwise."""
        self.collective_sites = tuple(collective_sites)
        """Each collective step's op, as `site_text` wrote it (what the
        compilation cache stores)."""
        self.collective_steps = tuple(CollectiveStep(t) for t in collective_sites)
        """What each collective step of the entry exchanges (collective_calls.py)."""
        self._channels = any(step.uses_channels for step in self.collective_steps)
        """Whether it sends or receives: each rank opens the channels first."""
        self.grid = grid
        """The devices the program runs on, one process (or thread) each."""
        self.objects = tuple(objects)
        """The object files, one per part of parallel code generation (what
        the compilation cache stores)."""
        self.temp_bytes = temp_bytes
        self.llvm_ir = llvm_ir
        """The LLVM IR before optimization (each part's)."""
        super().__init__(
            platform,
            signature,
            stats=replace(
                stats, generated_code_size_in_bytes=sum(map(len, self.objects))
            ),
        )
        if needs_runtime(self.objects):
            load_runtime()
        if needs_support(self.objects):
            load_support()
        load_called_gemms(self.objects)
        if needs_sort_routines(self.objects):
            load_sort_routines()
        if needs_launch_timers(self.objects):
            load_launch_timers()
        if needs_collectives(self.objects):
            load_collectives()
        self._object = LoadedObject(self.objects)
        self._entry = ENTRY(self._object.address(signature.function))
        self._arguments = _layouts(signature.arguments)
        self._results = _layouts(signature.results)
        self._local = threading.local()

    def launch_clock(self) -> DeviceClock | None:
        """The host's, where compiled with launch timers (launch_timers.py)."""
        return None if self.launch_sites is None else HOST_CLOCK

    def timed_call(self, arrays: Sequence[Any]) -> TimedCall:
        if self.launch_sites is None:
            return super().timed_call(arrays)
        return timed_call(self, arrays)

    def _frame(self) -> _Frame:
        """This thread's arena and pointer arrays, made on its first call."""
        frame = getattr(self._local, "frame", None)
        if frame is None:
            frame = self._local.frame = _Frame(
                self.temp_bytes, len(self._arguments), len(self._results)
            )
        return frame

    def run(
        self, arrays: Sequence[np.ndarray], out: Sequence[np.ndarray] | None = None
    ) -> list[np.ndarray]:
        """Run on arrays of the signature's types, writing into `out` when
        given (of the right types: `_check_out`)."""
        return self._run([np.ascontiguousarray(a) for a in arrays], out)

    def run_into(self, arrays: list[np.ndarray], outputs: list[np.ndarray]) -> None:
        """The native entry on views of device memory, writing the outputs'."""
        self._run(arrays, outputs)

    def _run(
        self, arrays: Sequence[np.ndarray], out: Sequence[np.ndarray] | None
    ) -> list[np.ndarray]:
        """`run` on C-contiguous arrays."""
        outputs = (
            list(out)
            if out is not None
            else [np.empty(shape, dtype=dtype) for dtype, shape in self._results]
        )
        frame = self._frame()
        for index, array in enumerate(arrays):
            frame.arguments[index] = _address(array)
        for index, array in enumerate(outputs):
            frame.results[index] = _address(array)
        if out is not None:
            _check_sharing(self.signature, frame, arrays, outputs)
        if self.collective_steps:
            communicator = communicator_for(self.grid, self._channels)
            with calling(self.collective_steps, communicator):
                self._entry(frame.arguments_at, frame.results_at, frame.arena_at)
        else:
            self._entry(frame.arguments_at, frame.results_at, frame.arena_at)
        return outputs

    def __call__(self, *arrays: Any, out: Sequence[np.ndarray] | None = None):
        """Arguments already as the entry takes them go in as they are, the
        rest through the signature's checks (and a contiguous copy): a
        call's Python work is a large part of a small program's time, more
        so when the interpreter's own code has left the cache."""
        if not _fit(arrays, self._arguments):
            checked = self.signature.check_arguments(arrays)
            arrays = tuple(np.ascontiguousarray(a) for a in checked)
        if out is not None and not _fit(out, self._results, writable=True):
            _check_out(self.signature, out, arrays)
        results = self._run(arrays, out)
        return results[0] if len(results) == 1 else tuple(results)

    def as_text(self) -> str:
        """The LLVM IR before optimization (a cache hit's too: the entry keeps it)."""
        return self.llvm_ir


class _Frame:
    """What one thread's calls pass the entry: the temp arena (so concurrent
    calls from several threads never share one) and the arrays of argument
    and result pointers, with their addresses."""

    def __init__(self, temp_bytes: int, arguments: int, results: int):
        self.arena = aligned_bytes(max(temp_bytes, 1))
        self.arena_at = self.arena.ctypes.data
        self.arguments = (ctypes.c_void_p * max(arguments, 1))()
        self.arguments_at = ctypes.addressof(self.arguments)
        self.results = (ctypes.c_void_p * max(results, 1))()
        self.results_at = ctypes.addressof(self.results)


def _layouts(specs: Sequence[Any]) -> tuple[tuple[np.dtype, tuple[int, ...]], ...]:
    return tuple((spec.dtype, tuple(spec.shape)) for spec in specs)


def _fit(
    arrays: Sequence[Any],
    layouts: Sequence[tuple[np.dtype, tuple[int, ...]]],
    writable: bool = False,
) -> bool:
    """Whether each array is a C-contiguous ndarray of its layout's dtype and
    shape (and `writable`), to be passed as it is."""
    if len(arrays) != len(layouts):
        return False
    for array, (dtype, shape) in zip(arrays, layouts, strict=True):
        if (
            type(array) is not np.ndarray
            or array.dtype != dtype
            or array.shape != shape
            or not array.flags.c_contiguous
            or (writable and not array.flags.writeable)
        ):
            return False
    return True


def _address(array: np.ndarray) -> int:
    """The address of a C-contiguous array's first byte: through ctypes'
    view of a writable buffer, the quickest (11 us against 24 for
    `.ctypes.data` with the interpreter's code out of cache), else numpy's."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))  # pyright: ignore[reportArgumentType]
    except (TypeError, ValueError):  # read-only or empty
        return array.ctypes.data


def _check_out(
    signature: Signature, out: Sequence[np.ndarray], arguments: Sequence[np.ndarray]
) -> None:
    """Output shapes and types as the signature says."""
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


def _check_sharing(
    signature: Signature,
    frame: _Frame,
    arguments: Sequence[np.ndarray],
    out: Sequence[np.ndarray],
) -> None:
    """No output's bytes overlap an argument's or another output's (their
    addresses are in `frame`): the code reads arguments while it writes
    results, and tells LLVM that distinct buffers never overlap
    (analysis/kernel_aliasing.py)."""
    spans = [
        ("argument", spec.name, frame.arguments[index] or 0, array.nbytes)
        for index, (spec, array) in enumerate(
            zip(signature.arguments, arguments, strict=True)
        )
    ]
    for index, (spec, array) in enumerate(zip(signature.results, out, strict=True)):
        start, size = frame.results[index] or 0, array.nbytes
        for kind, name, other, length in spans:
            if size and length and start < other + length and other < start + size:
                raise ValueError(
                    f"out: {spec.name} shares memory with {kind} {name}; "
                    "outputs must be arrays of their own"
                )
        spans.append(("out", spec.name, start, size))
