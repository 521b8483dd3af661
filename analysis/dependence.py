"""Which values of a loop body depend on given roots (induction variables,
usually): what varies along a dimension, for unroll-and-jam, register tiles,
vector lanes and scratchpad tiles alike."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation, SSAValue
from xlir.dialects.loop.loops import ForOp, YieldOp

from xlir.walk import walk


def dependents(
    roots: Iterable[SSAValue],
    ops: Iterable[Operation],
    through_bounds: bool = False,
) -> set[SSAValue]:
    """The values among `ops` (and nested in them) that depend on `roots`,
    roots included; a carried value depends on its init and on what is
    yielded for it. With `through_bounds`, a `loop.for` whose bounds depend
    on a root has a dependent induction variable too (which iterations run
    depends on it). Found by following uses from the roots, each value once
    (a pass over all the ops until nothing changed cost a register-tiled
    nest of thousands of ops seconds). Ops are told by their exact class
    (`type(op) is`, the loop dialect's classes have no subclasses): an
    `isinstance` through `ABCMeta` that fails, as it does for most users,
    cost more than the rest of a use's visit."""
    inside = {id(inner) for op in ops for inner in walk(op)}
    found = set(roots)
    pending = list(found)
    while pending:
        value = pending.pop()
        for use in value.uses:
            user = use.operation
            if id(user) not in inside:
                continue
            new: set[SSAValue] = set()
            if type(user) is ForOp:
                pairs = zip(user.iter_args, user.carried, user.results, strict=True)
                bounds = (*user.dynamic_lower, *user.dynamic_upper, *user.dynamic_step)
                if through_bounds and value in bounds:
                    new.add(user.induction_var)
            elif type(user) is YieldOp and type(parent := user.parent_op()) is ForOp:
                if id(parent) not in inside:
                    continue
                pairs = zip(user.arguments, parent.carried, parent.results, strict=True)
            else:
                new.update(user.results)
                pairs = iter(())
            for source, arg, result in pairs:
                if source is value:
                    new |= {arg, result}
            new -= found
            found |= new
            pending.extend(new)
    return found
