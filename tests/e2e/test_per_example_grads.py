"""Per-example gradients from `jax.vmap(jax.grad(loss))` (the program in
`programs/per_example_grads.mlir`) give the closed-form gradients of softmax
cross-entropy on every target, with the full `hlo-opt` pipeline and with
`simplify` alone after `inline,decompose` (it turns the label's scatter
operand into a broadcast row, which the evaluator's scatter once wrote into
a column-major copy and lost: every output was zero)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xlir

PROGRAM = Path(__file__).parent / "programs" / "per_example_grads.mlir"


def _inputs() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(29)
    w = rng.standard_normal((16, 10)).astype(np.float32)
    b = rng.standard_normal(10).astype(np.float32)
    x = rng.standard_normal((8, 16)).astype(np.float32)
    y = rng.integers(0, 10, 8).astype(np.int32)
    return w, b, x, y


def _closed_form(w, b, x, y) -> tuple[np.ndarray, np.ndarray]:
    """d/dlogits of -log_softmax(logits)[y] is softmax(logits) - onehot(y);
    dw is its outer product with the example, db the gradient itself."""
    logits = x.astype(np.float64) @ w + b
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1.0
    return np.einsum("bi,bj->bij", x, p), p


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize(
    ("target", "pipeline"),
    [
        ("interpreter", "inline,decompose"),
        ("interpreter", "inline,decompose,simplify"),
        ("interpreter", None),
        ("cpu", None),
    ],
)
def test_per_example_gradients(target: str, pipeline: str | None) -> None:
    arguments = _inputs()
    executable = xlir.compile(PROGRAM, target=target, pipeline=pipeline)
    dw, db = executable(*arguments)
    want_dw, want_db = _closed_form(*arguments)
    np.testing.assert_allclose(dw, want_dw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(db, want_db, rtol=1e-5, atol=1e-6)
