"""The machine the cpu target compiles for: this host's triple, CPU name
and features (`host_cpu`), a target machine per thread (for code the JIT
loads: `jit_target_machine`'s code model), and the host's description that
every cache key holds."""

from __future__ import annotations

import threading
from functools import cache

import llvmlite.binding as llvm
from xlir.lowering.llvm.llvmlite_module import (
    JIT_CODE_MODEL,
    JIT_RELOCATION,
    OPT_LEVEL,
    initialize_llvm,
    jit_target_machine,
    target_machine,
)
from xlir.lowering.llvm.mask_move_fold import guarded_object_code


@cache
def host_cpu() -> tuple[str, str]:
    """This CPU's LLVM name and features (asked of LLVM once per process:
    every compile makes two target machines and a cache key). Where it has
    AVX-512, LLVM's tuning for it (Skylake-X to Sapphire Rapids) still
    prefers 256-bit vectors; `-prefer-256-bit` lets the vectorizers use the
    full registers, which the register tiles of `register-tile` are sized
    for (matmul_512: ~85 -> ~150 GFLOP/s)."""
    initialize_llvm()
    features = llvm.get_host_cpu_features()
    flat = features.flatten()
    if features.get("avx512f"):
        flat += ",-prefer-256-bit"
    return llvm.get_host_cpu_name(), flat


def machine_for(
    triple: str | None = None,
    cpu: str | None = None,
    features: str | None = None,
    reloc: str = "pic",
    opt: int = OPT_LEVEL,
) -> llvm.TargetMachine:
    """A new target machine; None for triple, CPU or features means this
    host's (a CPU or features given for another triple default to
    generic/none). Raises ValueError for a triple LLVM has no target for."""
    initialize_llvm()
    host = triple is None
    if cpu is None:
        cpu = host_cpu()[0] if host else ""
    if features is None:
        features = host_cpu()[1] if host else ""
    return target_machine(
        triple or llvm.get_default_triple(), cpu, features, reloc=reloc, opt=opt
    )


def host_target_machine(opt: int = OPT_LEVEL) -> llvm.TargetMachine:
    """This CPU (name and features), for code the JIT loads into this
    process (`jit_target_machine`)."""
    return jit_target_machine(llvm.get_default_triple(), *host_cpu(), opt=opt)


_THIS_THREAD = threading.local()


def thread_host_machine(opt: int = OPT_LEVEL) -> llvm.TargetMachine:
    """This thread's host target machine (`host_target_machine`) for code
    generation at -O`opt`, made on its first use and kept: a new machine
    sets its subtarget up on its first code generation, which cost each
    `object_code` call 2-4 ms (the bench programs' modules, alternating); a
    machine kept per thread is never in use by two threads at once."""
    machines = getattr(_THIS_THREAD, "machines", None)
    if machines is None:
        machines = _THIS_THREAD.machines = {}
    if opt not in machines:
        machines[opt] = host_target_machine(opt)
    return machines[opt]


UNOPTIMIZED = 0
"""The code generator's level for IR that is not optimized (`optnone`
functions): LLVM's -O0 instruction selection and register allocation."""


def host_object_code(ir: str, optimize: bool = True) -> bytes:
    """Object code of LLVM IR for this host, on this thread's machine
    (several threads compile at once: `object_code`), guarded against
    LLVM's mask-move fold (lowering/llvm/mask_move_fold.py). Optimized, or
    with `optimize` off, IR of `optnone` functions only, as it is and
    through the -O0 code generator (`UNOPTIMIZED`)."""
    cpu, features = host_cpu()
    opt = OPT_LEVEL if optimize else UNOPTIMIZED
    return guarded_object_code(
        ir,
        thread_host_machine(opt),
        features,
        lambda safe: jit_target_machine(llvm.get_default_triple(), cpu, safe, opt),
        optimize,
    )


def host_description() -> str:
    """Triple, CPU, features and the JIT's code model: part of every cache
    key."""
    cpu, features = host_cpu()
    models = f"{JIT_CODE_MODEL}-{JIT_RELOCATION}"
    return f"{llvm.get_default_triple()}|{cpu}|{features}|{models}"
