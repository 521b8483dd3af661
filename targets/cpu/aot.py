"""Ahead-of-time compilation: an object file and a C header for an LLVM triple.

The module goes down the cpu target's own pipeline to the llvm dialect, so
the object's entry is the JIT's native entry, renamed to a C symbol of the
caller's choosing (tfcompile's "function name"); every other function in it
is internal. LLVM then optimizes and emits code for the requested triple,
CPU and features. The object needs only libc and libm (and pthread when a
kernel is threaded): constants are embedded, the temp arena is the caller's.
"""

from __future__ import annotations

import re
from dataclasses import replace

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xlir.dialects.hlo_buffers import aliased_outputs
from xlir.lowering.llvm.collective_calls import COLLECTIVE_SITES
from xlir.lowering.llvm.llvmlite_module import llvm_ir
from xlir.lowering.llvm.mask_move_fold import guarded_object_code
from xlir.targets.aot import RELOCATION_MODELS, AotOptions, AotResult
from xlir.targets.base import ProgramRecord
from xlir.targets.cpu import lower_to_llvm
from xlir.targets.cpu.c_header import C_IDENTIFIER, HeaderInfo, c_header
from xlir.targets.cpu.host_machine import host_cpu, machine_for
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.cpu.thread_runtime import define_runtime
from xlir.targets.cpu.threaded_loops import PARALLEL_FOR
from xlir.targets.target import CompileOptions

from xlir.diagnostics import XlirError

TRIPLE_DEFAULTS = {
    "riscv64": ("generic-rv64", "+m,+a,+f,+d,+c", "lp64d"),
}
"""CPU, features and ABI where LLVM's bare defaults do not match what a
Linux C compiler for the architecture produces (Debian's riscv64 is rv64gc
with hardware floats, and objects of different float ABIs do not link)."""


def default_entry(module: ModuleOp, function: str) -> str:
    """`jit_mlp_fwd_64` + `main` -> `jit_mlp_fwd_64_main`, as a C identifier."""
    name = module.sym_name.data if module.sym_name else "xlir"
    return re.sub(r"\W", "_", f"{name}_{function}")


def _check_options(options: AotOptions) -> None:
    if options.reloc not in RELOCATION_MODELS:
        raise XlirError(
            f"error: relocation model '{options.reloc}' is not one of "
            f"{', '.join(RELOCATION_MODELS)}"
        )
    if options.threads is not None and options.threads < 1:
        raise XlirError(f"error: --threads must be at least 1, not {options.threads}")
    if options.entry is not None and not C_IDENTIFIER.fullmatch(options.entry):
        raise XlirError(
            f"error: entry name '{options.entry}' is not a C identifier "
            "(letters, digits and '_', not starting with a digit)"
        )


def _machine_settings(options: AotOptions) -> tuple[str, str, str]:
    """CPU name, features and float ABI for the target machine."""
    if options.triple is None or options.cpu == "native":
        if options.triple is not None:
            raise XlirError("error: --cpu native needs the host triple (no --triple)")
        cpu, features = host_cpu()
        return cpu, options.features if options.features is not None else features, ""
    arch = options.triple.split("-")[0]
    cpu, features, abi = TRIPLE_DEFAULTS.get(arch, ("generic", "", ""))
    return options.cpu or cpu, options.features or features, abi


def compile_options(options: AotOptions, given: CompileOptions) -> CompileOptions:
    """The compile options of an AOT compile: `given` (fast math, bounds
    checks) with its triple, features and threads, which size the cpu
    target's passes for the triple's generic CPU and say which instructions
    it has (`CpuTarget.info`; the host's are measured)."""
    return replace(
        given, triple=options.triple, features=options.features, threads=options.threads
    )


def _export_only(module: ModuleOp, function: str, entry: str) -> None:
    """Renames the entry of `function` to `entry`; other defined functions
    become internal so that the object exports one symbol."""
    for op in module.body.block.ops:
        if not isinstance(op, llvm.FuncOp) or not op.body.blocks:
            continue
        if op.sym_name.data == function:
            op.sym_name = StringAttr(entry)
        else:
            op.linkage = llvm.LinkageAttr("internal")


def _donated(module: ModuleOp, function: str) -> dict[int, int]:
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == function:
            return aliased_outputs(op)
    return {}


def _notes(module: ModuleOp) -> list[str]:
    """What the header's comment says about threads."""
    threaded = any(
        isinstance(op, llvm.FuncOp) and op.sym_name.data == PARALLEL_FOR
        for op in module.body.block.ops
    )
    if not threaded:
        return ["Runs on the calling thread only."]
    return [
        "Threads: the largest kernels split their outer loop over a pool of",
        "pthreads (one per online CPU, sysconf(_SC_NPROCESSORS_ONLN)), started on",
        "the first call and waiting for later ones; link with -lpthread. The call",
        "returns when all are done; calls from several threads at once are safe",
        "(one of them uses the pool, the others run alone).",
    ]


def _with_abi(ir: str, abi: str) -> str:
    """Records the float ABI as LLVM's `target-abi` module flag."""
    if not abi:
        return ir
    return (
        ir
        + f'\n!llvm.module.flags = !{{!900}}\n!900 = !{{i32 1, !"target-abi", !"{abi}"}}\n'
    )


def compile_object(
    module: ModuleOp,
    record: ProgramRecord,
    options: AotOptions,
    backend: CpuTarget,
    given: CompileOptions,
    sources: dict[str, str] | None = None,
) -> AotResult:
    """Lowers an optimized module (in place) with `backend`'s passes and emits
    object code and a header for `options`; errors are XlirErrors."""
    function = record.signature.function
    _check_options(options)
    cpu, features, abi = _machine_settings(options)
    try:
        machine = machine_for(options.triple, cpu, features, options.reloc)
    except ValueError as error:
        raise XlirError(f"error: {error}") from None
    entry = options.entry or default_entry(module, function)
    donated = _donated(module, function)
    temp_bytes = lower_to_llvm(
        backend, module, record, compile_options(options, given), sources
    )
    if COLLECTIVE_SITES in module.attributes:
        raise XlirError(
            "error: the program has collectives (all_reduce, ...), which an "
            "ahead-of-time object cannot run yet; run it with the JIT under "
            "mpiexec (docs/collectives-runtime.md)"
        )
    _export_only(module, function, entry)
    ir = _with_abi(llvm_ir(module, machine.triple, runtime=define_runtime), abi)
    code = guarded_object_code(
        ir,
        machine,
        features,
        lambda safe: machine_for(options.triple, cpu, safe, options.reloc),
    )
    stats = replace(record.stats, generated_code_size_in_bytes=len(code))
    source = next(iter(sources), "<module>") if sources else "<module>"
    shown = "this host's" if features and features == host_cpu()[1] else features
    target = f"{machine.triple}, cpu {cpu}, reloc {options.reloc}" + (
        f", features {shown}" if features else ""
    )
    try:
        header = c_header(
            record.signature,
            HeaderInfo(
                entry,
                source,
                target,
                temp_bytes,
                stats,
                donated,
                _notes(module),
            ),
        )
    except ValueError as error:
        raise XlirError(f"error: {error}") from None
    return AotResult(
        code,
        header,
        entry,
        machine.triple,
        record.signature,
        temp_bytes,
        stats,
    )
