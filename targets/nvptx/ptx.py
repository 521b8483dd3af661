"""PTX of a loop-level module mapped onto the GPU (`map-to-gpu`), through
LLVM's NVPTX backend, and cubins through `ptxas` where it is installed.

`compile_ptx` lowers a copy of the module with `NvptxLoopToLLVMPass`,
writes it as LLVM IR (lowering/llvm/llvmlite_module.py) with the
`ptx_kernel` calling convention of the kernels (which xDSL's llvm dialect
cannot say), the block size of a kernel that runs on its own launch only as
its `nvvm.maxntid` attribute, so that ptxas keeps its registers within what
a block of that many threads may hold (shared memory, which PTX cannot
initialize, is an internal global without a value: undefined), and emits
PTX for `sm_XX` at -O2. LLVM's -O2 finds the buffers a kernel only reads, which, marked
`noalias`, NVPTX loads through the non-coherent cache (`ld.global.nc`). The launch of each kernel (`gpu_launch`) and its
parameters come with the text (`KernelInfo`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp, StringAttr
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.function import llvm_type
from xlir.lowering.llvm.llvmlite_module import llvm_ir, optimize, target_machine
from xlir.passes.loop.map_to_gpu import launch_of
from xlir.targets.nvptx.lowering import NvptxLoopToLLVMPass

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.pass_manager import run_pipeline

TRIPLE = "nvptx64-nvidia-cuda"
DEFAULT_SM = 80
"""sm_80 (Ampere): the oldest architecture whose PTX the H100 and H200 run."""


@dataclass(frozen=True)
class KernelInfo:
    """What launching one kernel takes: its grid and blocks (one-
    dimensional), static shared memory, and parameters in order ("ptr" for
    a buffer, else the LLVM type of a scalar passed by value)."""

    name: str
    blocks: int
    threads: int
    shared_bytes: int
    params: tuple[str, ...]
    any_grid: bool = True
    """Whether it is right on any grid (its work in grid-stride loops);
    False for a kernel with barriers or shuffles (a row reduction, block
    phases), which must run on its own grid."""


def kernel_infos(module: ModuleOp) -> list[KernelInfo]:
    """The launch of every kernel of a module `map-to-gpu` mapped."""
    found: list[KernelInfo] = []
    for kernel in module.body.block.ops:
        if not isinstance(kernel, KernelOp):
            continue
        launch = launch_of(kernel)
        if launch is None:
            raise XlirError(
                f"error: kernel @{kernel.sym_name.data} is not mapped onto the GPU; "
                "run map-to-gpu first"
            )
        params = tuple(
            "ptr" if isinstance(t, MemRefType) else str(llvm_type(t, kernel))
            for t in kernel.argument_types
        )
        block_wide = any(
            op.name in ("gpu.barrier", "simt.shuffle_xor") for op in kernel.walk()
        )
        found.append(KernelInfo(kernel.sym_name.data, *launch, params, not block_wide))
    return found


def _mark_blocks(module: ModuleOp, kernels: list[KernelInfo]) -> None:
    """The block size of each kernel that runs on its own launch only, as
    its function's `nvvm.maxntid` attribute (module docstring)."""
    own = {k.name: k.threads for k in kernels if not k.any_grid}
    for op in module.body.block.ops:
        if isinstance(op, llvm.FuncOp) and op.sym_name.data in own:
            threads = StringAttr(str(own[op.sym_name.data]))
            op.passthrough = ArrayAttr(
                [ArrayAttr([StringAttr("nvvm.maxntid"), threads])]
            )


def compile_ptx(
    module: ModuleOp, sm: int = DEFAULT_SM, sources: dict[str, str] | None = None
) -> tuple[str, list[KernelInfo]]:
    """PTX of a mapped loop-level module (left as it is), and its kernels."""
    kernels = kernel_infos(module)
    device = module.clone()
    run_pipeline(make_context(), device, [NvptxLoopToLLVMPass()], sources, verify=False)
    _mark_blocks(device, kernels)
    conventions = dict.fromkeys((k.name for k in kernels), "ptx_kernel")
    text = llvm_ir(device, TRIPLE, calling_conventions=conventions)
    machine = ptx_machine(sm)
    return machine.emit_assembly(optimize(text, machine)), kernels


def ptx_machine(sm: int, opt: int = 2):
    """LLVM's NVPTX machine for `sm_<sm>` (no PTX features forced: the PTX
    version is the oldest that architecture needs, which drivers accept)."""
    if sm < 20:
        raise XlirError(
            f"error: sm {sm} is not a CUDA compute capability; expected e.g. 80 "
            "(Ampere) or 90 (Hopper)"
        )
    try:
        return target_machine(TRIPLE, cpu=f"sm_{sm}", opt=opt)
    except ValueError as error:
        raise XlirError(f"error: {error}") from None
