"""The CPU JIT's runtime: the thread pool and the support functions (the
bounds-check handler of support_functions.py, the half conversions of
lowering/llvm/half_conversions.py), compiled and loaded once per process.

A threaded program only declares `xlir.parallel_for` (threaded_loops.py). The JIT loads the pool (`thread_pool.py`) on the first
load that needs it, into an engine kept for the life of the process (its
object code compiled by the host's first process and kept beside the
compilation cache: `cache.host_object`), and makes its entry a symbol of the process (`llvm.add_symbol`), which every
executable's engine then links against, as XLA:CPU's JIT resolves its
runtime functions in the process. So all executables share one pool and
its threads, and a threaded program's compile does not translate and
optimize the pool again. Ahead-of-time objects define a pool of their own
(`define_runtime`), so they need only the C library. The support
functions are loaded the same way, on the first load of an object that
calls one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from llvmlite import ir
from xlir.lowering.llvm.bounds_checks import BOUNDS_ERROR
from xlir.lowering.llvm.half_conversions import (
    HALF_CONVERSIONS,
    define_half_conversions,
)
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.cpu.gemm_runtime import define_called_gemms
from xlir.targets.cpu.process_symbols import host_object, load_as_process_symbols
from xlir.targets.cpu.sort_routine import define_sort_routines
from xlir.targets.cpu.support_functions import define_bounds_error
from xlir.targets.cpu.thread_pool import define_thread_pool
from xlir.targets.cpu.threaded_loops import PARALLEL_FOR

SUPPORT = (BOUNDS_ERROR, *HALF_CONVERSIONS)
"""The support functions' names."""


def needs_runtime(objects: Sequence[bytes]) -> bool:
    """Whether any of these objects calls the thread pool (a call puts its
    name in the object's symbol table)."""
    name = PARALLEL_FOR.encode()
    return any(name in code for code in objects)


@cache
def runtime_object() -> bytes:
    """The pool's object code for this host, compiled on first use (by the
    host's first process: `cache.host_object`)."""

    return host_object(
        "thread-pool", lambda module: define_thread_pool(module, linkage="external")
    )


@cache
def load_runtime() -> LoadedObject:
    """The pool loaded into this process, its entry a process symbol; kept
    (its threads run its code) for as long as the process lives."""
    return load_as_process_symbols(runtime_object(), [PARALLEL_FOR])


def needs_support(objects: Sequence[bytes]) -> bool:
    """Whether any of these objects calls a support function."""
    return any(name.encode() in code for code in objects for name in SUPPORT)


@cache
def support_object() -> bytes:
    """The support functions' object code for this host (kept as the
    pool's is)."""

    def define(module: ir.Module) -> None:
        define_bounds_error(module, linkage="external")
        define_half_conversions(module)

    return host_object("support-functions", define)


@cache
def load_support() -> LoadedObject:
    """The support functions loaded into this process, each a process
    symbol; kept for as long as the process lives."""
    return load_as_process_symbols(support_object(), SUPPORT)


def define_runtime(module: ir.Module) -> None:
    """Define in a translated module the pool, the bounds-check handler and
    the routines it calls (the GEMM of gemm_runtime.py, the sort and top_k
    routines of sort_routine.py and top_k_routine.py), internal, where it
    calls them: an ahead-of-time object (or xlir-translate's) then needs
    only the C library. The JIT
    links the loaded ones instead (`load_runtime`, `load_support`,
    `gemm_runtime.load_called_gemms`, `load_sort_routines`)."""
    if PARALLEL_FOR in module.globals:
        define_thread_pool(module)
    if BOUNDS_ERROR in module.globals:
        define_bounds_error(module)
    define_called_gemms(module)
    define_sort_routines(module)
