"""Kernels rewritten by `emulation.thread_loops` compiled for this machine:
the target-neutral llvm lowering (lowering/llvm/) with `HostKernelEmitter`,
LLVM at -O2 for the host CPU (`kernel_features`), and the JIT loader into
this process (with the half conversions where the code calls one); each
kernel an exported C function of its buffers' addresses and its scalars.
"""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.binding as llvm
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.emitter import LLVMEmitter
from xlir.lowering.llvm.function import noalias_attributes
from xlir.lowering.llvm.half_conversions import (
    HALF_CONVERSIONS,
    half_conversions_object,
)
from xlir.lowering.llvm.jit_loader import LoadedObject, elf_symbols
from xlir.lowering.llvm.llvmlite_module import (
    jit_target_machine,
    llvm_ir,
    object_code,
)
from xlir.lowering.llvm.mask_move_fold import without_mask_move_folds
from xlir.lowering.llvm.memory import lower_global
from xlir.lowering.llvm.passes import lower_kernels


def kernel_features() -> str:
    """This host's LLVM features, less AVX512VL where it has it, so that the
    kernels never meet LLVM 22's mask-move fold on x86
    (lowering/llvm/mask_move_fold.py; the kernels' per-element sign tests
    of narrow float conversions met it on Sapphire Rapids and later: the
    wrong sign on zeros), and less the features that need it."""
    features = llvm.get_host_cpu_features()
    flat = features.flatten()
    return without_mask_move_folds(flat) if features.get("avx512vl") else flat


class HostKernelEmitter(LLVMEmitter):
    """The neutral lowering; a kernel's buffers are `noalias` where no launch
    of the original program overlaps them (`distinct`, by kernel name: the
    rewritten kernels are compiled without the host code that launches
    them)."""

    target = "nvptx-emu"

    def __init__(self, distinct: dict[str, list[bool]]):
        super().__init__()
        self.distinct = distinct

    def kernel_function(self, kernel: KernelOp, distinct: Sequence[bool]):
        function, region = super().kernel_function(kernel, distinct)
        function.arg_attrs = noalias_attributes(
            self.distinct.get(kernel.sym_name.data, [False] * len(distinct))
        )
        return function, region


class HostCode:
    """Native code of kernels, loaded in this process: `address(name)`."""

    def __init__(
        self,
        kernels: Sequence[KernelOp],
        globals_: Sequence[GlobalOp],
        distinct: dict[str, list[bool]],
    ):
        names = [k.sym_name.data for k in kernels]
        module = ModuleOp([*(g.clone() for g in globals_), *kernels])
        lower_kernels(module, HostKernelEmitter(distinct), "nvptx-emu kernels")
        for global_ in [op for op in module.ops if isinstance(op, GlobalOp)]:
            module.body.block.insert_op_before(lower_global(global_), global_)
            global_.detach()
            global_.erase()
        machine = jit_target_machine(
            llvm.get_process_triple(), llvm.get_host_cpu_name(), kernel_features()
        )
        code = object_code(llvm_ir(module, machine.triple, exported=names), machine)
        objects = [code]
        if elf_symbols(code)[1] & set(HALF_CONVERSIONS):
            objects.append(half_conversions_object())
        loaded = LoadedObject(objects)
        self.loaded = loaded  # the engine runs the kernels' code
        self.addresses = {name: loaded.address(name) for name in names}

    def address(self, name: str) -> int:
        return self.addresses[name]
