"""The extension point of the target-neutral lowering to LLVM
(lowering/llvm/emitter.py): emitters configured here, in the test, lower a
loop-level kernel through lowering/llvm unchanged, as a new target's would
(the NVPTX one: buffers in the global address space, libdevice's math
functions, kernels as external functions, PTX out of LLVM)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import AnyFloat, ModuleOp
from xdsl.ir import Region
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.emitter import LLVMEmitter
from xlir.lowering.llvm.llvmlite_module import (
    known_architectures,
    llvm_ir,
    optimize,
    target_machine,
)
from xlir.lowering.llvm.passes import lower_kernels
from xlir.targets.cpu.llvm_lowering import CpuEmitter

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

KERNEL = """
builtin.module {
  loop.kernel @softplus(%x: memref<64xf32>, %y: memref<64xf32>) {
    %one = arith.constant 1.0 : f32
    loop.parallel (%i) = (0) to (64) step (1) attributes {threads = 4 : i64} {
      %v = loop.load %x[%i] : memref<64xf32>
      %e = math.exp %v : f32
      %s = arith.addf %e, %one : f32
      %l = math.log %s : f32
      loop.store %l, %y[%i] : memref<64xf32>
    }
    loop.return
  }
}
"""


class InOrderOnly(LLVMEmitter):
    """A target whose loops must have been lowered before: no `loop.parallel`."""

    target = "in-order-only"

    def __init__(self) -> None:
        super().__init__()
        del self.lowerings["loop.parallel"]


class GlobalMemory(LLVMEmitter):
    """A GPU-like target: buffers in address space 1, libdevice's math
    functions, kernels external (the host launches them from elsewhere)."""

    target = "global-memory"
    address_space = 1

    def math_function(self, name: str, type_: AnyFloat) -> str:
        return f"__nv_{name}" + ("f" if type_.bitwidth == 32 else "")

    def kernel_function(
        self, kernel: KernelOp, distinct: Sequence[bool]
    ) -> tuple[llvm.FuncOp, Region]:
        function, region = super().kernel_function(kernel, distinct)
        function.linkage = llvm.LinkageAttr("external")
        return function, region


def _lowered(emitter: LLVMEmitter) -> ModuleOp:
    module = parse_module(make_context(), KERNEL, "softplus.mlir")
    lower_kernels(module, emitter, "test-to-llvm")
    module.verify()
    return module


def _function(module: ModuleOp, name: str) -> llvm.FuncOp:
    (function,) = [
        op
        for op in module.body.block.ops
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == name
    ]
    return function


def test_a_target_without_parallel_loops_gets_a_located_diagnostic() -> None:
    module = parse_module(make_context(), KERNEL, "softplus.mlir")
    with pytest.raises(XlirError) as error:
        lower_kernels(module, InOrderOnly(), "test-to-llvm")
    message = str(error.value)
    assert "cannot lower 1 op(s) of this module for target 'in-order-only'" in message
    assert (
        "softplus.mlir:5:5: error: 'loop.parallel' has no lowering for target "
        "'in-order-only'" in message
    )
    assert "loop.kernel" in str(module)  # nothing changed


def test_the_base_emitter_runs_a_threaded_loop_in_order() -> None:
    """The `{threads}` mark is the cpu target's business: the neutral
    lowering makes a plain loop, the cpu's calls its thread pool."""
    text = str(_lowered(LLVMEmitter()))
    assert "parallel_for" not in text and "chunk" not in text
    assert "llvm.call @expf" in text and "llvm.call @logf" in text
    assert "xlir.parallel_for" in str(_lowered(CpuEmitter()))


def test_a_second_target_changes_abi_address_space_and_math_calls() -> None:
    module = _lowered(GlobalMemory())
    kernel = _function(module, "softplus")
    assert kernel.linkage.linkage.data == "external"
    inputs = [str(t) for t in kernel.function_type.inputs.data]
    assert inputs == ["!llvm.ptr<1>", "!llvm.ptr<1>"]
    text = str(module)
    assert "llvm.call @__nv_expf" in text and "llvm.call @__nv_logf" in text
    assert "@expf" not in text
    # addresses computed from a buffer stay in its space, through LLVM IR
    assert "!llvm.ptr<1>, f32" in text
    ir = llvm_ir(module)
    assert 'define void @"softplus"(ptr addrspace(1) %' in ir
    assert "getelementptr inbounds float, ptr addrspace(1)" in ir


@pytest.mark.skipif(
    "nvptx64" not in known_architectures(), reason="this LLVM has no NVPTX target"
)
def test_the_second_target_compiles_to_ptx_through_the_neutral_half() -> None:
    """LLVM's NVPTX back end reads address space 1 as global memory."""
    module = _lowered(GlobalMemory())
    machine = target_machine("nvptx64-nvidia-cuda", "sm_80")
    ptx = machine.emit_assembly(optimize(llvm_ir(module, machine.triple), machine))
    assert ".visible .func softplus(" in ptx
    assert "ld.global.b32" in ptx and "st.global.b32" in ptx
    assert "call.uni" in ptx and "__nv_expf" in ptx
