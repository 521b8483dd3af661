"""The LAPACK custom calls of `jnp.linalg` (dialects/stablehlo/lapack.py) on
numpy arrays: each routine follows LAPACK's unblocked algorithm and output
conventions (what it leaves in the other triangle, 1-based pivots, `info`),
so the cpu kernels that follow the same algorithms agree with it to rounding.
The symmetric eigendecomposition and the SVD take numpy's, whose vectors are
defined up to sign (as LAPACK's are)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xlir.dialects.stablehlo.lapack import LapackCall
from xlir.evaluator.hlo.linalg import cholesky, solve_triangular

Array = Any
_TRANSPOSE = {"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}


def lapack_kernel(call: LapackCall) -> Callable[..., Array]:
    """The routine of `call` as a function of numpy arrays to its results (a
    list, or the one array of trsm and orgqr)."""
    dtype = np.float32 if call.element.bitwidth == 32 else np.float64  # type: ignore[attr-defined]
    match call.routine:
        case "trsm":
            left, lower = call.flag("side") == "L", call.flag("uplo") == "L"
            unit, transpose = call.flag("diag") == "U", _TRANSPOSE[call.flag("trans_x")]
            return lambda a, b: solve_triangular(
                a, b, left, lower, unit, transpose
            ).astype(dtype)
        case "potrf":
            return lambda a: potrf(np.asarray(a), call.flag("uplo") == "L")
        case "getrf":
            return lambda a: getrf(np.asarray(a))
        case "geqrf":
            return lambda a: geqrf(np.asarray(a))
        case "orgqr":
            return lambda a, tau: orgqr(np.asarray(a), np.asarray(tau))
        case "syevd":
            return lambda a: syevd(np.asarray(a), call.flag("uplo") == "L")
        case _:
            return lambda a: gesdd(np.asarray(a), call.flag("mode") != "S")


def _info(failed: Array) -> Array:
    """LAPACK's `info` per matrix: 1 + the first position along the last
    axis of `failed` that holds, or 0."""
    first = np.argmax(failed, axis=-1) + 1
    return np.where(failed.any(axis=-1), first, 0).astype(np.int32)


def potrf(a: Array, lower: bool) -> list[Array]:
    """Cholesky factor in the `lower` (or upper) triangle, the other
    triangle as given; `info` is the order of the first leading minor that
    is not positive definite (the factor is undefined from there on)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = cholesky(a, lower)
    size = a.shape[-1]
    rows, columns = np.indices((size, size))
    keep = rows >= columns if lower else rows <= columns
    diagonal = np.diagonal(factor, axis1=-2, axis2=-1)
    return [np.where(keep, factor, a), _info(~(diagonal > 0))]


def _first_largest(magnitudes: Array) -> int:
    """BLAS's i?amax: the first position of the largest magnitude, where a
    NaN is never larger (so it is chosen only in the first position)."""
    if np.isnan(magnitudes[0]):
        return 0
    return int(np.argmax(np.where(np.isnan(magnitudes), -1, magnitudes)))


def getrf(a: Array) -> list[Array]:
    """LU with partial pivoting (LAPACK's getf2): column j takes as pivot
    the first row of largest magnitude at or below j (`_first_largest`) and
    swaps whole rows,
    divides the column below by the pivot unless it is zero (then `info`
    names the first such column) and updates the trailing matrix."""
    lu = np.array(a, copy=True)
    m, n = lu.shape[-2:]
    steps = min(m, n)
    pivots = np.zeros((*lu.shape[:-2], steps), np.int32)
    info = np.zeros(lu.shape[:-2], np.int32)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for index in np.ndindex(*lu.shape[:-2]):
            matrix = lu[index]
            for j in range(steps):
                row = j + _first_largest(np.abs(matrix[j:, j]))
                pivots[(*index, j)] = row + 1
                if matrix[row, j] != 0:
                    matrix[[j, row]] = matrix[[row, j]]
                    matrix[j + 1 :, j] /= matrix[j, j]
                elif info[index] == 0:
                    info[index] = j + 1
                matrix[j + 1 :, j + 1 :] -= np.outer(
                    matrix[j + 1 :, j], matrix[j, j + 1 :]
                )
    return [lu, pivots, info]


def _householder(alpha: Array, x: Array) -> tuple[Array, Array, Array]:
    """LAPACK's larfg: beta, tau and v (v[0] = 1 implied) with
    (I - tau [1 v][1 v]^T) [alpha x] = [beta 0]; tau = 0 when x is zero."""
    norm = np.linalg.norm(x)
    if norm == 0:
        return alpha, np.zeros_like(alpha), np.zeros_like(x)
    beta = -np.copysign(np.hypot(alpha, norm), alpha)
    return beta, (beta - alpha) / beta, x / (alpha - beta)


def geqrf(a: Array) -> list[Array]:
    """Householder QR (LAPACK's geqr2): R on and above the diagonal, the
    reflectors' vectors below it, their scales in tau."""
    qr = np.array(a, copy=True)
    m, n = qr.shape[-2:]
    tau = np.zeros((*qr.shape[:-2], min(m, n)), qr.dtype)
    for index in np.ndindex(*qr.shape[:-2]):
        matrix = qr[index]
        for j in range(min(m, n)):
            beta, scale, v = _householder(matrix[j, j], matrix[j + 1 :, j])
            matrix[j, j], matrix[j + 1 :, j], tau[(*index, j)] = beta, v, scale
            full = np.concatenate([[1], v]).astype(qr.dtype)
            block = matrix[j:, j + 1 :]
            block -= scale * np.outer(full, full @ block)
    return [qr, tau]


def orgqr(a: Array, tau: Array) -> Array:
    """The first n columns of Q = H_1 ... H_k from geqrf's reflectors (LAPACK's
    org2r: the reflectors applied, last first, to the identity's columns)."""
    m, n = a.shape[-2:]
    q = np.zeros(a.shape, a.dtype)
    for index in np.ndindex(*a.shape[:-2]):
        matrix = np.eye(m, n, dtype=a.dtype)
        for j in range(tau.shape[-1] - 1, -1, -1):
            full = np.concatenate([[1], a[index][j + 1 :, j]]).astype(a.dtype)
            block = matrix[j:, :]
            block -= tau[(*index, j)] * np.outer(full, full @ block)
        q[index] = matrix
    return q


def syevd(a: Array, lower: bool) -> list[Array]:
    """Eigenvectors (columns) and eigenvalues in ascending order of the
    symmetric matrices given by their `lower` (or upper) triangle; a matrix
    with NaN or inf gives NaN and `info` 1."""
    finite = np.isfinite(a).all(axis=(-2, -1))
    clean = np.where(finite[..., None, None], a, 0)
    values, vectors = np.linalg.eigh(clean, UPLO="L" if lower else "U")
    bad = ~finite
    return [
        np.where(bad[..., None, None], np.nan, vectors).astype(a.dtype),
        np.where(bad[..., None], np.nan, values).astype(a.dtype),
        bad.astype(np.int32),
    ]


def gesdd(a: Array, full: bool) -> list[Array]:
    """Singular values (descending) with U and V^T, full or reduced; the
    first result is LAPACK's workspace copy of a (its contents are
    unspecified; it is returned unchanged). NaN or inf gives NaN, `info` 1."""
    finite = np.isfinite(a).all(axis=(-2, -1))
    clean = np.where(finite[..., None, None], a, 0)
    u, s, vt = np.linalg.svd(clean, full_matrices=full)
    bad = ~finite
    return [
        np.array(a, copy=True),
        np.where(bad[..., None], np.nan, s).astype(a.dtype),
        np.where(bad[..., None, None], np.nan, u).astype(a.dtype),
        np.where(bad[..., None, None], np.nan, vt).astype(a.dtype),
        bad.astype(np.int32),
    ]
