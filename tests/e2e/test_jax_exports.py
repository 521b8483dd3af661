"""The JAX programs of tests/jax_exports (batch norm, a CNN training step,
cumulative ops, dropout, sorting, transformer blocks in f32/bf16/f16, an
int8 matmul, FFT, linalg, f64 converts, a shape-polymorphic export; see
export.py there) give JAX's outputs on every registered target: integers
exactly, floats within xlir-run's default tolerance for their dtype.

What fails for a reason another piece of work owns is listed in the target's
known gaps (`Target.known_gaps().jax_exports`) with that reason; such a case
must still fail (strict), so the list stays true as those land."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xlir.targets.registry import get_target, target_names
from xlir.tools.compare import Tolerance, compare, default_tolerance

import xlir
from tests.conftest import skip_without_device
from xlir.element_dtypes import from_void

EXPORTS = Path(__file__).resolve().parent.parent / "jax_exports"
PROGRAMS = sorted(p.stem for p in EXPORTS.glob("*.mlir"))


TOLERANCES = {"transformer_f16": Tolerance(rtol=4e-3, atol=4e-3)}
"""Where xlir-run's default does not fit: the f16 block's residual sums of
terms near 1 cancel to outputs near 0.01, where a rounding of the terms
(XLA rounds to f16 at other points than the evaluator) is tens of the
output's ulps, so the bound is a few ulps of the terms instead."""


def arrays(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    """`prefix`0, 1, ... of an .npz (bf16 ones as JAX saves them: voids)."""
    count = sum(key.startswith(prefix) for key in data.files)
    return [data[f"{prefix}{i}"] for i in range(count)]


def check(name: str, target: str) -> None:
    """The program's outputs on `target` are JAX's, within xlir-run's
    default tolerance for their dtype (`tools/compare.py`)."""
    executable = xlir.compile(
        (EXPORTS / f"{name}.mlir").read_text(), target=target, name=f"{name}.mlir"
    )
    data = np.load(EXPORTS / f"{name}.npz")
    specs = executable.signature.arguments
    arguments = [
        from_void(a, spec.dtype)
        for a, spec in zip(arrays(data, "arg"), specs, strict=True)
    ]
    got = executable(*arguments)
    results = got if isinstance(got, tuple) else (got,)
    expected = arrays(data, "out")
    assert len(results) == len(expected)
    for index, (result, want) in enumerate(zip(results, expected, strict=True)):
        result = np.asarray(result)
        want = from_void(want, result.dtype)
        assert result.dtype == want.dtype, f"out{index}: dtype"
        tolerance = TOLERANCES.get(name, default_tolerance(result.dtype))
        ok, verdict = compare(result, want, tolerance)
        assert ok, f"out{index}: {verdict}"


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("target", target_names())
@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_jax(name: str, target: str) -> None:
    skip_without_device(target)
    gap = get_target(target).known_gaps().jax_exports.get(name)
    if gap is None:
        check(name, target)
        return
    cause, message = gap
    with pytest.raises(Exception, match=message):
        check(name, target)
    pytest.xfail(cause)


@pytest.mark.parametrize("target", target_names())
def test_known_gaps_name_existing_cases(target: str) -> None:
    assert set(get_target(target).known_gaps().jax_exports) <= set(PROGRAMS)
