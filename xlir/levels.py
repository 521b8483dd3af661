"""Which level of IR a module is at (DESIGN.md, "Levels of IR"), so that a
compiler runs only what that level still needs."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.func import FuncOp


def is_loop_level(module: ModuleOp) -> bool:
    """Whether the module was lowered to the loop level: it holds kernels,
    globals, or functions on buffers (memrefs) rather than tensors."""
    for op in module.ops:
        if op.name in ("loop.kernel", "loop.global"):
            return True
        if isinstance(op, FuncOp):
            ftype = op.function_type
            if any(isinstance(t, MemRefType) for t in (*ftype.inputs, *ftype.outputs)):
                return True
    return False
