"""`hlo-to-loop`: fused, buffer-planned HLO to the loop level.

Input: the output of `hlo-opt` (fusions, and each function's `hlo.plan` with
an `#hlo.buffer` per result). Output (docs/loop-level.md): one `loop.kernel`
per fusion (`fusion_to_loop`) or heavy unfused op (`kernels.emit_kernel`),
`loop.global`s for constants, and each function rewritten as its host
schedule (`host_schedule`).

Every op that cannot be lowered yet is reported at once, in one diagnostic
listing each with its location, rather than one per run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ComplexType,
    LocationAttr,
    ModuleOp,
    TensorType,
    UnknownLoc,
)
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xlir.dialects.hlo import FusionOp
from xlir.dialects.hlo_buffers import PLAN
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.collectives import RecvOp, SendOp
from xlir.dialects.stablehlo.control_flow import (
    AfterAllOp,
    CaseOp,
    ReturnOp,
    TokenType,
    WhileOp,
)
from xlir.lowering.fusion_to_loop import lower_fusion
from xlir.lowering.host_schedule import HostSchedule
from xlir.lowering.kernels import emit_kernel
from xlir.lowering.scalar import UnsupportedScalarOp

from xlir.diagnostics import XlirError, format_at_op, refuse_ops
from xlir.walk import walk

COMPLEX_FIRST = (
    "on complex values: the loop level has real numbers only; run "
    "`split-complex` before `fuse` (the cpu target's pipeline does)"
)


@dataclass(frozen=True)
class HloToLoopPass(ModulePass):
    """Lower every planned function; see the module docstring."""

    name = "hlo-to-loop"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [
            f
            for f in op.body.block.ops
            if isinstance(f, func.FuncOp) and _takes_tensors(f)
        ]
        unplanned = [f for f in functions if PLAN not in f.attributes]
        if unplanned:
            raise XlirError(
                format_at_op(
                    unplanned[0],
                    f"hlo-to-loop: function @{unplanned[0].sym_name.data} has no "
                    "buffer plan; run `hlo-opt` (or `fuse,assign-buffers`) first",
                )
            )
        problems: list[tuple[Operation, str]] = []
        on_complex: list[tuple[Operation, str]] = []
        for function in functions:
            for inner in walk(function):
                values = (*inner.operands, *inner.results)
                for value in values:
                    message = _unsupported_value(function, inner, value)
                    if message is not None:
                        problems.append((inner, message))
                if _computes_complex(inner, values):
                    on_complex.append((inner, COMPLEX_FIRST))
        problems += on_complex
        if problems:
            _report(problems)
        taken = {f.sym_name.data for f in functions}

        def lower(target: Operation, name: str) -> tuple[KernelOp, list[GlobalOp]]:
            kernel, globals_ = emit(target, name)
            _stamp_location(kernel, target.location)
            return kernel, globals_

        def emit(target: Operation, name: str) -> tuple[KernelOp, list[GlobalOp]]:
            if isinstance(target, FusionOp):
                kernel, globals_, missing = lower_fusion(target, name)
                problems.extend(missing)
                return kernel, globals_
            try:
                made = emit_kernel(target, name)
            except UnsupportedScalarOp as error:
                problems.append((error.op, error.reason))
                return KernelOp(name, []), []
            if made is None:
                problems.append((target, _no_kernel(target)))
                return KernelOp(name, []), []
            return made

        for function in functions:
            new = HostSchedule(function, lower, taken).build()
            op.body.block.insert_op_before(new, function)
            function.detach()
            function.erase(safe_erase=False)
        if problems:
            _report(problems)


def _no_kernel(op: Operation) -> str:
    """Why `op` has no kernel: a test assertion of the `check` dialect is
    turned into outputs before lowering; any other op is not lowered yet."""
    if op.dialect_name() == "check":
        return (
            "is a test assertion: run `check-to-outputs` before `hlo-opt` "
            "(xlir-run does), or run the program on the evaluator"
        )
    return "has no loop kernel yet"


def _report(problems: list[tuple[Operation, str]]) -> None:
    """One diagnostic listing every op that cannot be lowered (each once)."""
    messages = [(op, f"'{op.name}' {reason}") for op, reason in problems]
    refuse_ops("hlo-to-loop cannot lower", messages, "of this module")


def _stamp_location(kernel: KernelOp, location: LocationAttr) -> None:
    """Gives the kernel's ops the location of the HLO op or fusion they come
    from, so later lowerings point into the source as well."""
    for op in walk(kernel):
        if isinstance(op.location, UnknownLoc):
            op.location = location


def _computes_complex(op: Operation, values: Sequence[SSAValue]) -> bool:
    """Whether `op`, `values` its operands and results, computes on complex
    tensors (a fusion or a terminator only passes them on)."""
    return (
        any(
            isinstance(v.type, TensorType)
            and isinstance(v.type.get_element_type(), ComplexType)
            for v in values
        )
        and not isinstance(op, FusionOp)
        and not op.has_trait(IsTerminator)
    )


_TOKEN_OPS = (AfterAllOp, SendOp, RecvOp, WhileOp, CaseOp, ReturnOp, func.ReturnOp)
"""The ops a token may flow through (a function's return: to be refused)."""


def _unsupported_value(
    function: func.FuncOp, op: Operation, value: SSAValue
) -> str | None:
    """Why `op`'s operand or result `value` cannot be lowered, if it cannot:
    values are tensors, or tokens that order sends and receives inside the
    function (an empty buffer each), not at its boundary."""
    if isinstance(value.type, TensorType):
        return None
    if not isinstance(value.type, TokenType):
        return f"on a value of type {value.type} is not supported (only tensors)"
    if not isinstance(op, _TOKEN_OPS):
        return (
            f"on a value of type {value.type} is not supported (tokens order "
            "only send, recv, after_all and control flow)"
        )
    argument = isinstance(value, BlockArgument) and value.owner is function.body.block
    if argument or isinstance(op, func.ReturnOp):
        return (
            "takes or returns a token at the function's boundary, which is not "
            "supported (tokens order sends and receives inside a function)"
        )
    return None


def _takes_tensors(function: func.FuncOp) -> bool:
    types = (*function.function_type.inputs, *function.function_type.outputs)
    return any(isinstance(t, TensorType) for t in types) or any(
        isinstance(o, FusionOp) for o in walk(function)
    )
