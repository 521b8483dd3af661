"""Outputs against the expected ones, within the corpus tolerances
(../shared/corpus/tolerances.json: per program rtol and atol for float32
outputs; integer and boolean outputs, and those the program lists as exact,
bit for bit).

The reduction tolerance: a GPU sums a reduction in another order than
XLA:CPU (per-thread partial sums, then a tree of warp shuffles), so the
absolute tolerance of a float output is at least `REDUCTION_ATOL` times the
largest magnitude of the expected output (the rule of the bench programs
in tests/e2e/test_corpus.py), and |got - want| <= atol + rtol * |want|.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

REDUCTION_ATOL = 1e-6
"""Times max |want|: the least absolute tolerance of a float output."""


def compare_output(
    got: np.ndarray,
    want: np.ndarray,
    rtol: float,
    atol: float,
    exact: bool,
    positions: np.ndarray | None = None,
) -> dict[str, Any]:
    """How `got` compares with `want`: ok, and the largest errors.
    `positions`: `want` holds only the elements at these flat positions of
    the output (a sample of a large one)."""
    result: dict[str, Any] = {"shape": list(got.shape), "dtype": str(got.dtype)}
    values = got.reshape(-1)[positions] if positions is not None else got
    if positions is None and (got.shape != want.shape):
        return {
            **result,
            "ok": False,
            "why": f"shape {got.shape}, expected {want.shape}",
        }
    if got.dtype != want.dtype:
        return {
            **result,
            "ok": False,
            "why": f"dtype {got.dtype}, expected {want.dtype}",
        }
    if exact or want.dtype.kind in "biu":
        bad = values != want
        result.update(ok=not bad.any(), exact=True, mismatches=int(bad.sum()))
        if bad.any():
            first = int(np.flatnonzero(bad.reshape(-1))[0])
            result["first"] = {
                "at": first,
                "got": values.reshape(-1)[first].item(),
                "want": want.reshape(-1)[first].item(),
            }
        return result
    have = values.astype(np.float64)
    expected = want.astype(np.float64)
    scale = float(np.max(np.abs(expected), initial=0.0))
    tolerance = max(atol, REDUCTION_ATOL * scale)
    error = np.abs(have - expected)
    allowed = tolerance + rtol * np.abs(expected)
    bad = ~(error <= allowed)  # NaN where a number is expected is bad
    nonzero = np.abs(expected) > 1e-3 * scale
    relative = error[nonzero] / np.abs(expected[nonzero])
    result.update(
        ok=not bad.any(),
        rtol=rtol,
        atol=tolerance,
        max_abs=float(np.nanmax(error, initial=0.0)),
        max_rel=float(np.nanmax(relative, initial=0.0)),
        mismatches=int(bad.sum()),
        used=float(np.nanmax(error / allowed, initial=0.0)),
    )
    if bad.any():
        first = int(np.flatnonzero(bad.reshape(-1))[0])
        result["first"] = {
            "at": first,
            "got": float(have.reshape(-1)[first]),
            "want": float(expected.reshape(-1)[first]),
        }
    return result


def compare_outputs(
    got: Sequence[np.ndarray],
    want: Sequence[np.ndarray],
    tolerance: dict[str, Any],
    positions: Sequence[np.ndarray | None] | None = None,
) -> list[dict[str, Any]]:
    """Each output compared (see `compare_output`); a count mismatch is one
    failed entry."""
    if len(got) != len(want):
        return [{"ok": False, "why": f"{len(got)} outputs, expected {len(want)}"}]
    exact = set(tolerance.get("exact_outputs", []))
    return [
        compare_output(
            have,
            expected,
            float(tolerance["rtol"]),
            float(tolerance["atol"]),
            index in exact,
            positions[index] if positions is not None else None,
        )
        for index, (have, expected) in enumerate(zip(got, want, strict=True))
    ]
