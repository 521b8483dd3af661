"""XLA:CPU's arithmetic on denormals, for a reference that XLA is compared
with (`ModuleInterpreter(..., flush_denormals=True)`).

XLA:CPU runs programs with the x86 MXCSR's FTZ and DAZ bits set: every f32
and f64 arithmetic instruction reads a denormal operand as a zero of its
sign (DAZ) and writes a denormal result as one (FTZ). bf16 is computed in
f32, whose exponent range it shares, so its denormals go the same way; f16
is computed in f32 too, where its denormals are normal numbers, so they are
kept. Ops that only move, select or reinterpret elements are copies of bits
in XLA, untouched by those modes (`MOVES`; control flow too: the ops of its
regions flush for themselves).

Flushing is one consistent model of XLA, not all of it: XLA folds constant
expressions at compile time with IEEE arithmetic, and its thread pool
(Eigen's dot products and convolutions) may run without the modes set. A
comparison with XLA therefore accepts an element that matches either the
IEEE reference or this one (`xlir.testing.differential`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

MOVES = frozenset(
    f"stablehlo.{name}"
    for name in (
        "bitcast_convert",
        "broadcast_in_dim",
        "case",
        "concatenate",
        "constant",
        "dynamic_broadcast_in_dim",
        "dynamic_gather",
        "dynamic_pad",
        "dynamic_reshape",
        "dynamic_slice",
        "dynamic_update_slice",
        "gather",
        "get_tuple_element",
        "if",
        "iota",
        "optimization_barrier",
        "pad",
        "real_dynamic_slice",
        "reduce_precision",  # integer operations on the bits in XLA
        "reshape",
        "reverse",
        "select",
        "slice",
        "sort",
        "transpose",
        "tuple",
        "while",
    )
) | {"chlo.top_k", "func.call"}
"""Ops whose float results are elements of their operands, bit for bit."""

FLUSHED = (np.dtype(np.float32), np.dtype(np.float64))
"""The host dtypes whose denormals XLA:CPU flushes (bf16 is held as f32)."""


def flush(value: Any) -> Any:
    """`value` with its denormals replaced by zeros of their sign, where it
    is an f32 or f64 array (or numpy scalar) that has any; else itself."""
    if not isinstance(value, np.ndarray | np.generic) or value.dtype not in FLUSHED:
        return value
    array: np.ndarray = np.asarray(value)
    tiny = np.finfo(np.float32 if array.dtype == np.float32 else np.float64).tiny
    denormal = (np.abs(array) < tiny) & (array != 0)
    if not denormal.any():
        return value
    return np.where(denormal, np.copysign(0, array), array).astype(array.dtype)


def flushing(kernel: Any, op: Operation) -> Any:
    """`kernel` reading its operands and writing its results with denormals
    flushed, unless the op only moves elements (`MOVES`)."""
    if op.name in MOVES:
        return kernel

    def run(*operands: Any) -> Any:
        result = kernel(*(flush(x) for x in operands))
        if isinstance(result, list | tuple):
            return [flush(r) for r in result]
        return flush(result)

    return run
