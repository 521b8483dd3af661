"""Liveness: when each value that needs a buffer is defined and last used.

The function is flattened into one sequence of steps, like XLA's
HloLiveRange over a sequential schedule. The bodies of `stablehlo.while` and
`stablehlo.case` are laid out inside their op's span, so a value defined in a
body lives from its definition to its last use in that body (no SSA value
outlives an iteration: loop-carried values go through the block arguments).
A value from outside that a body uses must survive every iteration, so its
use counts at the end of the control-flow op. Other regions (the scalar
computations of reduce, sort, scatter; the insides of `hlo.fusion`) are not
laid out: their values live in registers, not in buffers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

CONTROL_FLOW = ("stablehlo.while", "stablehlo.case")
"""Ops whose regions hold tensor computations that need buffers."""


@dataclass
class Timeline:
    """Steps of one function: `start[op]`/`end[op]` (equal unless the op holds
    a laid-out body), and for each value its definition and last use."""

    func: FuncOp
    ops: list[Operation] = field(default_factory=list)
    """Every laid-out op with results, in program order."""
    start: dict[Operation, int] = field(default_factory=dict)
    end: dict[Operation, int] = field(default_factory=dict)
    values: list[SSAValue] = field(default_factory=list)
    """Parameters, then the results of `ops` and the arguments of laid-out
    bodies, in program order."""
    defined: dict[SSAValue, int] = field(default_factory=dict)
    last_use: dict[SSAValue, int] = field(default_factory=dict)
    finish: int = 0
    """The step after the function returns; outputs live until it."""

    def live_range(self, value: SSAValue) -> tuple[int, int]:
        return self.defined[value], self.last_use[value]


def build_timeline(func: FuncOp) -> Timeline:
    timeline = Timeline(func)
    block = func.body.block
    for arg in block.args:
        _define(timeline, arg, 0)
    _lay_out(timeline, block, 1)
    timeline.finish = max(timeline.end.values(), default=0) + 1
    for value in timeline.values:
        timeline.last_use[value] = _last_use(timeline, value)
    return timeline


def _define(timeline: Timeline, value: SSAValue, step: int) -> None:
    timeline.values.append(value)
    timeline.defined[value] = step


def _lay_out(timeline: Timeline, block: Block, step: int) -> int:
    """Give the ops of `block` their steps from `step` on; return the next."""
    for op in block.ops:
        timeline.start[op] = step
        if op.results:
            timeline.ops.append(op)
            for result in op.results:
                _define(timeline, result, step)
        if op.name in CONTROL_FLOW:
            for region in op.regions:
                for inner in region.blocks:
                    for arg in inner.args:
                        _define(timeline, arg, step)
                    step = _lay_out(timeline, inner, step + 1)
        timeline.end[op] = step
        step += 1
    return step


def _last_use(timeline: Timeline, value: SSAValue) -> int:
    home = value.owner if isinstance(value, BlockArgument) else value.owner.parent
    last = timeline.defined[value]
    for use in value.uses:
        user = use.operation
        if isinstance(user, ReturnOp) and user.parent is timeline.func.body.block:
            return timeline.finish
        if user.parent is home:
            last = max(last, timeline.start[user])
            continue
        while user.parent is not home:
            parent = user.parent_op()
            assert parent is not None, "a use outside the value's scope"
            user = parent
        last = max(last, timeline.end[user])
    return last
