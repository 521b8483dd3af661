"""The CPU JIT's runtime: the thread helpers, compiled once per process.

The JIT pipeline lowers with `loop-to-llvm{thread-helpers=extern}`: a
threaded program only declares `xlir.spawn_chunks` and `xlir.join_chunks`
(lowering/llvm/threads.py), and the engine that loads its objects links
this object in beside them, as XLA:CPU's JIT resolves its runtime functions
in the process. Translating and optimizing the helpers with every threaded
program cost its cold compile 6-9 ms (about 90 llvm ops through xDSL's
translation, two more functions through LLVM); here they are compiled on
the first load that needs them. Ahead-of-time objects keep their own copy
(the default `thread-helpers=inline`), so they need only the C library.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xlir.lowering.llvm.threads import HELPERS, helpers_module
from xlir.targets.cpu.llvm_jit import llvm_ir, object_code


def needs_runtime(objects: Sequence[bytes]) -> bool:
    """Whether any of these objects names a thread helper (a call to one
    puts its name in the object's symbol table)."""
    names = [name.encode() for name in HELPERS]
    return any(name in code for code in objects for name in names)


@cache
def runtime_object() -> bytes:
    """The helpers' object code for this host, compiled on first use."""
    return object_code(llvm_ir(helpers_module()))
