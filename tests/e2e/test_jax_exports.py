"""The JAX programs of tests/jax_exports (batch norm, a CNN training step,
cumulative ops, dropout, sorting, transformer blocks in f32/bf16/f16, an
int8 matmul, FFT, linalg, f64 converts, a shape-polymorphic export; see
export.py there) give JAX's outputs on the interpreter and cpu: integers
exactly, floats within a tolerance for their dtype.

What fails for a reason another piece of work owns is listed in KNOWN_GAPS
with that reason; such a case must still fail (strict), so the list stays
true as those land."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xlir

EXPORTS = Path(__file__).resolve().parent.parent / "jax_exports"
PROGRAMS = sorted(p.stem for p in EXPORTS.glob("*.mlir"))
TARGETS = ("interpreter", "cpu")

TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-12, 1e-12),
    "float32": (2e-5, 2e-6),
    "complex64": (2e-5, 2e-6),
    "float16": (4e-3, 1e-3),
    "bfloat16": (3e-2, 1e-2),
}
"""(rtol, atol) per output dtype: a few units in the last place of the type
(contractions and reductions add in another order than XLA)."""

KNOWN_GAPS: dict[tuple[str, str], tuple[str, str]] = {
    ("fft_c64", "cpu"): ("complex: complex<f32> and fft on cpu", "fft|complex"),
    ("linalg_solve_cholesky", "interpreter"): (
        "linalg: LAPACK custom calls",
        "custom_call",
    ),
    ("linalg_solve_cholesky", "cpu"): ("linalg: LAPACK custom calls", "custom_call"),
    ("shape_poly", "interpreter"): ("refine: refine-shapes", "dynamic shape"),
    ("shape_poly", "cpu"): ("refine: refine-shapes", "dynamic shape"),
    ("transformer_bf16", "interpreter"): (
        "refine: ml_dtypes.bfloat16 arrays through the API",
        "bfloat16",
    ),
    ("transformer_bf16", "cpu"): (
        "refine: ml_dtypes.bfloat16 arrays through the API; lowp: bf16 on cpu",
        "bfloat16|bf16",
    ),
}
"""(program, target) -> (whose work it waits for, a regular expression the
failure's message matches)."""


def arrays(prefix: str, name: str) -> list[np.ndarray]:
    """`prefix`0, 1, ... of NAME.npz; JAX saves bf16 as 2-byte voids."""
    data = np.load(EXPORTS / f"{name}.npz")
    count = sum(key.startswith(prefix) for key in data.files)
    loaded = [data[f"{prefix}{i}"] for i in range(count)]
    return [a.view(ml_dtypes.bfloat16) if a.dtype.kind == "V" else a for a in loaded]


def check(name: str, target: str) -> None:
    executable = xlir.compile(
        (EXPORTS / f"{name}.mlir").read_text(), target=target, name=f"{name}.mlir"
    )
    got = executable(*arrays("arg", name))
    results = got if isinstance(got, tuple) else (got,)
    expected = arrays("out", name)
    assert len(results) == len(expected)
    for index, (result, want) in enumerate(zip(results, expected, strict=True)):
        assert result.shape == want.shape, f"out{index}: shape"
        assert result.dtype == want.dtype, f"out{index}: dtype"
        if want.dtype.kind in "biu":
            np.testing.assert_array_equal(result, want, err_msg=f"out{index}")
            continue
        rtol, atol = TOLERANCES[want.dtype.name]
        np.testing.assert_allclose(
            result.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
            want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
            rtol=rtol,
            atol=atol,
            err_msg=f"out{index}",
        )


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_jax(name: str, target: str) -> None:
    gap = KNOWN_GAPS.get((name, target))
    if gap is None:
        check(name, target)
        return
    cause, message = gap
    with pytest.raises(Exception, match=message):
        check(name, target)
    pytest.xfail(cause)


def test_known_gaps_name_existing_cases() -> None:
    assert {name for name, _ in KNOWN_GAPS} <= set(PROGRAMS)
