"""`jnp.linalg` as JAX lowers it on CPU (LAPACK custom calls around plain
StableHLO), exported here and run on the evaluator and on cpu: the outputs
match JAX's own. Needs JAX (the `bench` extra); skipped without it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import xlir

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

RNG = np.random.default_rng(0)


def general(*dims: int) -> np.ndarray:
    return RNG.standard_normal(dims).astype(np.float32)


def positive_definite(*dims: int) -> np.ndarray:
    a = RNG.standard_normal(dims)
    return (a @ np.swapaxes(a, -1, -2) + dims[-1] * np.eye(dims[-1])).astype(np.float32)


def reconstruct_eigh(a: Any) -> Any:
    values, vectors = jnp.linalg.eigh(a)
    return vectors @ jnp.diag(values) @ vectors.T, values


def reconstruct_svd(a: Any) -> Any:
    u, s, vt = jnp.linalg.svd(a, full_matrices=False)
    return (u * s[..., None, :]) @ vt, s


PROGRAMS: dict[str, tuple[Callable[..., Any], Callable[[], tuple[np.ndarray, ...]], str]] = {
    "solve": (jnp.linalg.solve, lambda: (general(4, 4), general(4, 2)), "cpu"),
    "solve_batched": (jnp.linalg.solve, lambda: (general(3, 3, 3), general(3, 3, 1)), "cpu"),
    "solve_singular": (jnp.linalg.solve, lambda: (np.ones((3, 3), np.float32), general(3, 1)), "cpu"),
    "cholesky": (jnp.linalg.cholesky, lambda: (positive_definite(2, 4, 4),), "cpu"),
    "cholesky_indefinite": (jnp.linalg.cholesky, lambda: (-np.eye(3, dtype=np.float32),), "cpu"),
    "qr": (jnp.linalg.qr, lambda: (general(5, 3),), "cpu"),
    "qr_wide_batched": (jnp.linalg.qr, lambda: (general(2, 3, 5),), "cpu"),
    "inv": (jnp.linalg.inv, lambda: (general(4, 4),), "cpu"),
    "det": (jnp.linalg.det, lambda: (general(2, 3, 3),), "cpu"),
    "slogdet": (jnp.linalg.slogdet, lambda: (general(3, 3),), "cpu"),
    "solve_triangular": (
        lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=False, trans=1),
        lambda: (general(3, 3) + 3 * np.eye(3, dtype=np.float32), general(3, 2)),
        "cpu",
    ),
    "eigh": (reconstruct_eigh, lambda: (positive_definite(4, 4),), "cpu"),
    "svd": (reconstruct_svd, lambda: (general(4, 3),), "cpu"),
    "svd_wide_batched": (reconstruct_svd, lambda: (general(2, 3, 5),), "cpu"),
    "svdvals": (lambda a: jnp.linalg.svd(a, compute_uv=False), lambda: (general(5, 4),), "cpu"),
    "eigvalsh": (jnp.linalg.eigvalsh, lambda: (positive_definite(2, 3, 3),), "cpu"),
}  # fmt: skip
"""name -> (function, its arguments, the last target it runs on)."""


def targets_of(last: str) -> list[str]:
    return ["interpreter", "cpu"] if last == "cpu" else ["interpreter"]


@pytest.mark.parametrize(
    ("name", "target"),
    [(name, t) for name, (_, _, last) in PROGRAMS.items() for t in targets_of(last)],
)
def test_jnp_linalg_matches_jax(name: str, target: str):
    function, make, _ = PROGRAMS[name]
    arguments = make()
    text = jax.jit(function).lower(*arguments).as_text()
    want = [
        np.asarray(v) for v in jax.tree_util.tree_leaves(jax.jit(function)(*arguments))
    ]
    have = xlir.compile(text, target=target)(*arguments)
    have = list(have) if isinstance(have, tuple) else [have]
    assert len(have) == len(want)
    for h, w in zip(have, want, strict=True):
        assert h.shape == w.shape and h.dtype == w.dtype
        np.testing.assert_allclose(h, w, rtol=2e-4, atol=2e-4, equal_nan=True)
