"""xlir-opt's failure handling: a pass that raises or breaks the IR stops the
pipeline with a diagnostic naming it, and `--reproducer` saves what it was given
so that `--run-reproducer` replays the failure."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.tools.opt import main

import xlir
from xlir.diagnostics import XlirError
from xlir.pass_manager import PASSES, VERIFY_EACH_VARIABLE

PROGRAM = """func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


@dataclass(frozen=True)
class CrashPass(ModulePass):
    """Fails like a buggy pass does."""

    name = "test-crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise IndexError("list index out of range")


@dataclass(frozen=True)
class BreakIRPass(ModulePass):
    """Leaves IR that does not verify: the function loses its terminator."""

    name = "test-break-ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if inner.name == "func.return":
                inner.detach()
                inner.erase()
                return


@pytest.fixture(autouse=True)
def test_passes():
    PASSES.register("test-crash", CrashPass)
    PASSES.register("test-break-ir", BreakIRPass)
    yield
    PASSES.unregister("test-crash")
    PASSES.unregister("test-break-ir")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
        raise SystemExit(0)
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err


def test_crashing_pass_is_a_diagnostic_with_a_reproducer(tmp_path: Path, capsys):
    source = tmp_path / "in.mlir"
    source.write_text(PROGRAM)
    repro = tmp_path / "repro.mlir"
    code, _, err = run(
        capsys, str(source), "-p", "cse,test-crash,dce", "--reproducer", str(repro)
    )
    assert code == 1
    assert "internal error in pass 'test-crash': IndexError" in err
    assert "Traceback" not in err
    assert f"reproducer written to {repro}" in err
    text = repro.read_text()
    assert text.startswith("// xlir-opt reproducer: -p 'test-crash,dce'\n")
    assert "stablehlo.add" in text

    code, _, err = run(capsys, str(repro), "--run-reproducer")
    assert code == 1
    assert "internal error in pass 'test-crash'" in err


def test_crashing_pass_shows_its_traceback_on_request(
    tmp_path: Path, capsys, monkeypatch
):
    source = tmp_path / "in.mlir"
    source.write_text(PROGRAM)
    monkeypatch.setenv("XLIR_TRACEBACK", "1")
    with pytest.raises(IndexError, match="list index out of range"):
        main([str(source), "-p", "cse,test-crash,dce"])


def test_pass_leaving_invalid_ir_is_named(tmp_path: Path, capsys):
    source = tmp_path / "in.mlir"
    source.write_text(PROGRAM)
    code, _, err = run(capsys, str(source), "-p", "test-break-ir")
    assert code == 1
    assert "note: the IR after pass 'test-break-ir'" in err


def test_run_reproducer_needs_a_header(tmp_path: Path, capsys):
    source = tmp_path / "in.mlir"
    source.write_text(PROGRAM)
    code, _, err = run(capsys, str(source), "--run-reproducer")
    assert code == 1
    assert "in.mlir:1:1: error: expected a reproducer header" in err


def test_named_pipeline_takes_no_options(tmp_path: Path, capsys):
    source = tmp_path / "in.mlir"
    source.write_text(PROGRAM)
    code, _, err = run(capsys, str(source), "-p", "hlo-opt{fast=true}")
    assert code == 1
    assert "pipeline 'hlo-opt' takes no options" in err


def test_compile_verifies_the_pipeline_result(monkeypatch):
    monkeypatch.setenv(VERIFY_EACH_VARIABLE, "0")  # the default, not the suite's
    with pytest.raises(XlirError, match="the IR after pipeline 'cse,test-break-ir'"):
        xlir.compile(PROGRAM, pipeline="cse,test-break-ir")
