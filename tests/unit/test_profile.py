"""`xlir-run --profile`: the Chrome trace holds to the trace-event format
(what chrome://tracing and Perfetto load), the cpu table accounts for every
HLO kernel once, and the cost model counts as documented. No test asserts
a timing."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from xlir.targets.accel.device import LAUNCH_OVERHEAD
from xlir.targets.base import LaunchTime, launch_times
from xlir.targets.registry import get_platform, get_target
from xlir.targets.signatures import function_signature
from xlir.targets.target import CompileOptions
from xlir.tools.kernel_cost import kernel_cost
from xlir.tools.kernel_extraction import entry_steps
from xlir.tools.profile import (
    launched_kernels,
    profile,
    profile_table,
    write_trace,
)
from xlir.tools.run import main, random_arguments

from tests.conftest import CORPUS, runnable_targets
from xlir.api import load_module
from xlir.diagnostics import XlirError

PROGRAM = """func.func @main(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %t = stablehlo.tanh %d : tensor<16x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %e = stablehlo.exponential %s : tensor<16xf32>
  func.return %t, %e : tensor<16x8xf32>, tensor<16xf32>
}
"""

PHASES = set("BEXiIbneMCsftPONDRc")
"""The trace-event format's phases."""


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def validate_trace(text: str) -> list[dict]:
    """The trace's events, checked against the trace-event format: a JSON
    object with a `traceEvents` array; each event has a name, a known phase,
    integer pid and tid; complete events (`X`) a non-negative `ts` and
    `dur` in microseconds; metadata events (`M`) a name in `args`."""
    trace = json.loads(text, parse_constant=_reject_constant)
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    assert trace.get("displayTimeUnit", "ms") in ("ms", "ns")
    for event in trace["traceEvents"]:
        assert isinstance(event["name"], str) and event["name"]
        assert event["ph"] in PHASES
        assert isinstance(event["pid"], int) and isinstance(event["tid"], int)
        assert "args" not in event or isinstance(event["args"], dict)
        if event["ph"] == "X":
            for key in ("ts", "dur"):
                assert isinstance(event[key], int | float), key
                assert math.isfinite(event[key]) and event[key] >= 0, key
        if event["ph"] == "M":
            assert event["name"] in ("process_name", "thread_name")
            assert isinstance(event["args"]["name"], str)
    _check_nesting(trace["traceEvents"])
    return trace["traceEvents"]


def _check_nesting(events: list[dict]) -> None:
    """Complete events of one thread nest or follow each other, as the
    viewers draw them (a partial overlap is drawn wrong)."""
    slack = 1e-3  # microseconds: rounding of ns to us
    tracks: dict[tuple[int, int], list[dict]] = {}
    for event in events:
        if event["ph"] == "X":
            tracks.setdefault((event["pid"], event["tid"]), []).append(event)
    for track in tracks.values():
        open_ends: list[float] = []
        for event in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
            while open_ends and open_ends[-1] <= event["ts"] + slack:
                open_ends.pop()
            end = event["ts"] + event["dur"]
            assert not open_ends or end <= open_ends[-1] + slack, event
            open_ends.append(end)


@pytest.mark.parametrize("target", runnable_targets())
def test_trace_is_trace_event_json_with_kernels_inside_calls(target, tmp_path, capsys):
    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    trace = tmp_path / "trace.json"
    argv = [str(source), "--target", target, "--random", "--repeat", "3"]
    with pytest.raises(SystemExit) as info:
        main([*argv, f"--profile={trace}"])
    assert info.value.code in (0, None), capsys.readouterr()
    events = validate_trace(trace.read_text())
    calls = [e for e in events if e.get("cat") == "call"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    assert len(calls) == 3
    # each HLO kernel in one row: the kernels of its code where the target
    # times its launches (cpu merges fusion.3 into fusion.2's), else the
    # fused program's, each run alone
    first_call = [e for e in kernels if e["ts"] < calls[0]["ts"] + calls[0]["dur"]]
    computed = [n for e in first_call for n in e["args"]["hlo"].split(" + ")]
    assert sorted(computed) == ["fusion.1", "fusion.2", "fusion.3"]
    timed = get_target(target).info(CompileOptions()).times_launches
    assert timed or {e["name"] for e in kernels} == {"fusion.1", "fusion.2", "fusion.3"}
    slack = 1e-3  # microseconds: rounding of ns to us
    for kernel in kernels:
        assert any(
            call["ts"] - slack <= kernel["ts"]
            and kernel["ts"] + kernel["dur"] <= call["ts"] + call["dur"] + slack
            for call in calls
        ), kernel
        assert kernel["args"]["bytes"] > 0 and kernel["args"]["flops"] > 0


def test_kernels_launched_in_loops_get_tracks_of_their_own(tmp_path, capsys):
    program = CORPUS / "small" / "while_loops.mlir"
    inputs = CORPUS / "small" / "while_loops.npz"
    trace = tmp_path / "trace.json"
    argv = [str(program), "--target", "cpu", "--inputs", str(inputs)]
    with pytest.raises(SystemExit) as info:
        main([*argv, "--repeat", "2", f"--profile={trace}"])
    assert info.value.code in (0, None), capsys.readouterr()
    events = validate_trace(trace.read_text())
    tracks = [e["args"]["name"] for e in events if e["name"] == "thread_name"]
    assert tracks[0] == "@main" and len(tracks) > 1
    assert all("launches a call" in name for name in tracks[1:])


def test_cpu_rows_account_for_every_hlo_kernel_once():
    """train_step_mlp's kernels on cpu, some merged by `fuse-kernels`: each
    HLO kernel appears in one row, and the FLOPs add up to theirs."""
    path = CORPUS / "small" / "train_step_mlp.mlir"
    module, sources = load_module(path)
    compiler = get_platform("cpu").compiler()
    optimized = compiler.run_hlo_passes(module.clone(), None, sources)
    entry = next(op for op in optimized.ops if op.name == "func.func")
    hlo = launched_kernels(entry)  # pyright: ignore[reportArgumentType]
    assert len(hlo) == sum(k is not None for _, k in entry_steps(entry))  # pyright: ignore[reportArgumentType]

    arrays = random_arguments(function_signature(module, "main"), 0)
    _, measured = profile(module, sources, arrays, "cpu", "main", None, 1)
    sources_named = [
        name for kernel in measured.kernels for name in kernel.source.split(" + ")
    ]
    expected = sorted(
        op.attributes["name"].data if "name" in op.attributes else op.name  # pyright: ignore[reportAttributeAccessIssue]
        for _, op in hlo
    )
    assert sorted(sources_named) == expected
    total = sum(kernel_cost(op).flops or 0 for _, op in hlo)
    assert sum(k.cost.flops or 0 for k in measured.kernels) == total
    assert all(k.launches == 1 for k in measured.kernels)


CONVOLUTION = """func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %0 : tensor<1x6x6x4xf32>
}
"""

WINDOW = """func.func @main(%x: tensor<8x8xf32>) -> tensor<4x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
"""

LOOP = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = stablehlo.while(%i = %x, %n = %x) : tensor<4xf32>, tensor<4xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %y = stablehlo.add %i, %n : tensor<4xf32>
    stablehlo.return %y, %n : tensor<4xf32>, tensor<4xf32>
  }
  func.return %0#0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize(
    ("text", "flops", "size"),
    [
        (CONVOLUTION, 2 * 36 * 4 * 27, (192 + 108 + 144) * 4),
        (WINDOW, 16 * 4, (64 + 1 + 16) * 4),
        (LOOP, None, (4 + 4 + 4) * 4),  # x once, though passed twice
    ],
    ids=["convolution", "reduce_window", "while"],
)
def test_cost_of_an_unfused_op(text, flops, size):
    module, _ = load_module(text)
    entry = next(op for op in module.ops if op.name == "func.func")
    op = next(iter(entry.regions[0].block.ops))
    if op.name == "stablehlo.constant":
        op = op.next_op
    assert op is not None
    cost = kernel_cost(op)
    assert (cost.flops, cost.bytes) == (flops, size)


def test_timed_cpu_executable_called_without_a_table_records_nothing():
    """Timers compiled in, called as any executable: right results, no
    crash on the missing table; a timed call then records one launch per
    site."""
    module, sources = load_module(PROGRAM)
    compiler = get_platform("cpu").compiler()
    compiler.options = CompileOptions(time_launches=True)
    executable = compiler.compile(module, "main", sources)
    arrays = random_arguments(executable.signature, 0)
    plain = executable(*arrays)
    call = executable.timed_call(arrays)
    for got, want in zip(call.results, plain, strict=True):
        assert (got == want).all()
    records = call.launches
    assert [(r.kernel, r.count) for r in records] == [("fusion_1", 1), ("fusion_2", 1)]
    assert all(r.start <= r.end and r.busy >= 0 for r in records)
    assert call.start <= records[0].start and records[-1].end <= call.end


BRANCHES = """func.func @main(%p: tensor<i1>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %y = stablehlo.exponential %x : tensor<8xf32>
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.add %y, %y : tensor<8xf32>
    stablehlo.return %a : tensor<8xf32>
  }, {
    %b = stablehlo.multiply %y, %y : tensor<8xf32>
    stablehlo.return %b : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}
"""


def test_a_kernel_of_a_branch_not_taken_keeps_its_own_row():
    """On a target whose device logs its launches (accel), the kernel of
    the branch not taken is in the table with no launch, not counted in the
    row of the kernel before it."""
    module, sources = load_module(BRANCHES)
    arrays = [np.array(True), np.arange(8, dtype=np.float32)]
    _, measured = profile(module, sources, arrays, "accel", "main", None, 1)
    rows = {k.source: k.launches for k in measured.kernels}
    assert rows == {"fusion.1": 1, "fusion.2": 1, "fusion.3": 1, "fusion.4": 0}


def test_a_launch_log_becomes_one_record_per_kernel():
    """A kernel launched in a loop: its first start, last end, summed busy
    time, launches and device counts; kernels in order of first launch."""
    log = [
        LaunchTime("body", 64, 10, 20, 10, 1, {"instructions": 5}),
        LaunchTime("init", 8, 0, 4, 4, 1),
        LaunchTime("body", 64, 30, 45, 15, 1, {"instructions": 7}),
    ]
    body, init = launch_times(log)
    assert body == LaunchTime("body", 64, 10, 45, 25, 2, {"instructions": 12})
    assert init == log[1]


def test_untimed_executables_say_so():
    module, sources = load_module(PROGRAM)
    executable = get_platform("cpu").compiler().compile(module, "main", sources)
    assert executable.launch_clock() is None
    with pytest.raises(XlirError, match="do not time their kernel launches"):
        executable.timed_call(random_arguments(executable.signature, 0))


def test_accel_kernels_take_the_simulators_cycles(tmp_path, capsys):
    """On accel each kernel's time is the simulator's own count of its
    cycles (`Profile.cycles`, manual section 6.6), on the simulated 1 GHz
    clock; the call adds the launch overhead (section 8.4); the table and
    the trace say the time is simulated."""
    path = CORPUS / "small" / "softmax_rows.mlir"
    module, sources = load_module(path)
    arrays = random_arguments(function_signature(module, "main"), 0)
    _, measured = profile(module, sources, arrays, "accel", "main", None, 1)

    platform = get_platform("accel")
    executable = platform.compiler().compile(module, "main", sources)
    program = platform.executor().program(executable.image)  # pyright: ignore[reportAttributeAccessIssue]
    before = len(program.profiles)
    executable(*arrays)
    launches = program.profiles[before:]
    simulated = {p.kernel: p.cycles for p in launches}
    assert {k.name: k.busy for k in measured.kernels} == simulated
    assert all(k.launches == 1 for k in measured.kernels)
    (start, end), *_ = measured.calls
    assert end - start == sum(LAUNCH_OVERHEAD + p.cycles for p in launches)
    assert measured.clock.simulated and measured.clock.hz == 1e9
    counted = {k.name: k.counters["instructions"] for k in measured.kernels}
    assert counted == {p.kernel: p.instructions for p in launches}

    table = profile_table(measured)
    assert table.splitlines()[1].split()[:3] == ["kernel", "cycles", "sim."]
    assert "simulated us per call" in table
    trace = tmp_path / "trace.json"
    write_trace(measured, str(trace))
    events = validate_trace(trace.read_text())
    assert (
        events[0]["args"]["name"]
        == "xlir-run --profile (accel, simulated microseconds)"
    )
    durations = {e["name"]: e["dur"] for e in events if e.get("cat") == "kernel"}
    assert durations == {name: cycles / 1e3 for name, cycles in simulated.items()}
