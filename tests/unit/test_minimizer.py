"""The fuzzers' delta debugging and their worker process: a minimized case
keeps the failure and sheds what does not cause it; a worker that dies or
hangs gives a verdict, not a dead run."""

from __future__ import annotations

import numpy as np

from xlir.testing.generator import generate
from xlir.testing.minimize import cut, minimize, minimize_text, prune
from xlir.testing.program import Program, TType
from xlir.testing.worker import Worker, last_words


def _zeros(program: Program, inputs, value: int) -> np.ndarray:
    type_ = program.type_of(value)
    return np.zeros(type_.shape, np.float32)


def _with_op(op: str) -> Program:
    for seed in range(1000):
        program = generate(seed)
        if f"stablehlo.{op} " in program.text() and len(program.nodes) >= 6:
            return program
    raise AssertionError(f"no program with {op}")


def test_minimize_keeps_the_failure_and_drops_the_rest() -> None:
    program = _with_op("sine")
    inputs = {v: np.zeros(t.shape) for v, t in program.arguments.items()}
    calls = []

    def still_fails(candidate: Program, arrays) -> bool:
        calls.append(candidate)
        assert set(arrays) == set(candidate.arguments)
        return "stablehlo.sine " in candidate.text()

    small, arrays = minimize(program, inputs, still_fails, _zeros)
    assert calls and "stablehlo.sine " in small.text()
    assert len(small.nodes) == 1 and len(small.outputs) == 1
    assert set(arrays) == set(small.arguments)


def test_prune_drops_what_no_output_needs() -> None:
    program = Program()
    a = program.new_argument(TType((2,), "f32"))
    b = program.new_argument(TType((2,), "f32"))
    (used,) = program.add_node(
        "$R = stablehlo.negate $0 : tensor<2xf32>", [a], [TType((2,), "f32")]
    )
    program.add_node("$R = stablehlo.abs $0 : tensor<2xf32>", [b], [TType((2,), "f32")])
    program.outputs = [used]
    pruned, arrays = prune(program, {a: np.ones(2), b: np.ones(2)})
    assert len(pruned.nodes) == 1 and list(pruned.arguments) == [a]
    assert list(arrays) == [a]


def test_cut_feeds_the_new_argument_the_value_given() -> None:
    program = Program()
    a = program.new_argument(TType((2,), "f32"))
    (n,) = program.add_node(
        "$R = stablehlo.negate $0 : tensor<2xf32>", [a], [TType((2,), "f32")]
    )
    (m,) = program.add_node(
        "$R = stablehlo.abs $0 : tensor<2xf32>", [n], [TType((2,), "f32")]
    )
    program.outputs = [m]
    value = np.array([3.0, -4.0], np.float32)
    reduced, arrays = cut(program, {a: np.ones(2)}, 0, [value])
    assert len(reduced.nodes) == 1 and "negate" not in reduced.text()
    (argument,) = reduced.arguments
    np.testing.assert_array_equal(arrays[argument], value)


def test_a_dead_or_hung_worker_is_a_verdict() -> None:
    with Worker() as worker:
        status, detail = worker.call("no_such_case")
        assert status == "crash" and "AttributeError" in detail
        status, _ = worker.call(
            "check_text",
            "func.func @main() {\n  return\n}\n",
            "t.mlir",
            "hlo-opt",
            timeout=0.001,
        )
        assert status == "hang"
        status, (outcome, _) = worker.call(
            "check_text", "func.func @main() {\n  return\n}\n", "t.mlir", "hlo-opt"
        )
        assert (status, outcome) == ("ok", "ok")


def test_minimize_text_keeps_the_lines_the_failure_needs() -> None:
    text = "\n".join(f"line {i}" for i in range(40))

    def still_fails(candidate: str) -> bool:
        return "line 7" in candidate and "line 31" in candidate

    assert minimize_text(text, still_fails) == "line 7\nline 31"


def test_a_crash_is_described_by_faulthandler_s_innermost_frame() -> None:
    lines = [
        "some warning",
        "Fatal Python error: Segmentation fault",
        "",
        "Current thread 0x00007f (most recent call first):",
        '  File "/x/targets/cpu/executable.py", line 88 in run',
        '  File "/x/xlir/testing/cases.py", line 60 in run_program',
    ]
    assert last_words(lines) == (
        ": Fatal Python error: Segmentation fault "
        '(File "/x/targets/cpu/executable.py", line 88 in run)'
    )
    assert last_words(["a", "free(): invalid pointer"]) == ": free(): invalid pointer"
