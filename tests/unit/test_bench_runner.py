"""benchmarks/run.py's pieces that decide what is compared with what: the
small name of each bench program, the broad corpus's comparison with JAX's
stored outputs, the failure line it lists for a peer, and what a compile
time covers."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.cpu import CpuCompiler

from tests.conftest import CORPUS
from tests.e2e.jax_corpus_check import script
from xlir.pass_manager import VERIFY_EACH_VARIABLE

run = script("benchmarks/run.py")

PROGRAM = """func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  return %y, %n : tensor<4xf32>, tensor<i32>
}
"""


def test_small_names_are_the_recorded_ones() -> None:
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is absent")
    recorded = json.loads((CORPUS / "bench" / "xla_cpu_baselines.json").read_text())
    found = {path.stem: small for path, small in run.original_programs()}
    assert found == {
        name: Path(entry["small_version"]).name.split(".")[0]
        for name, entry in recorded["programs"].items()
    }


@pytest.fixture
def broad_program(tmp_path: Path) -> Path:
    path = tmp_path / "double.mlir"
    path.write_text(PROGRAM)
    x = np.arange(4, dtype=np.float32)
    np.savez(
        tmp_path / "double.npz", arg0=x, arg1=np.int32(7), out0=2 * x, out1=np.int32(7)
    )
    return path


def test_broad_case_accepts_the_expected_outputs(broad_program: Path) -> None:
    case = run.broad_case(broad_program)
    assert case.mismatch(case.expected) == ""
    assert case.mismatch(run.xlir.compile(case.text, target="cpu")(*case.arrays)) == ""


@pytest.mark.parametrize(
    ("outputs", "why"),
    [
        ((np.array([0, 2, 4, 6.1], np.float32), np.int32(7)), "out0: 1 of 4"),
        (
            (np.array([0, 2, 4, 6], np.float32), np.int32(8)),
            "out1: 1 of 1 elements differ",
        ),
        ((np.array([0, 2, 4, 6], np.float32),), "1 outputs, expected 2"),
    ],
)
def test_broad_case_flags_wrong_outputs(broad_program: Path, outputs, why: str) -> None:
    assert why in run.broad_case(broad_program).mismatch(outputs)


def test_outputs_the_interpreter_agrees_with_count_as_correct(tmp_path: Path) -> None:
    """Where JAX's stored output is not what the interpreter computes (XLA
    rewrote the program inexactly), a system that agrees with the
    interpreter is correct and the difference is noted."""
    path = tmp_path / "double.mlir"
    path.write_text(PROGRAM)
    x = np.arange(4, dtype=np.float32)
    np.savez(
        path.with_suffix(".npz"),
        arg0=x,
        arg1=np.int32(7),
        out0=2 * x + 1,
        out1=np.int32(7),
    )
    case = run.broad_case(path)
    row = run.Row(case.name)
    assert run.check(row, case, "XLIR-CPU", (2 * x, np.int32(7)))
    assert row.problems == [
        "XLIR-CPU agrees with the interpreter; JAX's output differs: out0: "
        + case.mismatch((2 * x, np.int32(7))).split(": ", 1)[1]
    ]
    assert not run.check(row, case, "IREE", (3 * x, np.int32(7)))
    assert row.problems[-1].startswith("IREE MISMATCH: out0:")


def test_a_failure_is_listed_by_its_diagnostic() -> None:
    error = RuntimeError(
        "Error invoking IREE compiler tool iree-compile\nError code: 1\n"
        "<stdin>:5:10: error: failed to legalize operation\n  %1 = ..."
    )
    assert run.first_line(error) == (
        "RuntimeError: <stdin>:5:10: error: failed to legalize operation"
    )
    assert run.first_line(ValueError("bad\nmore")) == "ValueError: bad"


def test_compile_only_times_cold_and_cached_compiles(tmp_path: Path) -> None:
    path = tmp_path / "double.mlir"
    path.write_text(PROGRAM)
    row = run.compile_program(path, 2, [], str(tmp_path))
    assert set(row.cpu_ms) == set(row.wall_ms) == {"xlir"}
    assert row.cpu_ms["xlir"] > 0 and row.wall_ms["xlir"] > 0
    assert row.cached_ms is not None and not row.failures


def test_compile_only_lists_a_failed_compile(tmp_path: Path) -> None:
    path = tmp_path / "broken.mlir"
    path.write_text(PROGRAM.replace("stablehlo.add", "stablehlo.no_such_op"))
    row = run.compile_program(path, 2, [], str(tmp_path))
    assert row.cpu_ms == {} and row.cached_ms is None
    assert len(row.failures) == 1 and row.failures[0].startswith("XLIR FAILED: ")


def test_compile_summary_lists_programs_above_the_outlier_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [
        run.CompileRow(
            "fast",
            cpu_ms={"xlir": 10.0, "xla": 20.0},
            wall_ms={"xlir": 30.0, "xla": 10.0},
            cached_ms=1.0,
        ),
        run.CompileRow(
            "slow",
            cpu_ms={"xlir": 70.0, "xla": 20.0},
            wall_ms={"xlir": 90.0, "xla": 30.0},
            cached_ms=2.0,
        ),
        run.CompileRow(
            "alone", cpu_ms={"xlir": 500.0}, wall_ms={"xlir": 600.0}, cached_ms=3.0
        ),
    ]
    run.print_compile_summary(rows, ["xla"])
    printed = capsys.readouterr().out
    assert "over the 2 programs xla compiled: median xlir 40.0 ms" in printed
    assert "median ratio 2.00x" in printed
    assert "wall: median xlir 60.0 ms, xla 20.0 ms; median ratio 3.00x" in printed
    assert "above 3x xla's: slow 3.50x\n" in printed
    assert "cached compile (CPU): at most 3.0 ms" in printed


class Cycle:
    """An object that refers to itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_timed_compile_collects_the_garbage_the_compile_left() -> None:
    """xlir pauses the cycle collector while it compiles; its garbage is
    collected within its own timing, not in the next compiler's."""
    left: list[weakref.ref[Cycle]] = []

    def compile_with_the_collector_paused() -> str:
        gc.disable()
        left.append(weakref.ref(Cycle()))
        gc.enable()
        return "done"

    value, cpu_ms, wall_ms = run.timed_compile(compile_with_the_collector_paused)
    assert value == "done" and cpu_ms >= 0 and wall_ms >= 0
    assert left[0]() is None


@pytest.fixture
def backend_runs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """One entry per cpu compile that generated code (not from the cache)."""
    runs: list[object] = []
    original = CpuCompiler.run_backend

    def counted(self, *args, **kwargs):
        runs.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CpuCompiler, "run_backend", counted)
    return runs


def test_a_cold_compile_neither_reads_nor_writes_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend_runs: list[object]
) -> None:
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLIR_CACHE", raising=False)
    run.cached_compile(PROGRAM, None, str(tmp_path))  # an entry of this program
    written = {p for p in tmp_path.rglob("*") if p.is_file()}
    backend_runs.clear()
    executable = run.cold_compile(PROGRAM, None)
    assert len(backend_runs) == 1  # the entry above was not used
    assert {p for p in tmp_path.rglob("*") if p.is_file()} == written
    assert "XLIR_CACHE" not in run.os.environ
    x = np.arange(4, dtype=np.float32)
    assert np.array_equal(executable(x, np.int32(7))[0], 2 * x)  # pyright: ignore


def test_a_cached_compile_loads_what_one_compile_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend_runs: list[object]
) -> None:
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLIR_CACHE", raising=False)
    executable, cpu_ms, wall_ms = run.cached_compile(PROGRAM, None, str(tmp_path))
    assert len(backend_runs) == 1  # the untimed compile that filled the cache
    assert cpu_ms >= 0 and wall_ms >= 0
    x = np.arange(4, dtype=np.float32)
    assert np.array_equal(executable(x, np.int32(7))[0], 2 * x)  # pyright: ignore


def test_compiles_without_the_test_suites_verification() -> None:
    """Importing benchmarks/run.py (and with it tests/conftest.py, which
    asks for every pass to be verified) leaves xlir's compiles as a user's
    run: no verification after each pass."""
    root = Path(__file__).resolve().parents[2]
    environment = {k: v for k, v in os.environ.items() if k != VERIFY_EACH_VARIABLE}
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import run; "
        "from xlir.pass_manager import verify_each_requested; "
        "print(verify_each_requested())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip().splitlines()[-1] == "False"
