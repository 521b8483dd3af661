"""PTX of a loop-level module mapped onto the GPU (`map-to-gpu`), through
LLVM's NVPTX backend, and cubins through `ptxas` where it is installed.

`compile_ptx` lowers a copy of the module with `NvptxLoopToLLVMPass`,
translates it with xDSL's translation (lowering/llvm/llvmlite_module.py),
sets what xDSL's llvm dialect cannot say on the translated kernels (the
`ptx_kernel` calling convention, `readonly` on the buffers a kernel never
writes, so that LLVM loads them with `ld.global.nc`; an undefined initial
value for shared memory, which PTX cannot initialize) and emits PTX for
`sm_XX` at -O2. The launch of each kernel (`gpu_launch`) and its
parameters come with the text (`KernelInfo`).
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp, StoreOp, ViewOp
from xlir.lowering.llvm.function import llvm_type
from xlir.lowering.llvm.llvmlite_module import llvm_ir, optimize, target_machine
from xlir.passes.loop.map_to_gpu import launch_of
from xlir.targets.nvptx.lowering import SHARED_SPACE, NvptxLoopToLLVMPass

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
    read_only: tuple[bool, ...]


def _root(buffer: SSAValue) -> SSAValue:
    """The kernel argument a view or reshape of a buffer comes from."""
    while isinstance(buffer.owner, ViewOp | ReshapeOp):
        buffer = buffer.owner.operands[0]
    return buffer


def read_only_arguments(kernel: KernelOp) -> tuple[bool, ...]:
    """Per argument: a buffer the kernel never stores to."""
    written = {_root(op.buffer) for op in kernel.walk() if isinstance(op, StoreOp)}
    return tuple(
        isinstance(arg.type, MemRefType) and arg not in written
        for arg in kernel.body.block.args
    )


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
        found.append(
            KernelInfo(
                kernel.sym_name.data, *launch, params, read_only_arguments(kernel)
            )
        )
    return found


def _finish(kernels: list[KernelInfo]):
    """What xDSL's translation cannot say (module docstring), set on the
    translated module."""

    def finish(module: ir.Module) -> None:
        for kernel in kernels:
            function = module.get_global(kernel.name)
            assert isinstance(function, ir.Function)
            function.calling_convention = "ptx_kernel"
        for variable in module.global_values:
            if isinstance(variable, ir.GlobalVariable) and (
                variable.type.addrspace == SHARED_SPACE
            ):
                variable.initializer = ir.Constant(variable.value_type, ir.Undefined)

    return finish


def compile_ptx(
    module: ModuleOp, sm: int = DEFAULT_SM, sources: dict[str, str] | None = None
) -> tuple[str, list[KernelInfo]]:
    """PTX of a mapped loop-level module (left as it is), and its kernels."""
    kernels = kernel_infos(module)
    device = module.clone()
    run_pipeline(make_context(), device, [NvptxLoopToLLVMPass()], sources, verify=False)
    text = llvm_ir(device, TRIPLE, runtime=_finish(kernels))
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
