"""Bundled example programs, exported from JAX, with numpy versions of them.

`python -m xlir.examples [NAME]` compiles one on the cpu target and prints
its compile time, its time per call against numpy's and the difference of
the results (the README's first quick-start command).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FOLDER = Path(__file__).resolve().parent


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _gelu_tanh(x: np.ndarray) -> np.ndarray:
    c = np.float32(np.sqrt(2 / np.pi))
    return 0.5 * x * (1 + np.tanh(c * (x + np.float32(0.044715) * x**3)))


def _mlp_classifier(x, w1, b1, w2, b2) -> np.ndarray:
    return _softmax(_gelu_tanh(x @ w1 + b1) @ w2 + b2)


@dataclass(frozen=True)
class Example:
    """A program file, what it computes in numpy, and how to scale its inputs
    (weights by 1/sqrt(fan-in), as JAX models initialize them)."""

    file: str
    numpy: Callable[..., np.ndarray]
    weights: tuple[int, ...] = ()

    @property
    def path(self) -> Path:
        return FOLDER / self.file


EXAMPLES = {
    "mlp_classifier": Example("mlp_classifier.mlir", _mlp_classifier, (1, 3)),
    "softmax_rows": Example("softmax_rows.mlir", _softmax),
}
"""mlp_classifier: dense 784->512, tanh-GELU, dense 512->10, softmax over a
batch of 256 (jax.jit(...).lower(...).as_text()); softmax_rows: the corpus's
small softmax."""
