"""A cpu executable's launch scratch (the packed panels of a GEMM routine's
calls) lives in its temp arena (`scratch-in-arena`), which the executable
allocates once per thread: repeated calls allocate nothing and fault no
page in, and threads calling one executable at once each get their own."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
from xlir.targets.registry import get_platform

import xlir
from xlir.api import load_module

DOT = """
func.func public @main(%a: tensor<64x512xf32>, %b: tensor<512x1024xf32>) -> tensor<64x1024xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x512xf32>, tensor<512x1024xf32>) -> tensor<64x1024xf32>
  return %d : tensor<64x1024xf32>
}
"""

PANELS = 512 * 1024 * 4
"""The bytes of B's packed panels, the calls' scratch."""

# In a process of its own: glibc's mmap threshold is pinned at 128 KiB
# there (`mallopt`, which also stops glibc from raising it), so that a
# scratch buffer malloc'd around each launch would be mapped and unmapped
# by every call, and its pages faulted in again.
REPEATED_CALLS = f"""
import ctypes, resource, sys
import numpy as np
import xlir
from xlir.api import load_module
from xlir.targets.registry import get_platform
M_MMAP_THRESHOLD = -3
assert ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 128 << 10) == 1
executable = xlir.compile('''{DOT}''', target="cpu")
rng = np.random.default_rng(0)
a = rng.standard_normal((64, 512)).astype(np.float32)
b = rng.standard_normal((512, 1024)).astype(np.float32)
out = np.empty((64, 1024), np.float32)
for _ in range(3):
    executable(a, b, out=[out])
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    executable(a, b, out=[out])
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(faults)
"""


def _compile():
    return xlir.compile(DOT, target="cpu")


def test_scratch_is_in_the_arena(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    executable = _compile()
    assert executable.temp_bytes >= PANELS
    assert executable.memory_stats().temp_size_in_bytes == 0  # the plan's
    assert "@malloc" not in executable.llvm_ir


def test_ahead_of_time_caller_passes_the_scratch(monkeypatch) -> None:
    """The C caller's `temp` (`MODEL_TEMP_BYTES`) holds the scratch: the
    object calls no `malloc`."""
    monkeypatch.setenv("XLIR_CACHE", "0")
    module, sources = load_module(DOT)
    compiler = get_platform("cpu").compiler()
    result = compiler.compile_ahead_of_time(module, sources=sources)
    assert result.temp_bytes >= PANELS
    assert f"_TEMP_BYTES {result.temp_bytes}" in result.header
    assert b"malloc" not in result.object_code


def test_repeated_calls_fault_no_page_in(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    done = subprocess.run(
        [sys.executable, "-c", REPEATED_CALLS],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert int(done.stdout) < PANELS // 4096  # malloc'd per launch: 10x that


def test_threads_calling_one_executable(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    executable = _compile()
    rng = np.random.default_rng(1)
    a = [rng.standard_normal((64, 512)).astype(np.float32) for _ in range(4)]
    b = rng.standard_normal((512, 1024)).astype(np.float32)
    alone = [executable(x, b) for x in a]
    results: dict[int, list[np.ndarray]] = {}

    def work(i: int) -> None:
        results[i] = [executable(a[i], b) for _ in range(5)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i in range(4):
        for result in results[i]:
            np.testing.assert_array_equal(result, alone[i])
