"""triangular_solve, cholesky and fft on numpy arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.linalg import CholeskyOp, FftOp, TriangularSolveOp
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import Unsupported

Array = Any


def solve_triangular(
    a: Array, b: Array, left_side: bool, lower: bool, unit: bool, transpose: str
) -> Array:
    """Solve op(A) X = B (or X op(A) = B) by substitution, one row of X at a
    time over every batch and right-hand side at once; A is a's `lower` (or
    upper) triangle, with a unit diagonal if `unit`."""
    a, b = np.asarray(a), np.asarray(b)
    size = a.shape[-1]
    rows, columns = np.indices((size, size))
    keep = rows >= columns if lower else rows <= columns
    matrix = np.where(keep, a, 0)
    if unit:
        matrix = np.where(rows == columns, 1, matrix)
    if transpose != "NO_TRANSPOSE":
        matrix = np.swapaxes(matrix, -1, -2)
        lower = not lower
        if transpose == "ADJOINT":
            matrix = np.conj(matrix)
    if not left_side:  # X A = B  <=>  A^T X^T = B^T
        matrix, b = np.swapaxes(matrix, -1, -2), np.swapaxes(b, -1, -2)
        lower = not lower
    x = np.zeros(b.shape, np.result_type(matrix, b))
    order = range(size) if lower else range(size - 1, -1, -1)
    for i in order:
        known = np.einsum("...k,...kn->...n", matrix[..., i, :], x)
        x[..., i, :] = (b[..., i, :] - known) / matrix[..., i, i, None]
    return x if left_side else np.swapaxes(x, -1, -2)


def _flag(op: Operation, name: str) -> bool:
    return bool(attribute(op, name).value.data)


@impl(TriangularSolveOp)
def _triangular_solve(op: Operation, interp: ModuleInterpreter):
    left_side, lower = _flag(op, "left_side"), _flag(op, "lower")
    unit = _flag(op, "unit_diagonal")
    transpose = str(attribute(op, "transpose_a").data.value)
    return lambda a, b: solve_triangular(a, b, left_side, lower, unit, transpose)


def cholesky(a: Array, lower: bool) -> Array:
    """The Cholesky factor of each matrix (Cholesky-Banachiewicz, one column
    at a time over every batch at once); zeros in the other triangle. A
    matrix that is not positive definite gives NaN from its first failing
    pivot on, as the spec leaves it undefined."""
    a = np.asarray(a)
    factor = np.zeros_like(a)
    size = a.shape[-1]
    for j in range(size):
        # Plain products and sums, not einsum: the einsum form gave NaN for
        # float32 in one full CI run (order-dependent, not reproduced alone).
        row = np.conj(factor[..., j, :j])
        pivot = a[..., j, j] - np.sum(factor[..., j, :j] * row, axis=-1)
        diagonal = np.sqrt(pivot.real if np.iscomplexobj(a) else pivot)
        factor[..., j, j] = diagonal
        below = a[..., j + 1 :, j] - np.sum(
            factor[..., j + 1 :, :j] * row[..., None, :], axis=-1
        )
        factor[..., j + 1 :, j] = below / diagonal[..., None]
    if lower:
        return factor
    return np.conj(np.swapaxes(factor, -1, -2))


@impl(CholeskyOp)
def _cholesky(op: Operation, interp: ModuleInterpreter):
    value = attribute(op, "lower")
    lower = bool(value is not None and value.value.data)
    return lambda a: cholesky(a, lower)


@impl(FftOp)
def _fft(op: Operation, interp: ModuleInterpreter):
    kind = str(attribute(op, "fft_type").data.value)
    length = [int(v) for v in attribute(op, "fft_length").iter_values()]
    axes = list(range(-len(length), 0))
    transforms = {
        "FFT": lambda x: np.fft.fftn(x, s=length, axes=axes),
        "IFFT": lambda x: np.fft.ifftn(x, s=length, axes=axes),
        "RFFT": lambda x: np.fft.rfftn(x, s=length, axes=axes),
        "IRFFT": lambda x: np.fft.irfftn(x, s=length, axes=axes),
    }
    if kind not in transforms:
        raise Unsupported(f"unknown fft type {kind}")
    return transforms[kind]
