"""The loop interpreter's engine: every op becomes a closure over a register
file, compiled once before anything runs.

A kernel or host function becomes a `Routine`: a list of *steps*, each a
Python function `step(env)` that reads its operands from `env` (a list, one
slot per SSA value) and writes its results there. Regions (loop bodies,
branches) are `Block`s of steps that share their routine's `env`.

Loop bodies are *vectorized*: `loop.parallel` runs its body once over the
whole index space, with induction variables as numpy index grids, so every
value in the body is an array over the iterations (loads gather, stores
scatter). Each parallel prepends its dimensions to the grid of the enclosing
one, so values of outer scopes broadcast against inner ones unchanged.
Slot 0 of `env` holds the *lane mask* (None: every lane is active): a branch
or a loop whose condition differs between iterations runs under a mask that
stores and loads respect. A parallel whose body holds an op that cannot run
masked (`scf.while`, `scf.index_switch`, calls) is interpreted one iteration
at a time instead.

A factory that cannot handle an op raises `Unsupported`; all of them are
collected with their locations into one error before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import func, memref, scf
from xdsl.ir import Block as IRBlock
from xdsl.ir import Operation, Region, SSAValue
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import ReturnOp
from xlir.dialects.loop.loops import YieldOp
from xlir.evaluator.hlo.types import Unsupported
from xlir.evaluator.registry import OpTable

from xlir.diagnostics import XlirError, format_at_op

Env = list[Any]
Step = Callable[[Env], None]
Factory = Callable[[Operation, "Scope"], Step | None]

OPS: OpTable[Factory] = OpTable()
"""op class -> factory(op, scope) -> step (None: the op does nothing at run
time)."""

impl = OPS.impl
"""`@impl(SomeOp, ...)`: register a step factory for the op classes given."""

TERMINATORS = {
    func.ReturnOp,
    ReturnOp,
    YieldOp,
    scf.YieldOp,
    scf.ConditionOp,
    memref.AllocaScopeReturnOp,
}

SCALAR_ONLY = {scf.WhileOp, scf.IndexSwitchOp, func.CallOp, LaunchOp}
"""Ops whose control flow cannot run under a lane mask: a `loop.parallel`
holding one runs iteration by iteration."""


def fail(
    op: Operation, message: str, sources: dict[str, str] | None = None
) -> XlirError:
    """A run-time diagnostic at the op."""
    return XlirError(format_at_op(op, f"'{op.name}' {message}", sources))


class Block:
    """A compiled block: its steps, and the slots of its terminator's operands."""

    __slots__ = ("ops", "steps", "yields")

    def __init__(self, steps: list[Step], ops: list[Operation], yields: list[int]):
        self.steps = steps
        self.ops = ops
        self.yields = yields

    def run(self, env: Env) -> None:
        index = 0
        try:
            for step in self.steps:
                step(env)
                index += 1
        except (XlirError, RecursionError):
            raise
        except Exception as error:
            op = self.ops[index]
            raise XlirError(
                format_at_op(op, f"'{op.name}' failed in the loop interpreter: {error}")
            ) from error


class Routine:
    """A compiled kernel or function: call it with its arguments' values."""

    def __init__(self, name: str):
        self.name = name
        self.size = 1
        self.args: list[int] = []
        self.body: Block | None = None

    def __call__(self, arguments: Sequence[Any]) -> list[Any]:
        assert self.body is not None
        env: Env = [None] * self.size
        for slot, value in zip(self.args, arguments, strict=True):
            env[slot] = value
        self.body.run(env)
        return [env[s] for s in self.body.yields]


class Program:
    """Shared by the scopes of one module: routines by name, globals, errors."""

    def __init__(self, sources: dict[str, str] | None, vectorize: bool):
        self.sources = sources or {}
        self.vectorize = vectorize
        self.routines: dict[str, Routine] = {}
        self.globals: dict[str, Any] = {}
        self.errors: list[str] = []

    def report(self, op: Operation, message: str) -> None:
        self.errors.append(format_at_op(op, message, self.sources))


class Scope:
    """Compiles the ops of one routine: slot numbering, and how the current
    block runs (`rank`: the dimensions of the enclosing parallels' grid;
    `vector`: whether values are arrays over that grid)."""

    def __init__(self, program: Program, routine: Routine):
        self.program = program
        self.routine = routine
        self.slots: dict[SSAValue, int] = {}
        self.rank = 0
        self.vector = False

    def slot(self, value: SSAValue) -> int:
        found = self.slots.get(value)
        if found is None:
            found = self.slots[value] = self.routine.size
            self.routine.size += 1
        return found

    def slots_of(self, values: Sequence[SSAValue]) -> list[int]:
        return [self.slot(v) for v in values]

    def fail(self, op: Operation, message: str) -> XlirError:
        return fail(op, message, self.program.sources)

    def block(self, block: IRBlock) -> Block:
        steps: list[Step] = []
        ops: list[Operation] = []
        yields: list[int] = []
        for op in block.ops:
            if type(op) in TERMINATORS:
                yields = self.slots_of(op.operands)
                continue
            step = self.compile_op(op)
            if step is not None:
                steps.append(step)
                ops.append(op)
        return Block(steps, ops, yields)

    def region(self, region: Region) -> Block:
        if not region.blocks:
            return Block([], [], [])
        if len(region.blocks) != 1:
            raise Unsupported("regions of more than one block are not supported")
        return self.block(region.blocks[0])

    def compile_op(self, op: Operation) -> Step | None:
        factory = OPS.lookup(op)
        if factory is None:
            self.program.report(
                op, f"'{op.name}' is not supported by the loop interpreter"
            )
            self._scan_nested(op)
            return None
        try:
            return factory(op, self)
        except Unsupported as error:
            self.program.report(op, f"'{op.name}': {error}")
            self._scan_nested(op)
            return None

    def _scan_nested(self, op: Operation) -> None:
        """Report the unknown ops inside an op that is not compiled."""
        for nested in op.walk():
            if (
                nested is not op
                and type(nested) not in OPS
                and type(nested) not in TERMINATORS
            ):
                self.program.report(
                    nested, f"'{nested.name}' is not supported by the loop interpreter"
                )


def holds_scalar_only(op: Operation) -> bool:
    """Whether a region of the op holds control flow that cannot run masked."""
    return any(type(nested) in SCALAR_ONLY for nested in op.walk() if nested is not op)
