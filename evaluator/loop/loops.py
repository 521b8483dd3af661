"""Loops and branches: `loop.parallel`, `loop.for`, and `scf`'s for, if,
while and index_switch.

A vectorized `loop.parallel` runs its body once with its induction variables
as index grids whose dimensions come *before* the enclosing grid's, so values
from outer scopes broadcast against inner ones unchanged. A `loop.for` runs
its iterations in order; its carried values are arrays over the lanes. Where
lanes disagree (a loop bound or a branch condition that depends on the lane)
the body runs under a lane mask: the union of the lanes' iteration spaces,
with stores and carried values of inactive lanes left alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.evaluator.loop.engine import (
    Block,
    Env,
    Scope,
    Step,
    holds_scalar_only,
    impl,
)
from xlir.evaluator.loop.values import register_dtype

Getter = Callable[[Env], Any]


def _getter(scope: Scope, bound: int | SSAValue) -> Getter:
    if isinstance(bound, int):
        value = np.int64(bound)
        return lambda env: value
    slot = scope.slot(bound)
    return lambda env: env[slot]


def _uniform(value: Any) -> Any:
    """A lane array whose lanes agree as one scalar; otherwise the array."""
    if type(value) is np.ndarray:
        if value.ndim == 0:
            return value[()]
        first = value.flat[0]
        if (value == first).all():
            return first
    return value


def _trip_counts(lower: Any, upper: Any, step: Any) -> Any:
    return np.maximum(0, (upper - lower + step - 1) // step)


def _run_loop(
    env: Env,
    body: Block,
    iv: int,
    iv_type: np.dtype,
    carried: Sequence[int],
    values: list[Any],
    bounds: tuple[Any, Any, Any],
) -> list[Any]:
    """Run a sequential loop; the last carried values."""
    lower, upper, step = (_uniform(b) for b in bounds)
    yields = body.yields
    if (
        type(lower) is not np.ndarray
        and type(upper) is not np.ndarray
        and type(step) is not np.ndarray
    ):
        for k in range(int(lower), int(upper), int(step)):
            env[iv] = iv_type.type(k)
            for slot, value in zip(carried, values, strict=True):
                env[slot] = value
            body.run(env)
            values = [env[y] for y in yields]
        return values
    counts = _trip_counts(lower, upper, step)
    outer = env[0]
    try:
        for t in range(int(np.max(counts))):
            active = t < counts if outer is None else (t < counts) & outer
            env[0] = active
            env[iv] = (lower + t * step).astype(iv_type)
            for slot, value in zip(carried, values, strict=True):
                env[slot] = value
            body.run(env)
            values = [
                np.where(active, env[y], value)
                for y, value in zip(yields, values, strict=True)
            ]
    finally:
        env[0] = outer
    return values


def _sequential(
    op: Operation,
    scope: Scope,
    bounds: Sequence[int | SSAValue],
    inits: Sequence[SSAValue],
) -> Step:
    getters = [_getter(scope, b) for b in bounds]
    block = op.regions[0].blocks[0]
    iv = scope.slot(block.args[0])
    iv_type = register_dtype(block.args[0].type)
    carried = scope.slots_of(block.args[1:])
    init_slots = scope.slots_of(inits)
    results = scope.slots_of(op.results)
    body = scope.region(op.regions[0])

    def sequential(env: Env) -> None:
        values = [env[i] for i in init_slots]
        bounds = (getters[0](env), getters[1](env), getters[2](env))
        values = _run_loop(env, body, iv, iv_type, carried, values, bounds)
        for slot, value in zip(results, values, strict=True):
            env[slot] = value

    return sequential


@impl(ForOp)
def _loop_for(op: Operation, scope: Scope) -> Step:
    bounds = [op.lower, op.upper, op.step]  # pyright: ignore[reportAttributeAccessIssue]
    return _sequential(op, scope, bounds, op.iter_args)  # pyright: ignore[reportAttributeAccessIssue]


@impl(scf.ForOp)
def _scf_for(op: Operation, scope: Scope) -> Step:
    lb, ub, step, *inits = op.operands
    return _sequential(op, scope, [lb, ub, step], inits)


@impl(ParallelOp)
def _parallel(op: Operation, scope: Scope) -> Step:
    lowers = [_getter(scope, b) for b in op.lower_bounds]  # pyright: ignore[reportAttributeAccessIssue]
    uppers = [_getter(scope, b) for b in op.upper_bounds]  # pyright: ignore[reportAttributeAccessIssue]
    steps = [_getter(scope, b) for b in op.steps]  # pyright: ignore[reportAttributeAccessIssue]
    ivs = scope.slots_of(op.regions[0].blocks[0].args)
    dims = len(ivs)
    vector = scope.program.vectorize and not holds_scalar_only(op)
    outer_rank, outer_vector = scope.rank, scope.vector
    if vector:
        scope.rank, scope.vector = outer_rank + dims, True
    try:
        body = scope.region(op.regions[0])
    finally:
        scope.rank, scope.vector = outer_rank, outer_vector

    def bounds(env: Env) -> list[tuple[Any, Any, Any]]:
        return [
            (_uniform(lo(env)), _uniform(hi(env)), _uniform(st(env)))
            for lo, hi, st in zip(lowers, uppers, steps, strict=True)
        ]

    def grid_shape(dim: int, count: int) -> tuple[int, ...]:
        return (1,) * dim + (count,) + (1,) * (dims - 1 - dim + outer_rank)

    def vectorized(env: Env) -> None:
        spaces = bounds(env)
        if all(type(x) is not np.ndarray for space in spaces for x in space):
            counts = [int(_trip_counts(lo, hi, st)) for lo, hi, st in spaces]
            if 0 in counts:
                return
            for dim, ((lo, _, st), count, iv) in enumerate(
                zip(spaces, counts, ivs, strict=True)
            ):
                env[iv] = np.arange(lo, lo + count * st, st, dtype=np.int64).reshape(
                    grid_shape(dim, count)
                )
            body.run(env)
            return
        # Lane-dependent bounds: the union of the spaces, masked.
        outer = env[0]
        mask = outer
        for dim, ((lo, hi, st), iv) in enumerate(zip(spaces, ivs, strict=True)):
            counts = _trip_counts(lo, hi, st)
            largest = int(np.max(counts))
            if largest == 0:
                return
            t = np.arange(largest, dtype=np.int64).reshape(grid_shape(dim, largest))
            env[iv] = lo + t * st
            inside = t < counts
            mask = inside if mask is None else mask & inside
        env[0] = mask
        try:
            body.run(env)
        finally:
            env[0] = outer

    def one_by_one(env: Env) -> None:
        ranges = [range(int(lo), int(hi), int(st)) for lo, hi, st in bounds(env)]
        for point in itertools.product(*ranges):
            for iv, k in zip(ivs, point, strict=True):
                env[iv] = np.int64(k)
            body.run(env)

    return vectorized if vector else one_by_one


@impl(scf.IfOp)
def _scf_if(op: Operation, scope: Scope) -> Step:
    cond = scope.slot(op.operands[0])
    then = scope.region(op.regions[0])
    otherwise = scope.region(op.regions[1]) if op.regions[1].blocks else None
    results = scope.slots_of(op.results)

    def branch(env: Env) -> None:
        c = _uniform(env[cond])
        if type(c) is not np.ndarray:
            taken = then if c else otherwise
            if taken is not None:
                taken.run(env)
                for slot, y in zip(results, taken.yields, strict=True):
                    env[slot] = env[y]
            return
        outer = env[0]
        try:
            env[0] = c if outer is None else c & outer
            then.run(env)
            picked = [env[y] for y in then.yields]
            if otherwise is not None:
                env[0] = ~c if outer is None else ~c & outer
                otherwise.run(env)
                picked = [
                    np.where(c, t, env[y])
                    for t, y in zip(picked, otherwise.yields, strict=True)
                ]
        finally:
            env[0] = outer
        for slot, value in zip(results, picked, strict=True):
            env[slot] = value

    return branch


@impl(scf.WhileOp)
def _scf_while(op: Operation, scope: Scope) -> Step:
    inits = scope.slots_of(op.operands)
    before_args = scope.slots_of(op.regions[0].blocks[0].args)
    after_args = scope.slots_of(op.regions[1].blocks[0].args)
    before = scope.region(op.regions[0])
    after = scope.region(op.regions[1])
    results = scope.slots_of(op.results)

    def loop(env: Env) -> None:
        values = [env[i] for i in inits]
        while True:
            for slot, value in zip(before_args, values, strict=True):
                env[slot] = value
            before.run(env)
            cond, *forwarded = [env[y] for y in before.yields]
            if not cond:
                break
            for slot, value in zip(after_args, forwarded, strict=True):
                env[slot] = value
            after.run(env)
            values = [env[y] for y in after.yields]
        for slot, value in zip(results, forwarded, strict=True):
            env[slot] = value

    return loop


@impl(scf.IndexSwitchOp)
def _index_switch(op: Operation, scope: Scope) -> Step:
    arg = scope.slot(op.operands[0])
    cases = list(op.properties["cases"].get_values())  # pyright: ignore[reportAttributeAccessIssue]
    default = scope.region(op.regions[0])
    blocks = {
        case: scope.region(r) for case, r in zip(cases, op.regions[1:], strict=True)
    }
    results = scope.slots_of(op.results)

    def switch(env: Env) -> None:
        taken = blocks.get(int(env[arg]), default)
        taken.run(env)
        for slot, y in zip(results, taken.yields, strict=True):
            env[slot] = env[y]

    return switch
