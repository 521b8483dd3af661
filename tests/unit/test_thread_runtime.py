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
loop.kernel @k(%x: memref<700xf32>, %y: memref<700xf32>) {
  %s = arith.constant 3.0 : f32
  loop.parallel (%i) = (0) to (700) step (1) ATTRIBUTES {
    %v = loop.load %x[%i] : memref<700xf32>
    %w = arith.mulf %v, %s : f32
    loop.store %w, %y[%i] : memref<700xf32>
  }
  loop.return
}
func.func public @main(%x: memref<700xf32>) -> memref<700xf32> {
  %stream = device.default_stream
  %y = device.alloc : memref<700xf32>
  device.launch @k(%x, %y) on %stream : memref<700xf32>, memref<700xf32>
  func.return %y : memref<700xf32>
}
"""


def _compiled(attributes: str):
    text = KERNEL.replace("ATTRIBUTES", attributes)
    return xlir.compile(parse_module(make_context(), text, "k"), target="cpu")


def test_threaded_program_declares_the_helpers_and_runs() -> None:
    executable = _compiled("attributes {threads = 4 : i64}")
    lines = executable.as_text().splitlines()
    for name in HELPERS:
        mentions = [line for line in lines if f'@"{name}"(' in line]
        assert any(line.startswith("declare ") for line in mentions)
        assert not any(line.startswith("define ") for line in mentions)
    assert needs_runtime(executable.objects)
    x = np.arange(700, dtype=np.float32)
    np.testing.assert_array_equal(executable(x), x * np.float32(3.0))


def test_serial_program_needs_no_runtime() -> None:
    executable = _compiled("")
    assert not needs_runtime(executable.objects)
    x = np.arange(700, dtype=np.float32)
    np.testing.assert_array_equal(executable(x), x * np.float32(3.0))


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
