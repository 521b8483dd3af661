"""The JIT places an object's code and constants together
(`llvmlite_module.jit_engine`), wherever the process's address space has
room: the code reads its constants PC-relative with 32-bit offsets, and a
process whose free address space is scattered (it had compiled and run
many programs) once got its code in a small hole more than 2 GiB from its
constants, and MCJIT's linker aborted the process.

The test makes that layout on purpose, in a child process (an abort would
end the suite): a 3 GiB reservation with a one-page hole at its top, every
other hole above it filled, so that the kernel's next one-page mapping goes
into the hole and anything larger below the reservation."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

FAR_HOLE = """
import ctypes, mmap
import numpy as np
from xlir.targets.cpu.host_machine import host_object_code
from xlir.targets.cpu.jit_loader import LoadedObject

code = host_object_code('''
define void @scale(ptr %p) {
  %v = load <8 x float>, ptr %p, align 4
  %w = fmul <8 x float> %v, <float 1.5, float 2.5, float 3.5, float 4.5,
                             float 5.5, float 6.5, float 7.5, float 8.5>
  store <8 x float> %w, ptr %p, align 4
  ret void
}
''')

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
scale = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(loaded.address("scale"))
x = np.full(8, 2.0, dtype=np.float32)
scale(x.ctypes.data)
print(" ".join(str(v) for v in x))
"""


@pytest.mark.skipif(
    sys.platform != "linux" or platform.machine() != "x86_64",
    reason="the layout is made with Linux's mmap; x86-64's 32-bit offsets",
)
def test_code_in_a_hole_far_from_free_memory_reads_its_constants() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FAR_HOLE], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    want = "3.0 5.0 7.0 9.0 11.0 13.0 15.0 17.0"  # 2 times 1.5, 2.5, ... 8.5
    assert result.stdout.split() == want.split(), result.stderr
