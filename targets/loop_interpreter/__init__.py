"""Executes loop-level modules (loop, device, arith, math, memref, scf, func)
on numpy arrays: the `interpreter` target runs a module with this when it is
at the loop level (`xlir.levels.is_loop_level`), with the same tensors in and out as the
HLO program it was lowered from.

xDSL's interpreter framework runs one op per element in Python (1.4 s for a
64x128 elementwise loop nest on the development machine); this one compiles
each op once to a closure and runs `loop.parallel` bodies vectorized over
their whole index space (`engine.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Attribute
from xlir.targets.base import (
    HostExecutable,
    MemoryStats,
    Platform,
    Signature,
    TensorSpec,
)
from xlir.targets.loop_interpreter.image import LoopModule, function_type

from xlir.diagnostics import XlirError

__all__ = ["LoopExecutable", "LoopModule", "loop_signature"]


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


class LoopExecutable(HostExecutable):
    """A loop-level module on the interpreter's device (the host)."""

    def __init__(
        self,
        platform: Platform,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
    ):
        super().__init__(platform, loop_signature(module, function), module)
        self.image = LoopModule(module, sources)

    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run on already checked host arrays."""
        return self.image.call(self.signature.function, arrays)

    def memory_stats(self) -> MemoryStats:
        """Read off the host function: temps are its allocations it does not
        return (the arena), aliases the arguments it returns, constants the
        globals."""
        function = self.image.functions[self.signature.function]
        block = function.regions[0].blocks[0]
        returned = set(block.last_op.operands) if block.last_op else set()
        temp = alias = 0
        for op in function.walk():
            if op.name == "device.alloc" and op.results[0] not in returned:
                temp += _bytes(op.results[0].type)
        for value in returned:
            if value in block.args:
                alias += _bytes(value.type)
        return MemoryStats(
            argument_size_in_bytes=sum(a.nbytes for a in self.signature.arguments),
            output_size_in_bytes=sum(r.nbytes for r in self.signature.results),
            alias_size_in_bytes=alias,
            temp_size_in_bytes=temp,
            constant_size_in_bytes=sum(
                g.nbytes for g in self.image.program.globals.values()
            ),
        )


def _bytes(type_: Attribute) -> int:
    return _spec("", type_).nbytes
