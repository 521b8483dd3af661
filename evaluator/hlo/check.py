"""check.* ops: compare a value with an expected one and record a failure
(with the op's location) instead of stopping the run; interpreter.probe
records the values that flow through it, for check.expect_serialized_eq."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xlir.dialects.check import (
    ExpectAlmostEqConstOp,
    ExpectAlmostEqOp,
    ExpectCloseOp,
    ExpectEqConstOp,
    ExpectEqOp,
    ExpectSerializedEqOp,
)
from xlir.dialects.interpreter import ProbeOp
from xlir.evaluator.hlo.elementwise import attribute, total_order_key
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import dense_to_numpy, storage_dtype

from xlir.diagnostics import format_at_op

Array = Any
DEFAULT_TOLERANCE = 1e-4


def _float_value(attr: Any, default: float) -> float:
    if attr is None:
        return default
    value = getattr(attr, "value", attr)
    return float(getattr(value, "data", value))


def _int_value(attr: Any, default: int) -> int:
    if attr is None:
        return default
    value = getattr(attr, "value", attr)
    return int(getattr(value, "data", value))


def _preview(x: np.ndarray) -> str:
    text = np.array2string(
        np.asarray(x), threshold=16, edgeitems=3, max_line_width=100, precision=8
    )
    return text.replace("\n", " ")


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(f"u{x.dtype.itemsize}")


def exactly_equal(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Elementwise equality; floats bit for bit (so -0.0 != +0.0), any NaN
    equal to any NaN."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.dtype.kind == "c":
        expected = expected.astype(actual.dtype)
        return exactly_equal(np.real(actual), np.real(expected)) & exactly_equal(
            np.imag(actual), np.imag(expected)
        )
    if actual.dtype.kind == "f":
        nan = np.isnan(actual) & np.isnan(expected)
        return nan | (_bits(actual) == _bits(expected.astype(actual.dtype)))
    return actual == expected


def almost_equal(
    actual: np.ndarray, expected: np.ndarray, tolerance: float
) -> np.ndarray:
    """Within `tolerance` (complex numbers: each part)."""
    if np.iscomplexobj(actual) or np.iscomplexobj(expected):
        a, e = np.asarray(actual, np.complex128), np.asarray(expected, np.complex128)
        return almost_equal(a.real, e.real, tolerance) & almost_equal(
            a.imag, e.imag, tolerance
        )
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    nan = np.isnan(a) & np.isnan(e)
    same = a == e  # infinities of the same sign
    return nan | same | (np.abs(a - e) <= tolerance)


def ulp_distance(actual: np.ndarray, expected: np.ndarray, type_: Any) -> np.ndarray:
    """Units in the last place of the element type between the values (for
    complex numbers, the larger of the parts' distances)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if np.iscomplexobj(actual):
        part = TensorType(type_.get_element_type().element_type, type_.get_shape())
        return np.maximum(
            ulp_distance(np.real(actual), np.real(expected), part),
            ulp_distance(np.imag(actual), np.imag(expected), part),
        )
    storage = storage_dtype(type_)

    def key(x: np.ndarray) -> np.ndarray:
        stored = np.asarray(x).astype(storage)
        if storage == np.dtype(ml_dtypes.float8_e8m0fnu):  # no sign bit
            return stored.view(np.uint8).astype(np.int64)
        return total_order_key(stored).astype(np.int64)

    return np.abs(key(actual) - key(expected))


def _record(
    interp: ModuleInterpreter,
    op: Operation,
    ok: np.ndarray,
    actual: np.ndarray,
    expected: np.ndarray,
    what: str,
) -> None:
    ok = np.asarray(ok)
    if np.shape(actual) != np.shape(expected):
        interp.check_failures.append(
            format_at_op(
                op,
                f"{op.name} failed: shape {list(np.shape(actual))} != expected "
                f"{list(np.shape(expected))}",
                interp.sources,
            )
        )
        return
    if ok.all():
        return
    bad = np.argwhere(~np.broadcast_to(ok, np.shape(actual)))
    first = tuple(int(i) for i in bad[0]) if bad.size else ()
    got = np.asarray(actual)[first] if first else np.asarray(actual)
    want = np.asarray(expected)[first] if first else np.asarray(expected)
    where = f" at index {list(first)}" if first else ""
    interp.check_failures.append(
        format_at_op(
            op,
            f"{op.name} failed ({what}): {len(bad)} element(s) differ; first{where}: "
            f"got {got}, expected {want}\n  got:      {_preview(actual)}\n"
            f"  expected: {_preview(expected)}",
            interp.sources,
        )
    )


@impl(ExpectEqConstOp)
def _expect_eq_const(op: Operation, interp: ModuleInterpreter):
    expected = dense_to_numpy(attribute(op, "value"))

    def check(actual: Array) -> None:
        _record(interp, op, exactly_equal(actual, expected), actual, expected, "exact")

    return check


@impl(ExpectEqOp)
def _expect_eq(op: Operation, interp: ModuleInterpreter):
    def check(actual: Array, expected: Array) -> None:
        _record(interp, op, exactly_equal(actual, expected), actual, expected, "exact")

    return check


@impl(ExpectAlmostEqConstOp)
def _expect_almost_eq_const(op: Operation, interp: ModuleInterpreter):
    expected = dense_to_numpy(attribute(op, "value"))
    tolerance = _float_value(attribute(op, "tolerance"), DEFAULT_TOLERANCE)

    def check(actual: Array) -> None:
        ok = almost_equal(actual, expected, tolerance)
        _record(interp, op, ok, actual, expected, f"tolerance {tolerance:g}")

    return check


@impl(ExpectAlmostEqOp)
def _expect_almost_eq(op: Operation, interp: ModuleInterpreter):
    tolerance = _float_value(attribute(op, "tolerance"), DEFAULT_TOLERANCE)

    def check(actual: Array, expected: Array) -> None:
        ok = almost_equal(actual, expected, tolerance)
        _record(interp, op, ok, actual, expected, f"tolerance {tolerance:g}")

    return check


@impl(ExpectCloseOp)
def _expect_close(op: Operation, interp: ModuleInterpreter):
    most = _int_value(attribute(op, "max_ulp_difference"), 1)
    least = _int_value(attribute(op, "min_ulp_difference"), 0)

    def check(actual: Array, expected: Array) -> None:
        a, e = np.asarray(actual), np.asarray(expected)
        distance = ulp_distance(a, e, op.operands[0].type)
        finite = np.isfinite(a) & np.isfinite(e)
        ok = np.where(
            finite,
            (distance >= least) & (distance <= most),
            exactly_equal(a, e),
        )
        _record(interp, op, ok, a, e, f"ULP distance in [{least}, {most}]")

    return check


@impl(ProbeOp)
def _probe(op: Operation, interp: ModuleInterpreter):
    probe_id = attribute(op, "probe_id").data

    def probe(x: Array) -> Array:
        interp.probes.setdefault(probe_id, []).append(np.array(x, copy=True))
        return x

    return probe


@impl(ExpectSerializedEqOp)
def _expect_serialized_eq(op: Operation, interp: ModuleInterpreter):
    probe_id = attribute(op, "probe_id").data
    iteration = _int_value(attribute(op, "iter"), 0)

    def check(expected: Array) -> None:
        recorded = interp.probes.get(probe_id, [])
        if iteration >= len(recorded):
            interp.check_failures.append(
                format_at_op(
                    op,
                    f"{op.name} failed: probe '{probe_id}' recorded "
                    f"{len(recorded)} value(s), so it has no iteration {iteration}",
                    interp.sources,
                )
            )
            return
        actual = recorded[iteration]
        _record(interp, op, exactly_equal(actual, expected), actual, expected, "exact")

    return check
