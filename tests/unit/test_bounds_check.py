"""The cpu target's bounds-check mode (lowering/llvm/bounds_checks.py): an
out-of-bounds store aborts where it happens, with a message naming the
kernel, the buffer and the element, whether asked for by
`xlir.compile(bounds_check=True)` or `XLIR_CPU_BOUNDS_CHECK=1`; programs in
bounds compute the same bits with and without the checks; the mode is part
of the cache key; an ahead-of-time module defines the handler itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xlir.lowering.llvm.bounds_checks import BOUNDS_ERROR
from xlir.lowering.llvm.llvmlite_module import llvm_ir
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.cpu.thread_runtime import define_runtime
from xlir.targets.target import CompileOptions

import xlir
from tests.corpus import SMALL, load_case
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

ROOT = Path(__file__).resolve().parents[2]

SHIFT = """
loop.kernel @shift(%x: memref<8xf32>, %y: memref<8xf32>) {
  %offset = arith.constant OFFSET : index
  loop.parallel (%i) = (0) to (8) step (1) {
    %v = loop.load %x[%i] : memref<8xf32>
    %j = arith.addi %i, %offset : index
    loop.store %v, %y[%j] : memref<8xf32>
  }
  loop.return
}
func.func public @main(%x: memref<8xf32>) -> memref<8xf32> {
  %stream = device.default_stream
  %y = device.alloc : memref<8xf32>
  device.launch @shift(%x, %y) on %stream : memref<8xf32>, memref<8xf32>
  func.return %y : memref<8xf32>
}
"""

RUN_SHIFT = """
import sys
import numpy as np
import xlir
from xlir.context import make_context
from xlir.parsing import parse_module
text, checked = sys.stdin.read(), sys.argv[1] == "1"
module = parse_module(make_context(), text, "shift")
executable = xlir.compile(module, target="cpu", bounds_check=checked)
print(executable(np.arange(8, dtype=np.float32)).tolist())
"""


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    monkeypatch.delenv("XLIR_CPU_BOUNDS_CHECK", raising=False)


def _run_shift(offset: int, checked: bool, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-c", RUN_SHIFT, "1" if checked else "0"],
        input=SHIFT.replace("OFFSET", str(offset)),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    ("checked", "env"),
    [(True, {}), (False, {"XLIR_CPU_BOUNDS_CHECK": "1"})],
    ids=["option", "environment"],
)
def test_out_of_bounds_store_aborts_with_the_kernel_and_buffer(checked, env) -> None:
    result = _run_shift(1, checked, env)
    assert result.returncode != 0, result.stdout
    # one store per element, or one memcpy of the 8 from element 1
    assert re.fullmatch(
        r"xlir: error: out-of-bounds loop\.store( of 8 elements)? in @shift "
        r"\(shift:7:5\), buffer %y : memref<8xf32>: at element [18] of 8\n",
        result.stderr,
    ), result.stderr


def test_in_bounds_program_runs_checked() -> None:
    result = _run_shift(0, checked=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str([float(i) for i in range(8)])


@pytest.mark.parametrize("name", ["gather_index", "softmax_rows", "slice_concat_pad"])
def test_checked_code_computes_the_same_bits(name: str) -> None:
    text = (SMALL / f"{name}.mlir").read_text()
    arguments, _ = load_case(SMALL / f"{name}.mlir")
    checked = xlir.compile(text, target="cpu", bounds_check=True)
    plain = xlir.compile(text, target="cpu")
    assert BOUNDS_ERROR in checked.as_text()
    assert BOUNDS_ERROR not in plain.as_text()
    got, want = checked(*arguments), plain(*arguments)
    for a, b in zip(_tuple(got), _tuple(want), strict=True):
        np.testing.assert_array_equal(a, b)


def _tuple(result) -> tuple[np.ndarray, ...]:
    return result if isinstance(result, tuple) else (result,)


def test_the_mode_is_part_of_the_cache_key(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("XLIR_CACHE", "1")
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    text = (SMALL / "gelu.mlir").read_text()
    plain = xlir.compile(text, target="cpu")
    checked = xlir.compile(text, target="cpu", bounds_check=True)
    assert BOUNDS_ERROR not in plain.as_text()
    assert BOUNDS_ERROR in checked.as_text()
    assert BOUNDS_ERROR in xlir.compile(text, target="cpu", bounds_check=True).as_text()
    assert BOUNDS_ERROR not in xlir.compile(text, target="cpu").as_text()


def test_ahead_of_time_module_defines_the_handler() -> None:
    module = parse_module(make_context(), SHIFT.replace("OFFSET", "0"), "shift")
    passes = CpuTarget().loop_pipeline(CompileOptions(bounds_check=True))
    run_pipeline(make_context(), module, passes)
    lines = llvm_ir(module, runtime=define_runtime).splitlines()
    assert any(
        line.startswith("define internal void") and f'@"{BOUNDS_ERROR}"' in line
        for line in lines
    )
