"""XLA's memory figures for a module, and the per-buffer table behind them.

`buffer_stats(module)` gives, per function, the figures XLA's
CompiledMemoryStats reports (argument, output, alias, temp bytes) plus the
constant bytes and the naive one-buffer-per-op temp bytes, and one row per
buffer; `buffer_report(module)` prints them. Both describe the plan
`assign-buffers` makes (with the alignment recorded on a function that
already carries a plan), so they work before and after the pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xlir.dialects.hlo_buffers import PLAN, TEMP, PlanAttr
from xlir.passes.hlo.assign_buffers import defined_functions
from xlir.passes.hlo.buffers.plan import FunctionPlan, plan_function

from xlir.source_locations import text_location


@dataclass(frozen=True)
class BufferRow:
    """One buffer: the values sharing it, where it lives, and when."""

    values: tuple[str, ...]
    location: str
    size: int
    offset: int | None
    live: tuple[int, int]


@dataclass(frozen=True)
class BufferStats:
    """A function's figures in bytes, named like XLA's CompiledMemoryStats."""

    function: str
    argument_size_in_bytes: int
    output_size_in_bytes: int
    alias_size_in_bytes: int
    temp_size_in_bytes: int
    constant_size_in_bytes: int
    naive_temp_size_in_bytes: int
    alignment: int
    buffers: tuple[BufferRow, ...] = field(default=())


def buffer_stats(module: ModuleOp) -> dict[str, BufferStats]:
    """The figures of every function with a body, by name."""
    stats: dict[str, BufferStats] = {}
    for func in defined_functions(module):
        plan_attr = func.attributes.get(PLAN)
        alignment = plan_attr.alignment.data if isinstance(plan_attr, PlanAttr) else 64
        plan = plan_function(func, alignment)
        name = func.sym_name.data
        stats[name] = _stats(name, plan)
    return stats


def _stats(name: str, plan: FunctionPlan) -> BufferStats:
    rows = []
    for buffer in sorted(
        (b for b in plan.buffers if b.size),
        key=lambda b: (b.start, b.end),
    ):
        location = buffer.location
        assert location is not None
        rows.append(
            BufferRow(
                tuple(_label(v) for v in buffer.values),
                location.kind if location.kind == TEMP else location.spelling(),
                buffer.size,
                location.offset_value,
                (buffer.start, buffer.end),
            )
        )
    return BufferStats(
        name,
        plan.arguments,
        plan.outputs,
        plan.alias,
        plan.arena,
        plan.constants,
        plan.naive,
        plan.alignment,
        tuple(rows),
    )


def _label(value: SSAValue) -> str:
    """`%name` where the text named the value, else the op and its place."""
    if value.name_hint:
        return f"%{value.name_hint}"
    owner = value.owner
    if isinstance(value, BlockArgument):
        parent = value.owner.parent_op()
        return f"{parent.name if parent else 'block'} arg {value.index}"
    assert isinstance(owner, Operation)
    label = owner.name
    if len(owner.results) > 1:
        label += f"#{value.index}"  # pyright: ignore[reportAttributeAccessIssue]
    loc = text_location(owner.location)
    if loc is not None:
        label += f" ({loc.line.data}:{loc.column.data})"
    return label


def buffer_report(module: ModuleOp) -> str:
    """A readable table of every function's buffers and figures."""
    lines: list[str] = []
    for stats in buffer_stats(module).values():
        lines.append(
            f"buffers of @{stats.function}: temp {stats.temp_size_in_bytes} bytes "
            f"(one buffer per op: {stats.naive_temp_size_in_bytes}), arguments "
            f"{stats.argument_size_in_bytes}, outputs {stats.output_size_in_bytes}, "
            f"alias {stats.alias_size_in_bytes}, constants "
            f"{stats.constant_size_in_bytes}; alignment {stats.alignment}"
        )
        lines.append(
            f"  {'location':<12} {'size':>10} {'offset':>10} {'live':>11}  values"
        )
        for row in stats.buffers:
            offset = "" if row.offset is None else str(row.offset)
            live = f"[{row.live[0]}, {row.live[1]}]"
            lines.append(
                f"  {row.location:<12} {row.size:>10} {offset:>10} {live:>11}  "
                + ", ".join(row.values)
            )
    return "\n".join(lines) + "\n"
