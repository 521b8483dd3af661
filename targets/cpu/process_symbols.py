"""Code the CPU JIT compiles once per host and loads once per process (the
thread pool, the support functions, the GEMM, sort and top_k routines): its object
kept beside the compilation cache (`cache.host_object`), its functions made
process symbols (`llvm.add_symbol`) that every executable's engine links
against, as XLA:CPU's JIT resolves its runtime functions in the process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import llvmlite.binding as llvm
from llvmlite import ir
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.cpu import cache as disk
from xlir.targets.cpu.host_machine import host_description, host_object_code


def host_object(name: str, define: Callable[[ir.Module], object]) -> bytes:
    """The object code for this host of what `define` adds to an empty
    module (its functions external), compiled by the host's first process
    and read back by the others."""

    def compiled() -> bytes:
        module = ir.Module()
        module.triple = llvm.get_default_triple()
        define(module)
        return host_object_code(str(module))

    return disk.host_object(name, host_description(), compiled)


def load_as_process_symbols(code: bytes, names: Iterable[str]) -> LoadedObject:
    """`code` loaded into this process with each of `names` a process
    symbol; the caller keeps it (`functools.cache`) for as long as the
    process lives, as executables linked against it call into it."""
    loaded = LoadedObject((code,))
    for name in names:
        llvm.add_symbol(name, loaded.address(name))
    return loaded
