"""The JIT's sort routines (targets/cpu/sort_routine.py) called directly:
each row's order is numpy's stable argsort of its keys, for rows sorted by
insertion and by the radix sort (digits that vary and digits that do not),
and the routines are process symbols once loaded."""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import numpy as np
import pytest
from xlir.lowering.kernels.sort_routine import SORT_KEYS
from xlir.targets.cpu.sort_routine import SMALL, load_sort_routines

ROUTINE = ctypes.CFUNCTYPE(
    None,
    ctypes.c_int64,
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
)


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize(
    "length", [0, 1, 2, 3, SMALL - 1, SMALL, SMALL + 1, 1000, 70000]
)
@pytest.mark.parametrize("spread", ["ties", "low_bits", "high_bits", "full"])
def test_rows_sorted_stably(bits: int, length: int, spread: str):
    load_sort_routines()
    routine = ROUTINE(llvm.address_of_symbol(SORT_KEYS[bits]))
    dtype = np.dtype(f"u{bits // 8}")
    rng = np.random.default_rng(length + bits)
    rows = 3
    top = (1 << bits) - 1
    if spread == "ties":
        keys = rng.integers(0, 3, (rows, length)).astype(dtype)
    elif spread == "low_bits":  # the higher digits all equal: passes skipped
        keys = rng.integers(0, 1000, (rows, length)).astype(dtype) + dtype.type(
            top - 999
        )
    elif spread == "high_bits":
        keys = rng.integers(0, 16, (rows, length)).astype(dtype) << dtype.type(bits - 4)
    else:
        keys = rng.integers(0, top, (rows, length), dtype=dtype, endpoint=True)
    given = keys.copy()
    order = np.full((rows, length), -1, np.int32)
    work = np.zeros((rows, length * (bits // 8 + 4)), np.uint8)
    for row in range(rows):
        routine(length, row, keys.ctypes.data, order.ctypes.data, work.ctypes.data)
    np.testing.assert_array_equal(order, np.argsort(given, axis=1, kind="stable"))
