"""batch_norm_inference, batch_norm_training and batch_norm_grad, reducing
over every dimension but the feature dimension (statistics in float64)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.normalization import (
    BatchNormGradOp,
    BatchNormInferenceOp,
    BatchNormTrainingOp,
)
from xlir.evaluator.hlo.data_movement import int_attr
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl

Array = Any


def _layout(op: Operation) -> tuple[float, int]:
    return float(attribute(op, "epsilon").value.data), int_attr(op, "feature_index")


def _along(feature: Array, ndim: int, axis: int) -> np.ndarray:
    """A per-feature vector shaped to broadcast along `axis`."""
    view = [1] * ndim
    view[axis] = -1
    return np.asarray(feature, np.float64).reshape(view)


def _statistics(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and biased variance over every dimension but `axis`."""
    others = tuple(d for d in range(x.ndim) if d != axis)
    mean = x.mean(axis=others)
    variance = ((x - _along(mean, x.ndim, axis)) ** 2).mean(axis=others)
    return mean, variance


@impl(BatchNormInferenceOp)
def _inference(op: Operation, interp: ModuleInterpreter):
    epsilon, axis = _layout(op)

    def run(x: Array, scale: Array, offset: Array, mean: Array, var: Array) -> Array:
        x = np.asarray(x, np.float64)
        n = x.ndim
        normal = (x - _along(mean, n, axis)) / np.sqrt(_along(var, n, axis) + epsilon)
        return normal * _along(scale, n, axis) + _along(offset, n, axis)

    return run


@impl(BatchNormTrainingOp)
def _training(op: Operation, interp: ModuleInterpreter):
    epsilon, axis = _layout(op)

    def run(x: Array, scale: Array, offset: Array) -> list[Array]:
        x = np.asarray(x, np.float64)
        n = x.ndim
        mean, var = _statistics(x, axis)
        normal = (x - _along(mean, n, axis)) / np.sqrt(_along(var, n, axis) + epsilon)
        output = normal * _along(scale, n, axis) + _along(offset, n, axis)
        return [output, mean, var]

    return run


@impl(BatchNormGradOp)
def _grad(op: Operation, interp: ModuleInterpreter):
    """With x̂ = (x - mean) / sqrt(var + epsilon) and N elements per feature:
    grad_offset = Σ g, grad_scale = Σ g x̂, and
    grad_operand = scale / sqrt(var + epsilon) * (g - grad_offset / N
    - x̂ grad_scale / N)."""
    epsilon, axis = _layout(op)

    def run(x: Array, scale: Array, mean: Array, var: Array, g: Array) -> list[Array]:
        x, g = np.asarray(x, np.float64), np.asarray(g, np.float64)
        n = x.ndim
        others = tuple(d for d in range(n) if d != axis)
        count = x.size // max(x.shape[axis], 1) if x.size else 0
        stddev = np.sqrt(_along(var, n, axis) + epsilon)
        normal = (x - _along(mean, n, axis)) / stddev
        grad_offset = g.sum(axis=others)
        grad_scale = (g * normal).sum(axis=others)
        per = max(count, 1)
        grad_operand = (_along(scale, n, axis) / stddev) * (
            g
            - _along(grad_offset, n, axis) / per
            - normal * _along(grad_scale, n, axis) / per
        )
        return [grad_operand, grad_scale, grad_offset]

    return run
