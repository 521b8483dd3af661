"""Parallel code generation: the llvm-dialect module compiled as a few LLVM
modules on several cores at once, as XLA:CPU splits its module for
parallel codegen (docs/cpu.md, "Parallel code generation").

LLVM takes half of a cold compile, function by function, on one core.
Here the module's function definitions that LLVM optimizes are dealt into
parts (costliest first, by an estimate of LLVM's time on each, to the
cheapest part so far), and those it does not (`optnone`) make one part of
their own, which goes through the -O0 code generator;
the calling thread translates one part after the other while worker
threads optimize and emit the parts already translated
(`host_machine.host_object_code`, each in an LLVM context of its own), and the MCJIT
engine links the objects. A symbol a
part uses but does not hold is declared there, and exported from the part
that defines it; everything else keeps its linkage.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xlir.lowering.llvm.llvmlite_module import llvm_ir
from xlir.targets.cpu.host_machine import host_object_code

THREADS = "XLIR_CODEGEN_THREADS"
"""Environment variable: how many threads generate code (default: the
cores this process may run on, at most `MAX_THREADS`); 1 compiles on the
calling thread, the optimized functions as one part."""

MAX_THREADS = 8

PART_COST = 8.0
"""The least estimated cost (`_cost_and_uses`) a part must have: a part
costs LLVM about 3 ms of its own (a pass pipeline, a code generator), which
a smaller part does not win back."""

Symbol = llvm.FuncOp | llvm.GlobalOp

SWITCH_INTERVAL = 0.0002
"""Seconds Python lets a thread run before handing the GIL to one waiting
for it, while this thread translates parts the workers compile (default
0.005). A worker takes the GIL back after each call into LLVM (a dozen
before and after the long ones); with the default it waited up to 5 ms each
time the calling thread was translating, so a part's LLVM run started late:
`object_code` took 100 ms instead of 55 next to a busy Python thread, 60 ms
at 0.2 ms (same process, alternating)."""


class _Handover:
    """How many compiles now run with `SWITCH_INTERVAL`, and the interval to
    restore when the last one ends."""

    lock = threading.Lock()
    depth = 0
    restore = 0.005


def codegen_threads() -> int:
    """How many threads compile a module's parts (`THREADS`)."""
    given = os.environ.get(THREADS)
    if given:
        try:
            return max(1, int(given))
        except ValueError:
            raise ValueError(
                f"{THREADS}: expected a number of threads, found {given!r}"
            ) from None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    return max(1, min(cores or os.cpu_count() or 1, MAX_THREADS))


@cache
def _pool(threads: int, process: int) -> ThreadPoolExecutor:
    """Worker threads of this process (`process`: its id). A child forked
    after a compile inherits the pool without its threads, and would wait
    forever on work no thread takes: it makes a pool of its own."""
    return ThreadPoolExecutor(threads, thread_name_prefix="xlir-codegen")


@dataclass
class Part:
    """Function definitions compiled together, their estimated cost, the
    symbols they use, and whether LLVM optimizes them (the `optnone`
    definitions are a part of their own that it does not)."""

    definitions: list[llvm.FuncOp] = field(default_factory=list)
    cost: float = 0.0
    uses: set[str] = field(default_factory=set)
    optimize: bool = True

    def add(self, cost: float, uses: set[str], op: llvm.FuncOp) -> None:
        self.definitions.append(op)
        self.cost += cost
        self.uses |= uses


def _cost_and_uses(function: llvm.FuncOp) -> tuple[float, set[str]]:
    """LLVM's time on a function, roughly, in milliseconds, and the symbols
    it calls or takes the address of. Fitted to each function of the bench
    programs compiled alone (a 2-core VM): a function with loops costs a
    quarter of a millisecond per op and one per block (loops are what the
    vectorizers and instruction selection work on); one without loops (a
    launcher, a grain entry) or left unoptimized (`optnone`) about 2 ms.
    Ops are told by their exact class (the three have no subclasses): a
    failing `isinstance` on xDSL's op classes goes through `ABCMeta`, three
    per op of the module."""
    ops = blocks = 0
    uses: set[str] = set()
    for block in function.body.blocks:
        blocks += 1
        for op in block.ops:
            ops += 1
            if type(op) is llvm.CallOp and op.callee is not None:
                uses.add(op.callee.root_reference.data)
            elif type(op) is llvm.AddressOfOp:
                uses.add(op.global_name.root_reference.data)
            elif type(op) is llvm.CallIntrinsicOp:
                uses.add(op.intrin.data)
    unoptimized = "optimize_none" in function.properties
    if blocks == 1 or unoptimized:
        return 1.0 + ops / 30, uses
    return ops / 4 + blocks, uses


def deal(module: ModuleOp, count: int) -> list[Part]:
    """The module's function definitions that LLVM optimizes dealt into at
    most `count` parts, largest first, each to the cheapest part so far;
    fewer parts while the cheapest would cost less than `PART_COST`. Then
    the `optnone` definitions (host entries, launchers, grain entries), all
    in one part that is not optimized and goes through the -O0 code
    generator (`host_object_code`): in the -O2 one each cost about 0.6 ms
    of its machine passes (a launcher of a few instructions), at -O0 a
    fifth of that."""
    unoptimized = Part(optimize=False)
    definitions: list[tuple[float, set[str], llvm.FuncOp]] = []
    for op in module.body.block.ops:
        if isinstance(op, llvm.FuncOp) and op.body.blocks:
            if "optimize_none" in op.properties:
                unoptimized.add(*_cost_and_uses(op), op)
            else:
                definitions.append((*_cost_and_uses(op), op))
    parts = _dealt(definitions, count) if definitions else []
    if unoptimized.definitions:
        parts.append(unoptimized)
    return parts or [Part()]


def _dealt(
    definitions: list[tuple[float, set[str], llvm.FuncOp]], count: int
) -> list[Part]:
    """`deal`'s parts of the definitions LLVM optimizes (their costs and
    uses), at least one."""
    definitions = sorted(definitions, key=lambda d: -d[0])
    count = max(1, min(count, len(definitions)))
    while True:
        parts = [Part() for _ in range(count)]
        for definition in definitions:
            min(parts, key=lambda p: p.cost).add(*definition)
        if count == 1 or min(p.cost for p in parts) >= PART_COST:
            return parts
        count -= 1


def _declaration(op: Symbol) -> Symbol:
    """An external declaration of a function or global held by another part."""
    if isinstance(op, llvm.FuncOp):
        return llvm.FuncOp(
            op.sym_name, op.function_type, linkage=llvm.LinkageAttr("external")
        )
    return llvm.GlobalOp(
        op.global_type,
        op.sym_name,
        "external",
        addr_space=op.addr_space.value.data,
        constant=op.constant is not None,
    )


@contextmanager
def part_modules(
    module: ModuleOp, parts: Sequence[Part]
) -> Iterator[list[tuple[ModuleOp, set[str]]]]:
    """Each part as a module of its own, with the names its IR must export.
    The module's ops move into the parts for the while, and back after.
    A global or declaration goes with the first part that uses it (or the
    first part), and is declared in the others that use it."""
    order: list[Symbol] = [op for op in module.body.block.ops if isinstance(op, Symbol)]
    symbols = {op.sym_name.data: op for op in order}
    home: dict[str, int] = {}
    for index, part in enumerate(parts):
        for op in part.definitions:
            home[op.sym_name.data] = index
    for index, part in enumerate(parts):
        for name in sorted(part.uses & symbols.keys()):
            home.setdefault(name, index)
    exported: list[set[str]] = [set() for _ in parts]
    modules: list[ModuleOp] = []
    for index, part in enumerate(parts):
        declared = []
        for name in sorted(part.uses & symbols.keys()):
            if home[name] != index:
                declared.append(_declaration(symbols[name]))
                exported[home[name]].add(name)
        modules.append(ModuleOp(declared, module.attributes))
    for op in order:
        op.detach()
        modules[home.get(op.sym_name.data, 0)].body.block.add_op(op)
    try:
        yield list(zip(modules, exported, strict=True))
    finally:
        for op in order:
            op.detach()
            module.body.block.add_op(op)


def compile_parts(
    module: ModuleOp, threads: int | None = None
) -> tuple[str, tuple[bytes, ...]]:
    """The module's LLVM IR (each part's, one after the other) and the
    parts' host object code, compiled on `threads` threads (default
    `codegen_threads()`) while the calling thread translates the next part."""
    threads = threads or codegen_threads()
    parts = deal(module, threads)
    if len(parts) == 1:
        ir = llvm_ir(module)
        return ir, (host_object_code(ir, parts[0].optimize),)
    pool = _pool(threads, os.getpid()) if threads > 1 else None
    texts: list[str] = []
    objects: list[Future[bytes]] = []
    with part_modules(module, parts) as modules, _quick_gil_handover():
        for index, (part, (part_module, exported)) in enumerate(
            zip(parts, modules, strict=True)
        ):
            ir = llvm_ir(part_module, exported=exported)
            objects.append(_submit(pool, ir, part.optimize))
            texts.append(f"; part {index + 1} of {len(modules)}\n{ir}")
    return "\n".join(texts), tuple(code.result() for code in objects)


@contextmanager
def _quick_gil_handover() -> Iterator[None]:
    """`SWITCH_INTERVAL` for the while (for all threads: Python has one
    interval), the interval before restored once no compile needs it."""
    with _Handover.lock:
        if _Handover.depth == 0:
            _Handover.restore = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL)
        _Handover.depth += 1
    try:
        yield
    finally:
        with _Handover.lock:
            _Handover.depth -= 1
            if _Handover.depth == 0:
                sys.setswitchinterval(_Handover.restore)


def _submit(pool: ThreadPoolExecutor | None, ir: str, optimize: bool) -> Future[bytes]:
    """`ir` compiling on the pool, or compiled here without one (one
    thread) or where no thread can start (a process out of address space
    for another stack)."""
    if pool is not None:
        try:
            return pool.submit(host_object_code, ir, optimize)
        except RuntimeError:
            pass
    done: Future[bytes] = Future()
    done.set_result(host_object_code(ir, optimize))
    return done
