"""`xlir-run --profile`: time per kernel, with its bytes and FLOPs
(tools/kernel_cost.py) and their achieved rates, and a Chrome trace.

A target whose executables time their own launches (its
`TargetInfo.times_launches`; compiled with the option `time_launches`) is
timed on its device's clock: `Executable.timed_call` returns each kernel's
launches in ticks of `launch_clock()` (a `DeviceClock`: a host clock read
by timers in native code, or a simulator's cycles). Any other target
runs each kernel of the fused program on its own
(tools/kernel_extraction.py; compiled from its buffer plan, since a
target's backend may start at `hlo-to-loop`), timed by the host's clock.
A measured clock's first call warms up (loading, first-touch of the arena)
and is not counted; `--repeat N` calls are, each kernel's time shown per
call. The table and the trace say which clock, and whether its time is
simulated.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xlir.lowering.host_schedule import kernel_name
from xlir.targets.base import Compiler, DeviceClock, LaunchTime, ProgramRecord
from xlir.targets.registry import get_target
from xlir.tools.cli import UsageError
from xlir.tools.kernel_cost import CONTROL_FLOW, Cost, kernel_cost
from xlir.tools.kernel_extraction import (
    DATA_OPS,
    Kernel,
    entry_steps,
    kernel_module,
    read_from_outside,
)

from xlir.api import load_module
from xlir.diagnostics import XlirError
from xlir.printing import module_text


@dataclass
class KernelTime:
    """One kernel over the profiled calls, in ticks of the profile's clock."""

    name: str
    source: str
    """The HLO-level kernels it computes (several after `fuse-kernels`)."""
    cost: Cost
    busy: int = 0
    launches: int = 0
    spans: list[tuple[int, int]] = field(default_factory=list)
    """(first start, last end) of its launches in each call."""
    counters: dict[str, int] = field(default_factory=dict)
    """The device's own counts (`LaunchTime.counters`), summed."""


@dataclass
class Profile:
    target: str
    function: str
    clock: DeviceClock
    """What kernels and calls were timed by."""
    calls: list[tuple[int, int]] = field(default_factory=list)
    kernels: list[KernelTime] = field(default_factory=list)


WALL_CLOCK = DeviceClock(
    "the host's monotonic clock, around each kernel "
    "(a top-level op of the fused program) run alone",
    1e9,
)


def profile(
    module: ModuleOp,
    sources: dict[str, str],
    arrays: Sequence[np.ndarray],
    target: str,
    function: str,
    pipeline: str | None,
    repeat: int,
) -> tuple[tuple[np.ndarray, ...], Profile]:
    """The results of the last call and the profile of `repeat` calls."""
    chosen = get_target(target)
    compiler = chosen.platform().compiler()
    if chosen.info(compiler.options).times_launches:
        compiler.options = replace(compiler.options, time_launches=True)
    optimized = module.clone()
    program = compiler.optimize(optimized, function, sources, pipeline)
    entry = _entry(optimized, function)
    if compiler.options.time_launches:
        return _timed_launches(
            compiler, optimized, program, entry, sources, arrays, repeat
        )
    return _timed_kernels(compiler, optimized, entry, arrays, repeat)


def _entry(module: ModuleOp, function: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == function:
            return op
    raise XlirError(f"error: the optimized module has no function @{function}")


# --- targets that time their own launches -------------------------------------


def _timed_launches(
    compiler: Compiler,
    optimized: ModuleOp,
    program: ProgramRecord,
    entry: func.FuncOp,
    sources: dict[str, str],
    arrays: Sequence[np.ndarray],
    repeat: int,
) -> tuple[tuple[np.ndarray, ...], Profile]:
    launched = launched_kernels(entry)
    costs = {name: (op, kernel_cost(op)) for name, op in launched}
    target = compiler.platform.name
    executable = compiler.run_backend(optimized, program, sources)
    clock = executable.launch_clock()
    if clock is None:
        raise XlirError(
            f"error: target '{target}' says it times its launches "
            "(TargetInfo.times_launches), but its executable keeps no clock"
        )
    result = Profile(target, entry.sym_name.data, clock)
    if not clock.simulated:
        executable.timed_call(arrays)  # warm-up
    values: Any = ()
    records: list[LaunchTime] = []
    for _ in range(repeat):
        call = executable.timed_call(arrays)
        values = call.results
        result.calls.append((call.start, call.end))
        records.extend(call.launches)
    sites = {record.kernel for record in records}
    kernels: dict[str, KernelTime] = {}
    for record in records:
        kernel = kernels.get(record.kernel)
        if kernel is None:
            kernel = kernels[record.kernel] = _launched(record, sites, launched, costs)
        kernel.busy += record.busy
        kernel.launches += record.count
        if record.count:
            kernel.spans.append((record.start, record.end))
        for name, count in record.counters.items():
            kernel.counters[name] = kernel.counters.get(name, 0) + count
    result.kernels = list(kernels.values())
    return _tuple(values), result


def _launched(
    record: LaunchTime,
    sites: set[str],
    launched: list[tuple[str, Operation]],
    costs: dict[str, tuple[Operation, Cost]],
) -> KernelTime:
    """The kernel a launch site runs, with the HLO kernels it computes: its
    own, and those launched after it in the HLO order that the loop level
    merged into it (`fuse-kernels` keeps the first one's name)."""
    names = [name for name, _ in launched]
    if record.kernel not in costs:
        return KernelTime(record.kernel, "?", Cost(record.bytes, None))
    start = names.index(record.kernel)
    merged = [names[start]]
    for name in names[start + 1 :]:
        if name in sites:
            break
        merged.append(name)
    flops: int | None = 0
    for name in merged:
        count = costs[name][1].flops
        flops = None if flops is None or count is None else flops + count
    source = " + ".join(_hlo_name(costs[name][0]) for name in merged)
    return KernelTime(record.kernel, source, Cost(record.bytes, flops))


def launched_kernels(entry: func.FuncOp) -> list[tuple[str, Operation]]:
    """The HLO-level kernels of `entry` in program order (control flow's
    bodies included), each with the name its loop-level kernel gets
    (`lowering/host_schedule.kernel_name`)."""
    taken: set[str] = set()
    found: list[tuple[str, Operation]] = []

    def visit(ops: Sequence[Operation]) -> None:
        for op in ops:
            if op.name in DATA_OPS or op.name in ("hlo.yield", "stablehlo.return"):
                continue
            if op.name in CONTROL_FLOW:
                for region in op.regions:
                    for block in region.blocks:
                        visit(list(block.ops))
                continue
            found.append((kernel_name(op, taken), op))

    visit(list(entry.body.block.ops))
    return found


def _hlo_name(op: Operation) -> str:
    name = op.attributes.get("name")
    return getattr(name, "data", None) or op.name


# --- any other target: each kernel alone -----------------------------------------


def _timed_kernels(
    compiler: Compiler,
    optimized: ModuleOp,
    entry: func.FuncOp,
    arrays: Sequence[np.ndarray],
    repeat: int,
) -> tuple[tuple[np.ndarray, ...], Profile]:
    result = Profile(compiler.platform.name, entry.sym_name.data, WALL_CLOCK)
    steps: list[tuple[Operation, list[SSAValue], Any, KernelTime | None]] = []
    for op, kernel in entry_steps(entry):
        if op.name == "func.return":
            break
        step = kernel or Kernel(op, op.name, read_from_outside(op))
        text = module_text(kernel_module(step, optimized))
        program, sources = load_module(text, f"{step.name}.mlir")
        executable = compiler.compile(program, "main", sources, "assign-buffers")
        timed = (
            KernelTime(step.name, step.name, kernel_cost(op))
            if kernel is not None
            else None
        )
        steps.append((op, step.inputs, executable, timed))
    outputs: tuple[np.ndarray, ...] = ()
    for call in range(repeat + 1):
        values: dict[SSAValue, Any] = dict(
            zip(entry.body.block.args, arrays, strict=True)
        )
        started = time.monotonic_ns()
        for op, reads, executable, timed in steps:
            inputs = [values[v] for v in reads]
            begin = time.monotonic_ns()
            got = _tuple(executable(*inputs))
            end = time.monotonic_ns()
            values.update(zip(op.results, got, strict=True))
            if timed is not None and call > 0:  # the first call warms up
                timed.busy += end - begin
                timed.launches += 1
                timed.spans.append((begin, end))
        returned = entry.body.block.last_op
        assert returned is not None
        outputs = tuple(values[v] for v in returned.operands)
        if call > 0:
            result.calls.append((started, time.monotonic_ns()))
    result.kernels = [timed for *_, timed in steps if timed is not None]
    return outputs, result


def _tuple(value: Any) -> tuple[np.ndarray, ...]:
    return value if isinstance(value, tuple) else (value,)


# --- the table and the trace ---------------------------------------------------------


def profile_table(result: Profile) -> str:
    """Kernels by time per call, longest first."""
    clock = result.clock
    calls = max(len(result.calls), 1)
    wall = sum(end - start for start, end in result.calls) / calls
    busy = sum(k.busy for k in result.kernels) / calls
    us = "sim. us" if clock.simulated else "time us"
    ticks = clock.unit != "ns"
    lines = [
        f"profile of @{result.function} on {result.target}: {clock.name}; "
        f"per call, mean of {calls}",
        f"{'kernel':<24} "
        + (f"{clock.unit:>10} " if ticks else "")
        + f"{us:>10} {'share':>6} {'launches':>8} "
        f"{'bytes':>12} {'GB/s':>8} {'FLOPs':>12} {'GFLOP/s':>8}  hlo",
    ]
    for kernel in sorted(result.kernels, key=lambda k: -k.busy):
        per_call = kernel.busy / calls
        launches = kernel.launches / calls
        moved = kernel.cost.bytes * launches
        flops = None if kernel.cost.flops is None else kernel.cost.flops * launches
        lines.append(
            f"{kernel.name:<24} "
            + (f"{per_call:>10.0f} " if ticks else "")
            + f"{clock.microseconds(per_call):>10.2f} {_share(per_call, wall):>6} "
            f"{launches:>8g} {moved:>12.0f} {_rate(moved, per_call, clock):>8} "
            f"{'?' if flops is None else f'{flops:.0f}':>12} "
            f"{'?' if flops is None else _rate(flops, per_call, clock):>8}  "
            f"{kernel.source}"
        )
    unit = "simulated us" if clock.simulated else "us"
    lines.append(
        f"kernels {clock.microseconds(busy):.2f} {unit} of "
        f"{clock.microseconds(wall):.2f} {unit} per call "
        f"({_share(busy, wall)}; the rest is {clock.between_launches})"
    )
    return "\n".join(lines)


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole > 0 else "-"


def _rate(amount: float, ticks: float, clock: DeviceClock) -> str:
    """Giga per second of the clock's time."""
    return f"{amount * clock.hz / ticks / 1e9:.2f}" if ticks > 0 else "-"


PID = 1
TID = 1


def chrome_trace(result: Profile) -> dict[str, Any]:
    """The profile in the trace-event format (chrome://tracing, Perfetto).
    The first track holds one complete event per call and, nested in it,
    one per kernel launched once a call. A kernel launched several times a
    call (in a loop) gets a track of its own, with one event per call from
    its first launch's start to its last one's end, as such spans overlap
    the other kernels'. Each kernel event carries its HLO kernels, bytes,
    FLOPs, busy time per launch and the device's own counts; times are in
    microseconds of the profile's clock (simulated ones where it is a
    simulator's, as the process name and `otherData` say) from the first
    call's start."""
    clock = result.clock
    origin = result.calls[0][0] if result.calls else 0
    unit = "simulated microseconds" if clock.simulated else "microseconds"
    events: list[dict[str, Any]] = [
        _metadata("process_name", f"xlir-run --profile ({result.target}, {unit})", TID),
        _metadata("thread_name", f"@{result.function}", TID),
    ]
    for index, (start, end) in enumerate(result.calls):
        events.append(
            _complete(clock, f"@{result.function}", "call", start - origin, end - start)
            | {"tid": TID, "args": {"call": index}}
        )
    track = TID
    calls = max(len(result.calls), 1)
    for kernel in result.kernels:
        tid = TID
        if kernel.launches > calls:
            track += 1
            tid = track
            launches = kernel.launches // calls
            name = f"{kernel.name} ({launches} launches a call)"
            events.append(_metadata("thread_name", name, tid))
        args: dict[str, Any] = {
            "hlo": kernel.source,
            "bytes": kernel.cost.bytes,
            "flops": kernel.cost.flops,
            "busy_us_per_launch": clock.microseconds(
                kernel.busy / max(kernel.launches, 1)
            ),
        }
        if kernel.counters:
            args["device_counts_per_call"] = {
                name: count / calls for name, count in kernel.counters.items()
            }
        for start, end in kernel.spans:
            events.append(
                _complete(clock, kernel.name, "kernel", start - origin, end - start)
                | {"tid": tid, "args": args}
            )
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"clock": clock.name, "time": unit, "clock_hz": clock.hz},
    }


def _metadata(name: str, value: str, tid: int) -> dict[str, Any]:
    return {"name": name, "ph": "M", "pid": PID, "tid": tid, "args": {"name": value}}


def _complete(
    clock: DeviceClock, name: str, category: str, start: int, length: int
) -> dict[str, Any]:
    """A complete event from `start` for `length` ticks of `clock`."""
    return {
        "name": name,
        "cat": category,
        "ph": "X",
        "ts": clock.microseconds(start),
        "dur": clock.microseconds(length),
        "pid": PID,
    }


def write_trace(result: Profile, path: str) -> None:
    try:
        with open(path, "w") as file:
            json.dump(chrome_trace(result), file, indent=1)
    except OSError as error:
        raise UsageError(f"cannot write the trace {path}: {error.strerror}") from None
