"""LLVM for the host: translate, optimize, emit object code, load it.

The llvm-dialect module becomes LLVM IR through xDSL's llvmlite translation,
is optimized by LLVM's new pass manager at -O3 (loop and SLP vectorization
on) for the host CPU's name and features, and is emitted as an object file.
Object code is what the compilation cache stores, so a cache hit and a fresh
compile load the same bytes into an MCJIT engine.
"""

from __future__ import annotations

from functools import cache

import llvmlite.binding as llvm
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects import llvm as llvm_dialect
from xdsl.dialects.builtin import ModuleOp


@cache
def _initialized() -> bool:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return True


def host_target_machine(opt: int = 3) -> llvm.TargetMachine:
    """A new target machine for this CPU (name and features), position
    independent code. New each time: an MCJIT engine takes ownership of (and
    frees) the machine it is made with."""
    _initialized()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt,
        reloc="pic",
    )


def host_description() -> str:
    """Triple, CPU and features: part of every cache key."""
    _initialized()
    return (
        f"{llvm.get_default_triple()}|{llvm.get_host_cpu_name()}|"
        f"{llvm.get_host_cpu_features().flatten()}"
    )


def llvm_ir(module: ModuleOp, triple: str | None = None) -> str:
    """LLVM IR text of an llvm-dialect module. xDSL's translation drops the
    linkage of functions: internal ones (the kernels) are marked here, so
    LLVM may inline them and they stay out of the symbol table."""
    converted = convert_module(module, fallback_target_triple=triple)
    for op in module.body.block.ops:
        if (
            isinstance(op, llvm_dialect.FuncOp)
            and op.linkage.linkage.data == "internal"
        ):
            converted.get_global(op.sym_name.data).linkage = "internal"
    return str(converted)


def optimize(ir: str, machine: llvm.TargetMachine, speed: int = 3) -> llvm.ModuleRef:
    """Parse and run LLVM's -O`speed` pipeline for `machine`."""
    _initialized()
    parsed = llvm.parse_assembly(ir)
    parsed.triple = machine.triple
    parsed.data_layout = str(machine.target_data)
    parsed.verify()
    options = llvm.PipelineTuningOptions(speed_level=speed)
    options.loop_vectorization = True
    options.slp_vectorization = True
    builder = llvm.create_pass_builder(machine, options)
    builder.getModulePassManager().run(parsed, builder)
    return parsed


def object_code(ir: str, machine: llvm.TargetMachine | None = None) -> bytes:
    """Optimized object code of LLVM IR for `machine` (default: this host)."""
    machine = machine or host_target_machine()
    return machine.emit_object(optimize(ir, machine))


class LoadedObject:
    """Object code linked into this process; `address(name)` of a symbol."""

    def __init__(self, code: bytes):
        machine = host_target_machine()
        self.code = code  # the engine reads the object's bytes in place
        self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
        self.engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        self.engine.finalize_object()

    def address(self, name: str) -> int:
        return self.engine.get_function_address(name)
