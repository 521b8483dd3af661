"""`check-to-outputs`: a self-checking function becomes a program any target
runs and a checker the host runs after it, so `check.*` ops need no code in
any target.

A function `@f` whose body holds `check.*` (or `interpreter.probe`) ops is
split in three (docs/hlo-level.md, "Self-checking functions on every
target"):

- `@f` computes: the check ops are gone, and every value they read is an
  extra result (after the function's own), in the order first read;
- `@f.checks` (private) takes those results as arguments and holds the check
  ops, in their order and at their locations; the host runs it on the
  reference interpreter, whose kernels compare and report;
- `@f.inputs` (private, with `constants-as-inputs=true`, the default) returns
  the function's top-level constants, which `@f` now takes as extra
  arguments (after its own). The target thus computes every op, instead of
  `fold-constants` evaluating the test on the host while compiling it.
  Constants that a region reads stay, and so do a dynamic op's shape
  operands (`refine-shapes` makes the op static from them).

A probe at the top level is moved to the checker with the value it records
(it runs once, so records one value); a check or probe inside a region may
run any number of times and cannot become one result: it is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue, Use
from xdsl.passes import ModulePass
from xlir.dialects.interpreter import ProbeOp
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.passes.hlo.refine_shapes.static_forms import SHAPE_OPERANDS

from xlir.diagnostics import XlirError, format_at_op

CHECKS_SUFFIX = ".checks"
INPUTS_SUFFIX = ".inputs"


def is_check_op(op: Operation) -> bool:
    """A check op, or a probe (which records a value for one)."""
    return op.name.startswith("check.") or isinstance(op, ProbeOp)


def _moved_ops(func: FuncOp) -> list[Operation]:
    """The check and probe ops of the function's body, in order; one nested
    in a region is an error."""
    block = func.body.block
    moved = []
    for op in func.body.walk():
        if not is_check_op(op):
            continue
        if op.parent_block() is not block:
            raise XlirError(
                format_at_op(
                    op,
                    f"check-to-outputs: '{op.name}' inside a region cannot become "
                    "a result (the region may run any number of times); only "
                    "check ops at the top level of a function can",
                )
            )
        moved.append(op)
    return moved


def _split_checks(func: FuncOp, moved: list[Operation]) -> FuncOp:
    """Move `moved` to a new checker function fed by new results of `func`."""
    block = func.body.block
    read: list[SSAValue] = []
    for op in moved:
        if isinstance(op, ProbeOp):
            op.result.replace_all_uses_with(op.operand)
        read += [v for v in op.operands if v not in read]
    checker = Block(arg_types=[v.type for v in read])
    argument = dict(zip(read, checker.args, strict=True))
    for op in moved:
        op.detach()
        op.operands = [argument[v] for v in op.operands]
        checker.add_op(op)
    checker.add_op(ReturnOp())
    terminator = block.last_op
    assert isinstance(terminator, ReturnOp)
    terminator.operands = [*terminator.operands, *read]
    func.update_function_type()
    name = func.sym_name.data + CHECKS_SUFFIX
    return FuncOp(name, (checker.arg_types, []), Region(checker), "private")


def _is_shape_operand(use: Use) -> bool:
    """An operand a dynamic op needs constant (`refine-shapes` makes the op
    static from it)."""
    op = use.operation
    names = SHAPE_OPERANDS.get(op.name, ())
    return any(getattr(op, name) is use.operation.operands[use.index] for name in names)


def _lift_constants(func: FuncOp) -> FuncOp:
    """Make the top-level constants that only top-level ops read arguments
    of `func`, returned by a new inputs function in the same order."""
    block = func.body.block
    lifted = [
        op
        for op in block.ops
        if isinstance(op, ConstantOp)
        and op.output.uses
        and all(
            use.operation.parent_block() is block and not _is_shape_operand(use)
            for use in op.output.uses
        )
    ]
    inputs = Block()
    for op in lifted:
        argument = block.insert_arg(op.output.type, len(block.args))
        argument.name_hint = op.output.name_hint
        op.output.replace_all_uses_with(argument)
        op.detach()
        inputs.add_op(op)
    inputs.add_op(ReturnOp(*[op.output for op in lifted]))
    func.update_function_type()
    name = func.sym_name.data + INPUTS_SUFFIX
    types = [op.output.type for op in lifted]
    return FuncOp(name, ([], types), Region(inputs), "private")


@dataclass(frozen=True)
class CheckToOutputsPass(ModulePass):
    name = "check-to-outputs"

    constants_as_inputs: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [
            f for f in op.body.block.ops if isinstance(f, FuncOp) and f.body.blocks
        ]
        names = {f.sym_name.data for f in functions}
        for func in functions:
            moved = _moved_ops(func)
            if not moved:
                continue
            self._check_free_names(func, names)
            new = [_split_checks(func, moved)]
            if self.constants_as_inputs:
                new.insert(0, _lift_constants(func))
            op.body.block.insert_ops_after(new, func)

    def _check_free_names(self, func: FuncOp, names: set[str]) -> None:
        for suffix in (CHECKS_SUFFIX, INPUTS_SUFFIX):
            name = func.sym_name.data + suffix
            if name in names:
                raise XlirError(
                    format_at_op(
                        func,
                        f"check-to-outputs: the module already has a function "
                        f"@{name}, the name this function's "
                        f"{suffix[1:]} function would take",
                    )
                )
