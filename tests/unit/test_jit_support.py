"""The CPU JIT's support functions (targets/cpu/support_functions.py) and
its check that every symbol an object calls is defined: the half
conversions LLVM calls where the CPU has no instruction for them round to
nearest even, as numpy does, for every f16 and a spread of doubles; a
call of a function nobody defines is an error at load, never a jump to
address 0."""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import numpy as np
import pytest
from xlir.lowering.llvm.jit_loader import LoadedObject, elf_symbols
from xlir.targets.cpu.host_machine import host_object_code
from xlir.targets.cpu.thread_runtime import SUPPORT, load_support, support_object

from xlir.diagnostics import XlirError


def test_support_object_defines_its_functions_and_calls_only_libc() -> None:
    defined, used = elf_symbols(support_object())
    assert defined == set(SUPPORT)
    assert used == {"dprintf", "abort"}


def test_a_call_of_an_undefined_function_is_an_error_at_load() -> None:
    code = host_object_code(
        "declare void @xlir_no_such_function()\n"
        "define void @f() {\n  call void @xlir_no_such_function()\n  ret void\n}\n"
    )
    with pytest.raises(XlirError, match="'xlir_no_such_function'"):
        LoadedObject((code,))


def test_symbols_another_object_defines_are_resolved() -> None:
    caller = host_object_code(
        "declare void @g()\ndefine void @f() {\n  call void @g()\n  ret void\n}\n"
    )
    callee = host_object_code("define void @g() {\n  ret void\n}\n")
    assert LoadedObject((caller, callee)).address("f")


def _call_each(function: str, source: type, target: type, values: np.ndarray):
    """`function` (a support function) applied to each of `values` through
    a loop compiled for this CPU, which calls it by name whatever the CPU
    has."""
    source_type = {np.float64: "double", np.float32: "float", np.float16: "half"}
    from_, to = source_type[source], source_type[target]
    code = host_object_code(
        f"declare {to} @{function}({from_})\n"
        f"define void @each(ptr %in, ptr %out, i64 %n) {{\n"
        "entry:\n  br label %loop\n"
        "loop:\n"
        "  %i = phi i64 [0, %entry], [%next, %loop]\n"
        f"  %at = getelementptr {from_}, ptr %in, i64 %i\n"
        f"  %x = load {from_}, ptr %at\n"
        f"  %y = call {to} @{function}({from_} %x)\n"
        f"  %to = getelementptr {to}, ptr %out, i64 %i\n"
        f"  store {to} %y, ptr %to\n"
        "  %next = add i64 %i, 1\n"
        "  %more = icmp slt i64 %next, %n\n"
        "  br i1 %more, label %loop, label %done\n"
        "done:\n  ret void\n}\n"
    )
    load_support()
    loaded = LoadedObject((code,))
    each = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(
        loaded.address("each")
    )
    given = np.ascontiguousarray(values, dtype=source)
    out = np.empty(given.shape, dtype=target)
    each(given.ctypes.data, out.ctypes.data, given.size)
    return out


def _halves_and_neighbours() -> np.ndarray:
    """Every finite f16, the points halfway between neighbours (ties), one
    double either side of each tie, and values far outside f16's range."""
    halves = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    finite = np.sort(halves[np.isfinite(halves)].astype(np.float64))
    ties = finite[:-1] + np.diff(finite) / 2
    edges = [np.inf, -np.inf, np.nan, 65519.99, 65520.0, 1e300, 5e-324, 2.0**-25]
    return np.concatenate(
        [finite, ties, np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf), edges]
    )


def _assert_same_bits(got: np.ndarray, want: np.ndarray) -> None:
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    bits = np.uint16 if got.dtype == np.float16 else np.uint32
    np.testing.assert_array_equal(got.view(bits)[~nan], want.view(bits)[~nan])


@pytest.mark.parametrize(
    ("function", "source"),
    [("__truncdfhf2", np.float64), ("__truncsfhf2", np.float32)],
)
def test_narrowing_to_f16_rounds_to_nearest_even(function: str, source: type) -> None:
    with np.errstate(over="ignore"):  # 1e300 becomes inf in f32, as meant
        values = _halves_and_neighbours().astype(source)
        want = values.astype(np.float16)
    _assert_same_bits(_call_each(function, source, np.float16, values), want)


def test_widening_f16_is_exact() -> None:
    halves = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    got = _call_each("__extendhfsf2", np.float16, np.float32, halves)
    _assert_same_bits(got, halves.astype(np.float32))


def test_loading_objects_generates_no_code() -> None:
    """The engine MCJIT is made with holds no module when it finalizes:
    loading links the objects and runs no code generator."""
    code = host_object_code("define void @f() {\n  ret void\n}\n")
    llvm.report_and_reset_timings()
    llvm.set_time_passes(True)
    try:
        assert LoadedObject((code,)).address("f")
        report = llvm.report_and_reset_timings()
    finally:
        llvm.set_time_passes(False)
    assert "Target Pass Configuration" not in report  # the code generator's
