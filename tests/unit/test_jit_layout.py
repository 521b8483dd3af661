"""Code the JIT loads reads its constants wherever MCJIT put them
(`llvmlite_module.jit_target_machine`: the large code model, absolute
addresses). With the small code model's 32-bit PC-relative offsets, a
process whose free address space was scattered (it had compiled and run
many programs) got an object's code in a small hole more than 2 GiB from
its constants, and MCJIT's linker aborted the process.

A call of a C library function (with the small code model, a stub that
reads the address from a GOT, which MCJIT maps on its own too) is run the
same way. The test makes that layout on purpose, in a child process (an
abort would end the suite): a 3 GiB reservation with a one-page hole at
its top, every other hole above it filled, so that the kernel's next
one-page mapping goes into the hole and anything larger below the
reservation."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

CONSTANTS = """
define void @f(ptr %p) {
  %v = load <8 x float>, ptr %p, align 4
  %w = fmul <8 x float> %v, <float 1.5, float 2.5, float 3.5, float 4.5,
                             float 5.5, float 6.5, float 7.5, float 8.5>
  store <8 x float> %w, ptr %p, align 4
  ret void
}
"""

C_LIBRARY_CALL = """
declare float @sqrtf(float)
define void @f(ptr %p) {
  %v = load float, ptr %p
  %r = call float @sqrtf(float %v)
  store float %r, ptr %p
  ret void
}
"""

FAR_HOLE = """
import ctypes, mmap, sys
import numpy as np
from xlir.targets.cpu.host_machine import host_object_code
from xlir.lowering.llvm.jit_loader import LoadedObject

code = host_object_code(sys.argv[1])

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [
    ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
    ctypes.c_long,
]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PRIVATE, ANONYMOUS, NORESERVE, FIXED_NOREPLACE = 0x02, 0x20, 0x4000, 0x100000


def reserve(size, at=0):
    flags = PRIVATE | ANONYMOUS | NORESERVE | (FIXED_NOREPLACE if at else 0)
    got = libc.mmap(at, size, 0, flags, -1, 0)
    if got in (None, ctypes.c_void_p(-1).value) or (at and got != at):
        raise SystemExit(f"mmap({at:#x}, {size:#x}) failed: {ctypes.get_errno()}")
    return got


def mappings():
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            yield start, end, fields[-1] if len(fields) > 5 else ""


top = reserve(3 << 30) + (3 << 30)
previous = None
for start, end, name in sorted(mappings()):
    gap = start - previous if previous is not None else 0
    if previous is not None and previous >= top and 0 < gap < 1 << 30:
        if name != "[stack]":
            reserve(gap, previous)
    previous = end
libc.munmap(top - mmap.PAGESIZE, mmap.PAGESIZE)

loaded = LoadedObject((code,))
f = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(loaded.address("f"))
x = np.full(8, 4.0, dtype=np.float32)
f(x.ctypes.data)
print(" ".join(str(v) for v in x))
"""


@pytest.mark.skipif(
    sys.platform != "linux" or platform.machine() != "x86_64",
    reason="the layout is made with Linux's mmap; x86-64's 32-bit offsets",
)
@pytest.mark.parametrize(
    ("ir", "want"),
    [
        (CONSTANTS, "6.0 10.0 14.0 18.0 22.0 26.0 30.0 34.0"),  # 4 * 1.5, ...
        (C_LIBRARY_CALL, "2.0 4.0 4.0 4.0 4.0 4.0 4.0 4.0"),  # sqrt of the first
    ],
    ids=["constants", "c-library-call"],
)
def test_code_in_a_hole_far_from_free_memory_runs(ir: str, want: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", FAR_HOLE, ir],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == want.split(), result.stderr
