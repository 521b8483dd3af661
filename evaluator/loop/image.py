"""A loop-level module prepared to run: its globals built once, each kernel
and function compiled to a routine; call a host function with host arrays.

Every op the interpreter cannot run is reported at once, with its location,
before anything runs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Attribute, Operation
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.evaluator.hlo.types import Unsupported, dense_to_numpy

# Op modules register their factories on import.
from xlir.evaluator.loop import (  # noqa: F401
    arith,
    host,
    loops,
    math_ops,
    memory,
    vector,
)
from xlir.evaluator.loop.engine import Program, Routine, Scope
from xlir.evaluator.loop.values import from_buffer, to_buffer

from xlir.diagnostics import XlirError

ROUTINES = {func.FuncOp, KernelOp}


def _name(op: Operation) -> str:
    return op.properties["sym_name"].data  # pyright: ignore[reportAttributeAccessIssue]


def function_type(op: Operation) -> FunctionType:
    ftype = op.properties["function_type"]
    assert isinstance(ftype, FunctionType)
    return ftype


class LoopModule:
    """See the module docstring. `vectorize=False` runs every parallel loop
    one iteration at a time (the reference for the vectorized path)."""

    def __init__(
        self,
        module: ModuleOp,
        sources: dict[str, str] | None = None,
        vectorize: bool = True,
    ):
        self.module = module
        self.program = program = Program(sources, vectorize)
        self.functions: dict[str, Operation] = {}
        bodies: list[tuple[Routine, Operation]] = []
        for op in module.ops:
            if isinstance(op, GlobalOp):
                self._add_global(op)
            elif type(op) in ROUTINES:
                if isinstance(op, func.FuncOp):
                    self.functions[_name(op)] = op
                if op.regions[0].blocks:
                    routine = program.routines[_name(op)] = Routine(_name(op))
                    bodies.append((routine, op))
            else:
                program.report(
                    op,
                    f"'{op.name}' is not supported at the top of a loop-level module",
                )
        for routine, op in bodies:
            scope = Scope(program, routine)
            block = op.regions[0].blocks[0]
            routine.args = scope.slots_of(block.args)
            try:
                routine.body = scope.block(block)
            except Unsupported as error:
                program.report(op, f"'{op.name}' @{routine.name}: {error}")
        if program.errors:
            count = len(program.errors)
            head = (
                f"the loop interpreter does not support {count} op(s) of this module:"
                if count > 1
                else "the loop interpreter does not support an op of this module:"
            )
            raise XlirError(head + "\n" + "\n".join(program.errors))

    def _add_global(self, op: Operation) -> None:
        value = op.properties["value"]
        try:
            buffer = to_buffer(dense_to_numpy(value), op.buffer_type)  # pyright: ignore[reportAttributeAccessIssue]
        except Unsupported as error:
            self.program.report(op, f"'{op.name}': {error}")
            return
        buffer.flags.writeable = False
        self.program.globals[_name(op)] = buffer

    def call(self, name: str, arguments: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run a host function on host arrays (tensor values); host arrays out."""
        function = self.functions.get(name)
        routine = self.program.routines.get(name)
        if function is None or routine is None:
            raise XlirError(f"error: there is no function @{name} with a body")
        ftype = function_type(function)
        buffers = [
            _to_argument(array, type_)
            for array, type_ in zip(arguments, ftype.inputs.data, strict=True)
        ]
        with np.errstate(all="ignore"):
            results = routine(buffers)
        return [
            from_buffer(r, t) for r, t in zip(results, ftype.outputs.data, strict=True)
        ]


def _to_argument(array: np.ndarray, type_: Attribute) -> np.ndarray:
    try:
        return to_buffer(array, type_)
    except Unsupported as error:
        raise XlirError(f"error: {error}") from None
