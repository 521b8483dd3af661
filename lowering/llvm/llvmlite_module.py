"""The llvm dialect to machine code through llvmlite, for any LLVM target.

The llvm-dialect module becomes LLVM IR text (`llvm_ir`, written straight
from the dialect by ir_text.py), is optimized by LLVM's new pass manager at
-O2 (`OPT_LEVEL`; loop and SLP vectorization on) for a target machine
(`target_machine`: triple, CPU, features), and is emitted as an object file
(`object_code`) or assembly; code MCJIT loads into this process is compiled for
`jit_target_machine`. Nothing here knows which target asks: the CPU's host
machine, JIT loader and runtime are in targets/cpu/.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Collection, Mapping
from functools import cache
from typing import Any

import llvmlite.binding as llvm
from llvmlite import ir
from llvmlite.binding import ffi
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm as llvm_dialect
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.exceptions import LLVMTranslationException
from xlir.lowering.llvm.ir_text import module_text


@cache
def initialize_llvm() -> bool:
    """LLVM's targets, and its loop vectorizer allowed in-order float
    reductions (`-force-ordered-reductions`, an option of this process's
    LLVM): a sum kept in order (the exact pipeline) still gets its loads and
    elementwise work (an `exp` per element) as vector code, adding the lanes
    one after the other; without it LLVM leaves such a loop scalar (a row
    sum of exponentials: 3x slower). And no vectorized epilogue
    (`-enable-epilogue-vectorization=false`): a loop's last iterations, fewer
    than one vector step, run as scalar code rather than as a second vector
    loop of narrower vectors; that second copy of every vectorized loop cost
    3% of the cold compile over the bench programs and bought no run time
    (same-process A/B, run time ratio 1.00). Not `-opt-disable` (skipping
    passes that find nothing to do in xlir's modules): with it LLVM 22 keeps
    memory on every compile (`tests/unit/test_llvm_memory.py`)."""
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.set_option("xlir", "-force-ordered-reductions")
    llvm.set_option("xlir", "-enable-epilogue-vectorization=false")
    return True


OPT_LEVEL = 2
"""LLVM's optimization level for compiles (pass pipeline and code
generator): -O2 compiled the bench programs 4% faster than -O3 (same
process, alternating, measured twice: -4.1%, -4.3%) with the same run time
(ratios 0.99, 0.98); the loops reaching LLVM are already tiled, jammed and
vectorized where it pays, which is most of what -O3 adds.

Cheaper settings measured and not taken (issue 36): the -O1 pipeline (it
drops GVN and jump threading; an LSTM step ran slower); -O2 without the
SLP vectorizer (the jammed scalar copies that `vectorize` leaves it stay
scalar) or without the loop vectorizer (xlir leaves its elementwise loops
to it); a pipeline of llvmlite's single passes (it has no loop
vectorizer); the code generator at -O1 (no measurable saving);
`-disable-lsr` (code generation 18% cheaper, but run-time A/Bs did not
settle: small programs ran slower in one and not in the next; and the
option is process-wide, so every target's code generator would lose it);
and `llvm.loop.vectorize.enable=false` on the loops xlir already
vectorized (the vectorizer gives those up at their first vector
instruction, for no measurable time)."""


LOOP_INTERLEAVING = False
"""Whether LLVM's loop vectorizer may also interleave the loops it
vectorizes (run 2-4 vector iterations per trip). Off: the loops it gets
are memory-bound elementwise and in-order reduction loops, where more
copies of the vector body bought no run time (same-process A/B over the
bench programs: ratio 0.996, every output bit-identical), while
instruction selection and the passes after the vectorizer chewed on each
copy: LLVM's time on the bench programs' modules fell 11-13% (best of 4,
alternating; layernorm 0.67, int_ops 0.78, compare_select 0.84, softmax
0.86). Register tiles and row jams are unrolled by xlir's own passes."""


ARCHITECTURES = (
    "x86_64",
    "i686",
    "aarch64",
    "aarch64_be",
    "arm",
    "armeb",
    "thumb",
    "riscv32",
    "riscv64",
    "powerpc",
    "powerpc64",
    "powerpc64le",
    "mips",
    "mipsel",
    "mips64",
    "mips64el",
    "s390x",
    "sparc",
    "sparcv9",
    "loongarch32",
    "loongarch64",
    "wasm32",
    "wasm64",
    "nvptx",
    "nvptx64",
    "amdgcn",
    "r600",
    "hexagon",
    "bpf",
    "avr",
    "msp430",
    "lanai",
    "xcore",
    "ve",
    "m68k",
    "csky",
    "spirv64",
)
"""Architecture names of LLVM triples; `known_architectures` keeps those
this LLVM build has a target for (llvmlite cannot list its registry)."""


def known_architectures() -> list[str]:
    """The architectures of `ARCHITECTURES` this LLVM can generate code for."""
    initialize_llvm()
    known = []
    for arch in ARCHITECTURES:
        try:
            llvm.Target.from_triple(f"{arch}-unknown-unknown")
        except RuntimeError:
            continue
        known.append(arch)
    return known


def target_machine(
    triple: str,
    cpu: str = "",
    features: str = "",
    reloc: str = "pic",
    opt: int = OPT_LEVEL,
    code_model: str = "default",
) -> llvm.TargetMachine:
    """A new target machine for `triple` ("" for the CPU and features: the
    triple's generic ones). New each time: an MCJIT engine takes ownership
    of (and frees) the machine it is made with. Raises ValueError for a
    triple LLVM has no target for."""
    initialize_llvm()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as error:
        raise ValueError(
            f"no LLVM target for triple '{triple}' ({error}); this LLVM has: "
            f"{', '.join(known_architectures())}"
        ) from None
    return target.create_target_machine(
        cpu=cpu, features=features, opt=opt, reloc=reloc, codemodel=code_model
    )


def jit_target_machine(
    triple: str, cpu: str, features: str, opt: int = OPT_LEVEL
) -> llvm.TargetMachine:
    """A target machine for code that MCJIT loads into this process: the
    large code model, absolute addresses. MCJIT's memory manager maps an
    object's code, constants, unwind tables and GOT each on its own,
    wherever the kernel finds room; in a process whose address space many
    compiles and arrays have scattered, they can land more than 2 GiB
    apart, out of reach of the small code model's 32-bit PC-relative
    offsets (MCJIT's linker then aborted the process on an assertion; built
    without assertions, it would write a truncated offset). The large model
    addresses constants and calls functions with 64-bit absolute addresses,
    and its unwind tables use 64-bit offsets."""
    return target_machine(
        triple, cpu, features, JIT_RELOCATION, opt, code_model=JIT_CODE_MODEL
    )


JIT_CODE_MODEL = "large"
JIT_RELOCATION = "static"
"""`jit_target_machine`'s code and relocation models."""


def llvm_ir(
    module: ModuleOp,
    triple: str | None = None,
    exported: Collection[str] = (),
    runtime: Callable[[ir.Module], None] | None = None,
    calling_conventions: Mapping[str, str] | None = None,
) -> str:
    """LLVM IR text of an llvm-dialect module (`ir_text.module_text`), for
    the module's `llvm.target_triple`, else `triple`, else the host's. The
    functions and globals named in `exported` are external whatever their
    linkage (another module uses them). `calling_conventions`: functions'
    calling conventions xDSL's llvm dialect cannot say (its `CConv` takes a
    fixed list: no GPU kernel's), by name. Where `runtime` is given, it defines
    the target's runtime functions the module calls (so that an object
    needs no runtime of the target's beside it), in an llvmlite module that
    holds declarations of the functions the module declares (`_supplied`),
    whose text takes their place."""
    given = module.attributes.get("llvm.target_triple")
    if given is not None:
        if not isinstance(given, StringAttr):
            raise LLVMTranslationException(f"Unsupported llvm.target_triple: {given}")
        triple = given.data
    triple = triple or llvm.get_default_triple()
    supplied = _supplied(module, runtime) if runtime else None
    return module_text(module, triple, exported, calling_conventions, supplied)


def _supplied(module: ModuleOp, runtime: Callable[[ir.Module], None]) -> dict[str, str]:
    """The text of the runtime's functions (and of what they use) by name,
    defined by `runtime` in an llvmlite module holding declarations of
    `module`'s functions."""
    supplied = ir.Module()
    for op in module.body.block.ops:
        if isinstance(op, llvm_dialect.FuncOp) and not op.body.blocks:
            signature: Any = convert_type(op.function_type)
            ir.Function(supplied, signature, op.sym_name.data)
    runtime(supplied)
    return {value.name: str(value) for value in supplied.global_values}


def optimize(
    ir: str, machine: llvm.TargetMachine, speed: int = OPT_LEVEL
) -> llvm.ModuleRef:
    """Parse and run LLVM's -O`speed` pipeline for `machine`, without LLVM's
    loop unroller (as XLA:CPU) or the vectorizer's interleaving
    (`LOOP_INTERLEAVING`): `register-tile` and `vectorize` unroll and jam
    where it pays, and unrolling every vector loop again doubled the code
    that the rest of the pipeline and instruction selection then chew on (a
    third of LLVM's time on the bench programs)."""
    return _optimized(ir, machine, speed, None)


def _optimized(
    ir: str,
    machine: llvm.TargetMachine,
    speed: int,
    context: llvm.ContextRef | None,
) -> llvm.ModuleRef:
    """`optimize` in the global context, or in `context` (one of the
    caller's own) with the passes run outside llvmlite's lock."""
    parsed = _parsed(ir, machine, context)
    options = llvm.PipelineTuningOptions(speed_level=speed)
    options.loop_vectorization = True
    options.slp_vectorization = True
    options.loop_unrolling = False
    options.loop_interleaving = LOOP_INTERLEAVING
    builder = llvm.create_pass_builder(machine, options)
    manager = builder.getModulePassManager()
    try:
        if context is None:
            manager.run(parsed, builder)
        else:
            _unlocked(ffi.lib.LLVMPY_RunNewModulePassManager)(manager, parsed, builder)
    finally:
        dispose_pass_manager(manager)
    return parsed


def _parsed(
    ir: str, machine: llvm.TargetMachine, context: llvm.ContextRef | None
) -> llvm.ModuleRef:
    """`ir` parsed (in `context`, else the global one) for `machine`'s
    triple and data layout, and verified."""
    initialize_llvm()
    parsed = llvm.parse_assembly(ir, context)
    parsed.triple = machine.triple
    parsed.data_layout = str(machine.target_data)
    parsed.verify()
    return parsed


def dispose_pass_manager(manager: llvm.ModulePassManager) -> None:
    """Free a module pass manager's pipeline now. llvmlite 0.50 never frees
    it: `ModulePassManager` inherits `ObjectRef`'s empty `_dispose` before
    the one that deletes the pipeline (`NewPassManager`'s, later in its
    MRO), so every optimization leaked its -O2 pipeline and what running it
    left there, 73 KB a compile of a tiny program (a fuzz worker reached
    2.9 GB). Where a llvmlite release disposes of it itself, `close` does."""
    if type(manager)._dispose is ffi.ObjectRef._dispose:  # pyright: ignore[reportPrivateUsage]
        ffi.lib.LLVMPY_DisposeNewModulePassManger(manager)
        manager.detach()
    else:
        manager.close()


def _unlocked(function: Any) -> Any:
    """The C function under llvmlite's wrapper, called without the lock the
    wrapper takes. llvmlite runs every call into LLVM under one process-wide
    lock, which guards what threads share (the global context); a module
    parsed into a context of its own, optimized and emitted with a machine
    of its own shares nothing, so several such compiles can run at once on
    several cores (ctypes lets go of the GIL for the call). Where a
    llvmlite release has no such attribute, the locked call."""
    return getattr(function, "_cfn", function)


def object_code(ir: str, machine: llvm.TargetMachine, optimize: bool = True) -> bytes:
    """Object code of LLVM IR for `machine`, optimized at -O`OPT_LEVEL`
    unless `optimize` is off (IR all of whose functions are `optnone`, which
    the pipeline leaves as they are). Parsed into an LLVM context of its
    own, its optimization and code generation run outside llvmlite's lock,
    so calls on several threads compile on several cores; `machine` must not
    be in use by another thread meanwhile."""
    context = llvm.create_context()
    if optimize:
        module = _optimized(ir, machine, OPT_LEVEL, context)
    else:
        module = _parsed(ir, machine, context)
    emit = _unlocked(ffi.lib.LLVMPY_TargetMachineEmitToMemory)
    with ffi.OutputString() as error:
        buffer = emit(machine, module, 1, error)
        if not buffer:
            raise RuntimeError(str(error))
    try:
        return ctypes.string_at(
            ffi.lib.LLVMPY_GetBufferStart(buffer), ffi.lib.LLVMPY_GetBufferSize(buffer)
        )
    finally:
        ffi.lib.LLVMPY_DisposeMemoryBuffer(buffer)
