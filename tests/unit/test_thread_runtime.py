"""The CPU JIT's thread runtime (targets/cpu/thread_runtime.py): a threaded
program's objects only declare the thread helpers and run with the
runtime's object linked beside them; a serial program goes without it."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from xlir.lowering.llvm.threads import HELPERS
from xlir.targets.cpu.thread_runtime import needs_runtime, runtime_object

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module

KERNEL = """
loop.kernel @add(%a: memref<8x75xf32>, %b: memref<8x75xf32>, %c: memref<8x75xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (8, 75) step (1, 1) ATTRIBUTES {
    %u = loop.load %a[%i, %j] : memref<8x75xf32>
    %v = loop.load %b[%i, %j] : memref<8x75xf32>
    %w = arith.addf %u, %v : f32
    loop.store %w, %c[%i, %j] : memref<8x75xf32>
  }
  loop.return
}
func.func public @main(%a: memref<8x75xf32>, %b: memref<8x75xf32>) -> memref<8x75xf32> {
  %stream = device.default_stream
  %c = device.alloc : memref<8x75xf32>
  device.launch @add(%a, %b, %c) on %stream : memref<8x75xf32>, memref<8x75xf32>, memref<8x75xf32>
  func.return %c : memref<8x75xf32>
}
"""


def _compiled(attributes: str):
    text = KERNEL.replace("ATTRIBUTES", attributes)
    return xlir.compile(parse_module(make_context(), text, "add"), target="cpu")


def test_threaded_program_declares_the_helpers_and_runs() -> None:
    executable = _compiled("attributes {threads = 4 : i64}")
    lines = executable.as_text().splitlines()
    for name in HELPERS:
        mentions = [line for line in lines if f'@"{name}"(' in line]
        assert any(line.startswith("declare ") for line in mentions)
        assert not any(line.startswith("define ") for line in mentions)
    assert needs_runtime(executable.objects)
    _check_sum(executable)


def test_serial_program_needs_no_runtime() -> None:
    executable = _compiled("")
    assert not needs_runtime(executable.objects)
    _check_sum(executable)


def _check_sum(executable) -> None:
    a = np.arange(600, dtype=np.float32).reshape(8, 75)
    b = np.full((8, 75), 0.5, dtype=np.float32)
    np.testing.assert_array_equal(executable(a, b), a + b)


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
def test_runtime_object_defines_the_helpers(tmp_path) -> None:
    path = tmp_path / "runtime.o"
    path.write_bytes(runtime_object())
    defined = subprocess.run(
        ["nm", "--defined-only", "--extern-only", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    names = {line.split()[-1] for line in defined.splitlines() if line.strip()}
    assert set(HELPERS) <= names
