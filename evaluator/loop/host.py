"""The host side: streams and events (the host runs work in order, so they
are tokens and no-ops), kernel launches, function calls and collective
steps."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation
from xlir.dialects.device import (
    CollectiveOp,
    DefaultStreamOp,
    EventCreateOp,
    EventDestroyOp,
    LaunchOp,
    RecordOp,
    StreamCreateOp,
    StreamDestroyOp,
    SynchronizeOp,
    WaitOp,
)
from xlir.evaluator.collective_step import CollectiveStep, site_text
from xlir.evaluator.hlo.process_grid import single_process
from xlir.evaluator.hlo.types import Unsupported
from xlir.evaluator.loop.engine import Env, Scope, Step, impl


@impl(
    DefaultStreamOp,
    StreamCreateOp,
    EventCreateOp,
)
def _token(op: Operation, scope: Scope) -> Step:
    out = scope.slot(op.results[0])

    def token(env: Env) -> None:
        env[out] = op.name

    return token


@impl(
    StreamDestroyOp,
    EventDestroyOp,
    RecordOp,
    WaitOp,
    SynchronizeOp,
)
def _no_op(op: Operation, scope: Scope) -> None:
    """Work runs when it is issued: there is nothing to wait for."""
    return None


def _callee(op: Operation, scope: Scope, key: str):
    name = op.properties[key].root_reference.data  # pyright: ignore[reportAttributeAccessIssue]
    routine = scope.program.routines.get(name)
    if routine is None:
        raise Unsupported(f"there is no kernel or function @{name} with a body")
    return routine


@impl(LaunchOp)
def _launch(op: Operation, scope: Scope) -> Step:
    kernel = _callee(op, scope, "kernel")
    args = scope.slots_of(op.operands[:-1])

    def launch(env: Env) -> None:
        kernel([env[a] for a in args])

    return launch


@impl(func.CallOp)
def _call(op: Operation, scope: Scope) -> Step:
    function = _callee(op, scope, "callee")
    args = scope.slots_of(op.operands)
    results = scope.slots_of(op.results)

    def call(env: Env) -> None:
        for slot, value in zip(results, function([env[a] for a in args]), strict=True):
            env[slot] = value

    return call


@impl(CollectiveOp)
def _collective(op: Operation, scope: Scope) -> Step:
    """The step on a grid of one: the loop evaluator runs one process (the
    runtimes run a step through their own communicator)."""
    assert isinstance(op, CollectiveOp)
    step = CollectiveStep(site_text(op))
    args = scope.slots_of(op.args)

    def collective(env: Env) -> None:
        communicator = single_process().communicator
        step.run(communicator, [env[a] for a in args])

    return collective
