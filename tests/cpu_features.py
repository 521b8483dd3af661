"""Compiling for this CPU as if it lacked its native half-precision
features, to test, on any x86 host, the code a CPU without them gets."""

from __future__ import annotations

import platform
from functools import cache

X86 = platform.machine() in ("x86_64", "AMD64")

NATIVE_F16 = ("avx512fp16", "avx10")
"""x86 features with f16 arithmetic and f64 <-> f16 conversions (AVX10
includes AVX512-FP16)."""

F16C = ("avx512", "f16c")
"""F16C (f32 <-> f16 conversions) and the AVX-512 that implies it."""


def without_native_half(f16c: bool = True) -> None:
    """From now on, this process compiles for its CPU without `NATIVE_F16`
    (as most x86 CPUs are: LLVM calls `__truncdfhf2` for f64 -> f16), and
    without `F16C` too unless `f16c` (then LLVM calls all the half
    conversions of the JIT's support functions,
    lowering/llvm/half_conversions.py)."""
    import xlir.targets.cpu.host_machine as jit

    dropped = NATIVE_F16 if f16c else (*NATIVE_F16, *F16C)
    cpu, features = jit.host_cpu()
    kept = ",".join(
        "-" + f[1:] if f.startswith("+") and f[1:].startswith(dropped) else f
        for f in features.split(",")
    )
    jit.host_cpu = cache(lambda: (cpu, kept))
