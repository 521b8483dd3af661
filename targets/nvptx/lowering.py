"""The nvptx target's lowering to the llvm dialect: the neutral lowering
(lowering/llvm/) with a GPU's overrides (docs/nvptx.md).

* `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim` (x)
  read PTX's special registers (`llvm.nvvm.read.ptx.sreg.*`);
  `gpu.barrier` is `llvm.nvvm.barrier0`; `simt.shuffle_xor` is
  `llvm.nvvm.shfl.sync.bfly` over the full warp; `simt.shared_memory` is
  a variable in address space 3 (shared), one per op.
* Kernels are external functions named like their `loop.kernel`, taking
  generic pointers (`noalias` where no launch passes overlapping buffers);
  the `ptx_kernel` calling convention and `readonly` are set after
  translation (`ptx.py`: xDSL's llvm dialect rejects the convention).
* A transcendental the loop level left (`expand-math` turns those it can
  into arithmetic) has no library to call: each one is reported.

`NvptxLoopToLLVMPass` lowers the kernels and then removes the host
functions and the globals no kernel reads: what is left is the device
module, which ptx.py turns into PTX. The host schedule runs from the
module as it was before this pass (targets/device_schedule.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i32,
    i64,
)
from xdsl.ir import Operation, Region
from xlir.analysis.kernel_aliasing import launches_by_kernel, offset_in_allocation
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.simt import SharedMemoryOp, ShuffleXorOp
from xlir.lowering.llvm.emitter import LLVMEmitter
from xlir.lowering.llvm.function import (
    FunctionBuilder,
    llvm_type,
    noalias_attributes,
)
from xlir.lowering.llvm.memory import lower_global
from xlir.lowering.llvm.passes import LoopToLLVMPass, lower_kernels
from xlir.lowering.llvm.scalars import MATH_FUNCTIONS

SPECIAL_REGISTERS = {
    "gpu.thread_id": "tid",
    "gpu.block_id": "ctaid",
    "gpu.block_dim": "ntid",
    "gpu.grid_dim": "nctaid",
}
"""gpu dialect op -> the PTX special register it reads (`.x` only)."""

ALIGN = "llvm.align"
"""The argument attribute the translation to LLVM IR writes as LLVM's `align N`."""

SHARED_SPACE = 3
"""LLVM NVPTX's address space of shared memory."""

ALIGNMENT = 16
"""The alignment a kernel's buffer parameter is declared with where every
launch passes one at such an offset in its allocation (`cuMemAlloc` aligns
to 256 bytes): a thread's neighbouring elements then load as one vector
(`ld.global.nc.v4.f32`)."""

FULL_WARP = -1
"""The lane mask of a shuffle every lane takes part in (0xffffffff as an i32)."""


def _special_register(register: str):
    def lower(b: FunctionBuilder, op: Operation) -> None:
        read = b.intrinsic(f"llvm.nvvm.read.ptx.sreg.{register}.x", [], i32)
        b.bind(op.results[0], b.emit(llvm.ZExtOp(read, i64)))

    return lower


def _barrier(b: FunctionBuilder, op: Operation) -> None:
    b.intrinsic("llvm.nvvm.barrier0", [], None)


def _shuffle_xor(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, ShuffleXorOp)
    kind = "f32" if op.value.type != i32 else "i32"
    mask = b.const(FULL_WARP, i32)
    offset = b.const(op.offset.value.data, i32)
    clamp = b.const(31, i32)
    result = b.intrinsic(
        f"llvm.nvvm.shfl.sync.bfly.{kind}",
        [mask, b.get(op.value), offset, clamp],
        op.value.type,
    )
    b.bind(op.result, result)


def _shared_memory(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, SharedMemoryOp)
    type_ = op.buffer.type
    assert isinstance(type_, MemRefType)
    function = b.region.parent_op()
    assert isinstance(function, llvm.FuncOp)
    number = sum(1 for n in b.module.globals if n.startswith(function.sym_name.data))
    name = f"{function.sym_name.data}_shared_{number}"
    count = 1
    for extent in type_.get_shape():
        count *= extent
    element = llvm_type(type_.element_type, op)
    b.module.globals[name] = llvm.GlobalOp(
        llvm.LLVMArrayType(count, element),
        name,
        "internal",
        addr_space=SHARED_SPACE,
        alignment=16,
    )
    pointer = llvm.LLVMPointerType(IntAttr(SHARED_SPACE))
    b.bind(op.buffer, b.emit(llvm.AddressOfOp(name, pointer)))


def aligned_arguments(module: ModuleOp) -> dict[str, list[bool]]:
    """Per kernel and argument: whether it is a buffer every launch passes
    at an `ALIGNMENT`-aligned offset of its allocation (a kernel never
    launched: none)."""
    launches = launches_by_kernel(module)
    found: dict[str, list[bool]] = {}
    for kernel in module.body.block.ops:
        if not isinstance(kernel, KernelOp):
            continue
        calls = launches.get(kernel.sym_name.data, [])
        found[kernel.sym_name.data] = [
            bool(calls)
            and isinstance(type_, MemRefType)
            and all(offset_in_allocation(c.args[n]) % ALIGNMENT == 0 for c in calls)
            for n, type_ in enumerate(kernel.argument_types)
        ]
    return found


class NvptxEmitter(LLVMEmitter):
    """The neutral lowering with the GPU's ops and kernel ABI (module
    docstring)."""

    target = "nvptx"

    def __init__(self, aligned: dict[str, list[bool]] | None = None) -> None:
        super().__init__()
        self.aligned = aligned or {}
        """Kernel name -> per argument: whether every launch passes a buffer
        `ALIGNMENT`-aligned (`aligned_arguments`)."""
        for name, register in SPECIAL_REGISTERS.items():
            self.lowerings[name] = _special_register(register)
        self.lowerings["gpu.barrier"] = _barrier
        self.lowerings["simt.shuffle_xor"] = _shuffle_xor
        self.lowerings["simt.shared_memory"] = _shared_memory

    def problem(self, op: Operation) -> str | None:
        if op.name in MATH_FUNCTIONS:
            return (
                f"calls the math function '{MATH_FUNCTIONS[op.name]}', which a GPU "
                "kernel has no library for (expand-math leaves it: it has no "
                "arithmetic expansion for this type)"
            )
        if op.name in SPECIAL_REGISTERS:
            dimension = op.properties.get("dimension")
            if str(dimension) != "#gpu<dim x>":
                return f"reads dimension {dimension}; the target maps kernels on x only"
        return super().problem(op)

    def kernel_function(
        self, kernel: KernelOp, distinct: Sequence[bool]
    ) -> tuple[llvm.FuncOp, Region]:
        """An external function (the entry PTX exports), `noalias` on the
        buffers `distinct` marks."""
        function, region = super().kernel_function(kernel, distinct)
        function.linkage = llvm.LinkageAttr("external")
        function.no_inline = None
        aligned = self.aligned.get(kernel.sym_name.data, [])
        attributes = []
        for n, flags in enumerate(noalias_attributes(distinct)):
            if n < len(aligned) and aligned[n]:
                flags = DictionaryAttr(
                    {**flags.data, ALIGN: IntegerAttr(ALIGNMENT, 64)}
                )
            attributes.append(flags)
        function.arg_attrs = ArrayAttr(attributes)
        return function, region


@dataclass(frozen=True)
class NvptxLoopToLLVMPass(LoopToLLVMPass):
    """Kernels to the llvm dialect with `NvptxEmitter`, then only the device
    module kept (module docstring)."""

    name = "nvptx-loop-to-llvm"

    emitter = NvptxEmitter

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        emitter = NvptxEmitter(aligned_arguments(op))
        lower_kernels(op, emitter, self.name, self.bounds_check)
        read = {
            o.global_name.root_reference.data
            for o in op.walk()
            if isinstance(o, llvm.AddressOfOp)
        }
        for inner in list(op.body.block.ops):
            if isinstance(inner, GlobalOp) and inner.sym_name.data in read:
                op.body.block.insert_op_before(lower_global(inner), inner)
            if isinstance(inner, func.FuncOp | GlobalOp):
                inner.detach()
                inner.erase()
