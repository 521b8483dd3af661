"""Executes loop-level modules (loop, device, arith, math, memref, scf, func)
on numpy arrays: the `interpreter` target runs the kernels of a module at
the loop level (`xlir.levels.is_loop_level`) with this, through the generic
executor of its host schedule (`targets/device_schedule.py`).

xDSL's interpreter framework runs one op per element in Python (1.4 s for a
64x128 elementwise loop nest on the development machine); this one compiles
each op once to a closure and runs `loop.parallel` bodies vectorized over
their whole index space (`engine.py`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xlir.targets.base import Signature, TensorSpec
from xlir.targets.loop_interpreter.image import LoopModule, function_type

from xlir.diagnostics import XlirError

__all__ = ["LoopModule", "loop_signature"]


def _spec(name: str, type_: object) -> TensorSpec:
    if isinstance(type_, MemRefType):
        type_ = TensorType(type_.element_type, type_.get_shape())
    return TensorSpec.from_type(name, type_)  # pyright: ignore[reportArgumentType]


def loop_signature(module: ModuleOp, function: str) -> Signature:
    """A host function's signature as tensors (memrefs read as tensors)."""
    found = [
        op
        for op in module.ops
        if op.name == "func.func" and op.properties["sym_name"].data == function  # pyright: ignore[reportAttributeAccessIssue]
    ]
    if not found:
        raise XlirError(f"error: there is no function @{function} in the module")
    ftype = function_type(found[0])
    return Signature(
        function,
        tuple(_spec(f"arg{i}", t) for i, t in enumerate(ftype.inputs.data)),
        tuple(_spec(f"result{i}", t) for i, t in enumerate(ftype.outputs.data)),
    )
