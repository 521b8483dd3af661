"""`xlir-lit` runs a folder of the user's own FileCheck tests with no
lit.cfg.py of theirs, through the warm tool server, and leaves that folder
clean."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

PASSING = """\
// RUN: xlir-opt %s -p cse | filecheck %s
// CHECK-COUNT-1: stablehlo.add
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %1 = stablehlo.add %a, %a : tensor<2xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
"""
FAILING = PASSING.replace("CHECK-COUNT-1: stablehlo.add", "CHECK: stablehlo.subtract")


SERVED = """\
// RUN: printenv PATH | filecheck %s
// CHECK: {{^}}{{[^:]*}}/xlir-tools-{{[^/]+}}/bin:
"""
"""Passes where the RUN lines' PATH starts with the tool server's clients
(`ToolServer` puts them in a folder `xlir-tools-*/bin`)."""


def xlir_lit(
    *arguments: str, cwd: Path, server: str = "1"
) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("xlir-lit")
    if tool is None:
        pytest.fail("xlir-lit is not installed: pip install -e .")
    return subprocess.run(
        [tool, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "XLIR_LIT_TOOL_SERVER": server},
    )


def test_a_folder_of_own_tests(tmp_path: Path) -> None:
    tests = tmp_path / "my-tests"
    (tests / "nested").mkdir(parents=True)
    (tests / "nested" / "cse.mlir").write_text(PASSING)
    (tests / "wrong.mlir").write_text(FAILING)
    (tests / "Inputs").mkdir()
    (tests / "Inputs" / "helper.mlir").write_text(FAILING)
    run = xlir_lit("-v", "my-tests", cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "PASS: my-tests :: nested/cse.mlir" in run.stdout
    assert "FAIL: my-tests :: wrong.mlir" in run.stdout
    assert "helper.mlir" not in run.stdout
    assert sorted(p.name for p in tests.rglob("*")) == [
        "Inputs",
        "cse.mlir",
        "helper.mlir",
        "nested",
        "wrong.mlir",
    ]


def test_one_file(tmp_path: Path) -> None:
    (tmp_path / "cse.mlir").write_text(PASSING)
    (tmp_path / "wrong.mlir").write_text(FAILING)
    run = xlir_lit("cse.mlir", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Passed: 1" in run.stdout


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    run = xlir_lit("no-such-folder", cwd=tmp_path)
    assert run.returncode == 1
    assert "xlir-lit: error: no such file or folder: no-such-folder" in run.stderr


@pytest.mark.parametrize("server", ["1", "0"])
def test_tools_go_through_the_tool_server(tmp_path: Path, server: str) -> None:
    """The RUN lines' tools are served warm, as the project's own suite's
    are (the same configuration), unless `XLIR_LIT_TOOL_SERVER=0`."""
    (tmp_path / "served.mlir").write_text(SERVED)
    (tmp_path / "cse.mlir").write_text(PASSING)
    run = xlir_lit("-v", ".", cwd=tmp_path, server=server)
    served = "PASS" if server == "1" else "FAIL"
    lines = run.stdout.splitlines()
    assert any(
        line.startswith(f"{served}: ") and " :: served.mlir " in line for line in lines
    ), run.stdout
    assert any(
        line.startswith("PASS: ") and " :: cse.mlir " in line for line in lines
    ), run.stdout
