"""Comparing an output with the expected one, with a tolerance per dtype.

Defaults (`default_tolerance`), used by `xlir-run --expected`:

| dtype | an element matches when |
|---|---|
| bool, integers (int2 ... int64, uint*) | it is equal |
| float64, complex128 | `|got - want| <= 1e-12 + 1e-9 * |want|` |
| float32, complex64 | `|got - want| <= 1e-5 + 1e-4 * |want|` |
| float16, bfloat16 | `|got - want| <= 8 ulp(want)` |
| float8, float6, float4 types | `|got - want| <= 2 ulp(want)` |

`ulp(x)` is the spacing of the type's values at `|x|` (at the smallest
normal or below, the spacing of its subnormals): a rounding difference in
the last place of a narrow type is relative and large (bf16 has 8
significant bits), which a fixed rtol would either miss or flag. The narrow
types' allowance covers a target that keeps a fused chain of ops in f32
and rounds once where the evaluator rounds after each op, as XLA does.
NaN matches
NaN, and infinities match themselves. `--rtol`/`--atol` replace the rule for
every float dtype by `|got - want| <= atol + rtol * |want|` (one given
alone: the other is 0); integers and bools stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from xlir.element_dtypes import ML_FLOATS, value_kind


@dataclass(frozen=True)
class Tolerance:
    """`atol + rtol * |want|`, or with `ulps`, `ulps * ulp(want)`; all zero:
    exact."""

    rtol: float = 0.0
    atol: float = 0.0
    ulps: int | None = None

    def describe(self, dtype: np.dtype) -> str:
        if self.ulps is not None:
            return f"{self.ulps} ulp of {dtype}"
        return f"rtol={self.rtol:g} atol={self.atol:g}"


EXACT = Tolerance()
WIDE = (np.dtype(np.float64), np.dtype(np.complex128))
HALF = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def default_tolerance(dtype: np.dtype) -> Tolerance:
    """The per-dtype default of the table above."""
    if value_kind(dtype) in "biu":
        return EXACT
    if dtype in WIDE:
        return Tolerance(rtol=1e-9, atol=1e-12)
    if dtype in HALF:
        return Tolerance(ulps=8)
    if dtype in ML_FLOATS:
        return Tolerance(ulps=2)
    return Tolerance(rtol=1e-4, atol=1e-5)


def tolerance_for(dtype: np.dtype, rtol: float | None, atol: float | None) -> Tolerance:
    """The default, or the flags' rule for floats when either is given."""
    if (rtol is None and atol is None) or value_kind(dtype) in "biu":
        return default_tolerance(dtype)
    return Tolerance(rtol=rtol or 0.0, atol=atol or 0.0)


def _ulp(want: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The spacing of `dtype`'s values at each |want| (float64)."""
    info = ml_dtypes.finfo(dtype)
    tiny = float(info.tiny)
    magnitude = np.maximum(np.abs(want), tiny)
    exponent = np.floor(np.log2(magnitude))
    return np.exp2(exponent - info.nmant)


def compare(
    got: np.ndarray, want: np.ndarray, tolerance: Tolerance
) -> tuple[bool, str]:
    """(ok, verdict text) for one output."""
    if got.shape != want.shape:
        return False, f"shape {list(got.shape)} != expected {list(want.shape)}"
    kinds = value_kind(want.dtype) + value_kind(got.dtype)
    if any(k in "biu" for k in kinds):
        if got.dtype != want.dtype:
            return False, f"dtype {got.dtype} != expected {want.dtype}"
        differ = got != want
        if not differ.any():
            return True, "exact match"
        index = tuple(int(i) for i in np.argwhere(differ)[0])
        return False, (
            f"{int(differ.sum())} of {got.size} elements differ; first at "
            f"{list(index)}: got {got[index]}, expected {want[index]}"
        )
    wide = np.complex128 if "c" in kinds else np.float64
    g = got.astype(wide)
    w = want.astype(wide)
    same = (g == w) | (np.isnan(g) & np.isnan(w))  # inf and NaN where expected
    with np.errstate(invalid="ignore"):
        error = np.where(same, 0.0, np.abs(g - w))
    error = np.where(np.isnan(error), np.inf, error)  # NaN against a number
    if tolerance.ulps is not None:
        ulp = _ulp(w.real, got.dtype)
        allowed = tolerance.ulps * ulp
    else:
        allowed = tolerance.atol + tolerance.rtol * np.abs(w)
    with np.errstate(invalid="ignore"):
        bad = ~same & (~np.isfinite(w) | ~(error <= allowed))
    worst_abs = float(np.max(error)) if error.size else 0.0
    if tolerance.ulps is not None:
        in_ulps = float(np.max(error / ulp)) if error.size else 0.0
        summary = f"max abs err {worst_abs:.3g}, max err {in_ulps:.3g} ulp"
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = np.where(
                w != 0, error / np.abs(w), np.where(error == 0, 0.0, np.inf)
            )
        worst_rel = float(np.nanmax(relative)) if relative.size else 0.0
        summary = f"max abs err {worst_abs:.3g}, max rel err {worst_rel:.3g}"
    rule = tolerance.describe(got.dtype)
    if not bad.any():
        return True, f"within {rule} ({summary})"
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return False, (
        f"{int(bad.sum())} of {got.size} elements outside {rule} ({summary}); "
        f"first at {list(index)}: got {got[index]}, expected {want[index]}"
    )
