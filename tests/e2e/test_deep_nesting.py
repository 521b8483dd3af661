"""Deeply nested programs: 1,000 while loops, each inside the one before,
parse, optimize and run on every target with the right numbers; nesting past
xlir's limit (`xlir.deep_stack.MAX_REGION_DEPTH`) or too deep for the parser
is a located diagnostic and exit 1. The tools run in subprocesses, so a
crash or a stack overflow is a failure, not a dead test run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.cpu.llvm_lowering import DEEP_CONTROL

from xlir.deep_stack import MAX_REGION_DEPTH

TIMEOUT = 900
"""Seconds for one tool on the 1,000-deep program (a hang is a failure)."""


def nested_whiles(depth: int) -> str:
    """`main(x)`: `depth` while loops, each running once inside the one
    before it, each adding 1 to x on the way out, so `main(x) = x + depth`."""
    head: list[str] = []
    tails: list[list[str]] = []
    for k in range(depth):
        carried = "%x" if k == 0 else f"%v{k - 1}"
        head += [
            f"%zero{k} = stablehlo.constant dense<0> : tensor<i32>",
            f"%w{k}:2 = stablehlo.while(%i{k} = %zero{k}, %v{k} = {carried})"
            " : tensor<i32>, tensor<4xf32>",
            "cond {",
            f"  %n{k} = stablehlo.constant dense<1> : tensor<i32>",
            f"  %lt{k} = stablehlo.compare LT, %i{k}, %n{k}, SIGNED"
            " : (tensor<i32>, tensor<i32>) -> tensor<i1>",
            f"  stablehlo.return %lt{k} : tensor<i1>",
            "} do {",
        ]
        inner = f"%w{k + 1}#1" if k + 1 < depth else f"%v{k}"
        tails.append(
            [
                f"%one{k} = stablehlo.constant dense<1> : tensor<i32>",
                f"%j{k} = stablehlo.add %i{k}, %one{k} : tensor<i32>",
                f"%c{k} = stablehlo.constant dense<1.0> : tensor<4xf32>",
                f"%u{k} = stablehlo.add {inner}, %c{k} : tensor<4xf32>",
                f"stablehlo.return %j{k}, %u{k} : tensor<i32>, tensor<4xf32>",
                "}",
            ]
        )
    lines = ["func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {", *head]
    for tail in reversed(tails):
        lines += tail
    lines += ["func.return %w0#1 : tensor<4xf32>", "}"]
    return "\n".join(lines) + "\n"


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"xlir.tools.{name}", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "XLIR_CACHE": "0"},
    )


@pytest.fixture(scope="module")
def thousand_deep(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("deep") / "deep.mlir"
    path.write_text(nested_whiles(1000))
    return path


def test_small_nest_adds_its_depth() -> None:
    import xlir

    x = np.array([0.5, -1.0, 2.0, 1e6], np.float32)
    out = xlir.compile(nested_whiles(3), target="interpreter")(x)
    np.testing.assert_array_equal(out, x + 3)


@pytest.mark.slow
def test_thousand_deep_optimizes(thousand_deep: Path) -> None:
    result = tool("opt", str(thousand_deep), "-p", "hlo-opt")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("stablehlo.while") == 1000


def _runs_exactly(path: Path, depth: int, target: str, tmp_path: Path) -> None:
    x = np.array([0.5, -1.0, 2.0, 1e6], np.float32)
    np.savez(tmp_path / "in.npz", arg0=x)
    np.savez(tmp_path / "want.npz", out0=x + depth)
    result = tool(
        "run",
        str(path),
        "--target",
        target,
        "--inputs",
        str(tmp_path / "in.npz"),
        "--expected",
        str(tmp_path / "want.npz"),
        "--rtol",
        "0",
        "--atol",
        "0",
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


@pytest.mark.slow
def test_thousand_deep_runs_on_the_interpreter(
    thousand_deep: Path, tmp_path: Path
) -> None:
    _runs_exactly(thousand_deep, 1000, "interpreter", tmp_path)


CPU_DEPTH = 1000 if os.environ.get("XLIR_TEST_DEEP_CPU") == "1" else 300
"""The cpu compile of the 1,000-deep program is too slow for every CI run:
xDSL's checks when an op is inserted still climb every level of nesting
for each op, and LLVM compiles the host code of every level. CI compiles
300 levels, and XLIR_TEST_DEEP_CPU=1 asks for the full 1,000."""


@pytest.mark.slow
def test_deep_runs_on_cpu(tmp_path: Path) -> None:
    path = tmp_path / "deep.mlir"
    path.write_text(nested_whiles(CPU_DEPTH))
    _runs_exactly(path, CPU_DEPTH, "cpu", tmp_path)


def test_nesting_past_the_limit_is_located(tmp_path: Path) -> None:
    path = tmp_path / "too_deep.mlir"
    path.write_text(nested_whiles(MAX_REGION_DEPTH))
    result = tool("opt", str(path))
    assert result.returncode == 1
    # The function's body is the first level, so the last while's regions
    # are one too many; the error is at its `cond {`.
    line = 2 + 7 * (MAX_REGION_DEPTH - 1) + 2
    assert result.stderr.startswith(
        f"{path}:{line}:6: error: regions nested more than {MAX_REGION_DEPTH} deep"
    ), result.stderr[:500]


def test_pathological_nesting_is_located(tmp_path: Path) -> None:
    """A list 100,000 deep runs the parser out of frames: an error at the
    point reached, not a RecursionError or a crashed process."""
    depth = 100_000
    path = tmp_path / "deep_list.mlir"
    path.write_text(
        f"func.func @f() attributes {{a = {'[' * depth}{']' * depth}}} {{\n"
        "  func.return\n}\n"
    )
    for name in ("opt", "run"):
        result = tool(name, str(path))
        assert result.returncode == 1, result.stderr[:500]
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{path}:1:"), first[:500]
        assert "error: nesting too deep: the parser ran out of its" in first


@pytest.mark.parametrize("depth", [2, DEEP_CONTROL + 8])
def test_deep_host_control_is_unoptimized(tmp_path: Path, depth: int) -> None:
    """LLVM's loop passes would take minutes on the host code of 1,000 nested
    loops: host code nested past `DEEP_CONTROL` is `optnone`, other host
    code is optimized."""
    path = tmp_path / "nest.mlir"
    path.write_text(nested_whiles(depth))
    pipeline = "hlo-opt,hlo-to-loop,expand-math,loop-to-llvm,device-to-llvm"
    result = tool("opt", str(path), "-p", pipeline, "--disable-verify")
    assert result.returncode == 0, result.stderr[-2000:]
    (entry,) = [line for line in result.stdout.splitlines() if "@main(" in line]
    assert ("optimize_none" in entry) == (depth > DEEP_CONTROL), entry
