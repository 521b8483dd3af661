"""xDSL's `llvm` dialect as xlir loads it: its `llvm.func` is a kernel that
`device.launch` may name (`LaunchableKernel`), as a target's own kernel op
is. Between `loop-to-llvm` and `device-to-llvm` the host schedule launches
the kernels lowered to LLVM (`LLVMEmitter.kernel_function`: the cpu's, the
nvptx targets'); the trait is added through xDSL's `OpTraits.add_trait`,
as the op is xDSL's.
"""

from __future__ import annotations

from xdsl.dialects.llvm import LLVM, FuncOp
from xlir.dialects.device import LaunchableKernel

FuncOp.traits.add_trait(LaunchableKernel())

__all__ = ["LLVM", "FuncOp"]
