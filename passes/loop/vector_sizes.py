"""Vector sizes as the loop passes take them: options, never the host's.

`register-tile`, `vectorize`, `interleave` and `parallelize` size their work
to a vector register of `vector-bits` bits (and `register-tile` to
`vector-registers` of them). A target's pipeline sets both from its
`TargetInfo` (the cpu target measures the host's: targets/cpu/vector_width.py);
run alone, as in `xlir-opt`, the passes assume a baseline every 64-bit CPU
xlir targets has: 16 registers of 128 bits (x86's SSE2, NEON has 32).
"""

from __future__ import annotations

from xlir.diagnostics import XlirError

DEFAULT_VECTOR_BITS = 128
DEFAULT_VECTOR_REGISTERS = 16


def lanes(vector_bits: int, element_bits: int) -> int:
    """Elements of `element_bits` bits per vector register."""
    return max(1, vector_bits // element_bits)


def check_vector_bits(pass_name: str, vector_bits: int) -> None:
    """A diagnostic unless `vector_bits` is a power of two from 8 bits on."""
    if vector_bits < 8 or vector_bits & (vector_bits - 1):
        raise XlirError(
            f"error: {pass_name}: vector-bits must be a power of two of at least "
            f"8, got {vector_bits}"
        )
