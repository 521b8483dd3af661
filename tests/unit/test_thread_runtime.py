"""The CPU JIT's thread runtime (targets/cpu/thread_runtime.py): a threaded
program's objects only declare the thread pool's entry and run against the
one pool of the process, whose threads all executables share; a serial
program goes without it; a forked child runs threaded programs too."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from xlir.targets.cpu.thread_runtime import needs_runtime, runtime_object
from xlir.targets.cpu.threaded_loops import PARALLEL_FOR

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


def test_threaded_program_declares_the_pool_and_runs() -> None:
    executable = _compiled("attributes {threads = 4 : i64}")
    lines = executable.as_text().splitlines()
    mentions = [line for line in lines if f'@"{PARALLEL_FOR}"(' in line]
    assert any(line.startswith("declare ") for line in mentions)
    assert not any(line.startswith("define ") for line in mentions)
    assert "xlir.pool" not in executable.as_text()
    assert needs_runtime(executable.objects)
    _check_sum(executable)


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_executables_share_one_pool() -> None:
    """Five executables, each launching 4 threads: at most 3 more threads in
    the process (one pool for all), where a pool per executable made 15."""
    executables = [_compiled("attributes {threads = 4 : i64}") for _ in range(5)]
    before = _threads()
    for executable in executables:
        _check_sum(executable)
    assert _threads() - before <= 3


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
    assert PARALLEL_FOR in names
    assert not any(name.startswith("xlir.pool") for name in names)  # internal


FORKED = """
import os, sys
import numpy as np
from tests.unit.test_thread_runtime import _check_sum, _compiled

executable = _compiled("attributes {threads = 4 : i64}")
_check_sum(executable)  # the pool's threads start in this process
child = os.fork()
if child == 0:
    _check_sum(executable)  # no threads here: the calling one takes all grains
    _check_sum(_compiled("attributes {threads = 2 : i64}"))
    os._exit(0)
_, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_child_runs_threaded_programs() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    result = subprocess.run(
        [sys.executable, "-c", FORKED],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert result.returncode == 0, result.stderr
