"""Hand-written numpy versions of the corpus programs: the eager baseline that
`run.py` times xlir against, written from each program's StableHLO text.

Every function takes the program's arguments (in `@main`'s order) at any of
its sizes (small/ or bench/) and returns a tuple of its results with the
program's dtypes (rank-0 results as 0-d arrays). `run.py` checks them against
the interpreter within the corpus tolerances. Float constants are float32, as
in the programs, so that numpy keeps every intermediate in float32.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

F32 = np.float32


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, F32(0.0))


def _wrap_and_clamp(index: np.ndarray, size: int, window: int) -> np.ndarray:
    """A start index as StableHLO's gather and dynamic_slice take it after
    JAX's negative-index fixup: negatives count from the end, then the start
    is clamped so that a window of `window` elements stays in bounds."""
    wrapped = np.where(index < 0, index + size, index)
    return np.clip(wrapped, 0, size - window)


def gelu(x: np.ndarray) -> tuple[np.ndarray, ...]:
    inner = F32(0.797884583) * (x + F32(0.044715) * (x * x * x))
    return (x * (F32(0.5) * (F32(1.0) + np.tanh(inner))),)


def fma_xyz(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, ...]:
    return (x * y + z,)


def chain10(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    t = np.tanh(x * F32(1.5) + y - F32(0.25))
    return (np.exp(-np.maximum(np.sqrt(t * t + F32(1.0)), y)),)


def softmax_rows(x: np.ndarray) -> tuple[np.ndarray, ...]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True),)


def layernorm(
    x: np.ndarray, gain: np.ndarray, bias: np.ndarray
) -> tuple[np.ndarray, ...]:
    count = F32(x.shape[1])
    centered = x - x.sum(axis=1, keepdims=True) / count
    variance = (centered * centered).sum(axis=1, keepdims=True) / count
    scale = F32(1.0) / np.sqrt(variance + F32(1e-5))
    return (centered * scale * gain + bias,)


def mlp_fwd(
    x: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
) -> tuple[np.ndarray, ...]:
    h1 = _relu(x @ w1 + b1)
    h2 = _relu(h1 @ w2 + b2)
    return (h2 @ w3 + b3,)


def matmul(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return (a @ b,)


def bmm_einsum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    return (np.matmul(a, b),)


def conv2d_nhwc(x: np.ndarray, kernel: np.ndarray) -> tuple[np.ndarray, ...]:
    """Stride 1, SAME padding, HWIO kernel: one matrix product per tap."""
    taps_h, taps_w = kernel.shape[:2]
    _, height, width, _ = x.shape
    padded = np.pad(
        x, ((0, 0), (taps_h // 2, taps_h // 2), (taps_w // 2, taps_w // 2), (0, 0))
    )
    out = np.zeros((*x.shape[:3], kernel.shape[3]), dtype=x.dtype)
    for dh in range(taps_h):
        for dw in range(taps_w):
            window = padded[:, dh : dh + height, dw : dw + width, :]
            out += window @ kernel[dh, dw]
    return (out,)


def reductions(x: np.ndarray) -> tuple[np.ndarray, ...]:
    return (
        x.sum(axis=0),
        x.max(axis=1),
        x.argmax(axis=1).astype(np.int32),
        np.asarray(x.sum(), dtype=x.dtype),
        x.min(axis=0),
    )


def transpose_reshape_bcast(
    x: np.ndarray, row: np.ndarray, scale: np.ndarray
) -> tuple[np.ndarray, ...]:
    d0, d1, d2 = x.shape
    ramp = np.linspace(-1.0, 1.0, d1, dtype=F32)
    steps = np.array([0.5, 1.0, 1.5, 2.0], dtype=F32)
    scaled = (x.transpose(2, 0, 1).reshape(d2, d0 * d1) + row) * scale[:, None]
    restored = (scaled.reshape(d2, d0, d1) + ramp).transpose(1, 2, 0)
    tiled = np.broadcast_to(scale[None, :, None], (4, d2, 16)) * steps[:, None, None]
    return scaled, restored, tiled


def slice_concat_pad(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    n = x.shape[0]
    half = n // 2
    offset = 100 * n // 256
    strided = x[::2, 10 : 10 + half]
    joined = np.concatenate(
        [strided, x[offset : offset + half, -half:], y[:half]], axis=1
    )
    padded = np.pad(joined, ((1, 2), (3, 4)))
    interleaved = np.zeros((2 * half + 2, strided.shape[1]), dtype=x.dtype)
    interleaved[2 : 2 * half + 1 : 2] = strided
    stacked = np.concatenate([x[::-1, : n // 4], x[:, 3 * n // 4 :]], axis=0)
    return joined, padded, interleaved, stacked


def compare_select(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    count = np.count_nonzero((x > 0) & (y < 0))
    return (
        np.where(x > y, x, y * F32(0.1)),
        np.minimum(F32(1.0), np.maximum(F32(-1.0), x)),
        np.asarray(count, dtype=np.int32),
        x >= y,
        np.where(np.isnan(x) | (np.abs(x) < F32(0.5)), F32(0.0), x),
    )


def int_ops(a: np.ndarray, b: np.ndarray, xf: np.ndarray) -> tuple[np.ndarray, ...]:
    c = a * np.int32(3) + b - np.arange(a.shape[1], dtype=np.int32)
    remainder = np.fmod(a, b)  # C semantics: the sign of the dividend
    quotient = (a - remainder) // b  # exact, so rounding toward zero
    bits = ((a & 255) | (b << 2)) ^ (a >> 3)
    return (
        c // np.int32(7),
        c % np.int32(5),
        quotient,
        remainder,
        bits,
        c.astype(F32) * F32(0.5),
        (xf * F32(10.0)).astype(np.int32),
        c.max(axis=1),
        c.sum(axis=0, dtype=np.int32),
    )


def while_loops(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, ...]:
    c = x
    for step in range(10):
        c = np.tanh(c @ w + F32(step) * F32(0.01))
    halvings = 0
    while halvings < 100 and np.abs(c).max() > F32(0.1):
        c = c * F32(0.5)
        halvings += 1
    return c, np.asarray(halvings, dtype=np.int32)


def gather_index(table: np.ndarray, index: np.ndarray) -> tuple[np.ndarray, ...]:
    rows, cols = table.shape
    row = _wrap_and_clamp(index, rows, 1)
    col = _wrap_and_clamp(index % np.int32(cols), cols, 1)
    return table[row], table[row, col]


def dynamic_slice(
    x: np.ndarray, block: np.ndarray, i: np.ndarray, j: np.ndarray
) -> tuple[np.ndarray, ...]:
    m = block.shape[0]
    si, sj = _wrap_and_clamp(i, x.shape[0], m), _wrap_and_clamp(j, x.shape[1], 2 * m)
    window = x[si : si + m, sj : sj + 2 * m]
    ui, uj = _wrap_and_clamp(j, x.shape[0], m), _wrap_and_clamp(i, x.shape[1], m)
    updated = x.copy()
    updated[ui : ui + m, uj : uj + m] = block
    return window, updated, x[_wrap_and_clamp(i, x.shape[0], 1)]


def train_step_mlp(
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    x: np.ndarray,
    labels: np.ndarray,
) -> tuple[np.ndarray, ...]:
    """One SGD step (lr 0.01) of the mean softmax cross-entropy, backward
    pass written out by hand."""
    batch = F32(x.shape[0])
    pre1 = x @ w1 + b1
    h1 = _relu(pre1)
    pre2 = h1 @ w2 + b2
    h2 = _relu(pre2)
    logits = h2 @ w3 + b3
    shifted = logits - logits.max(axis=1, keepdims=True)
    exps = np.exp(shifted)
    sums = exps.sum(axis=1, keepdims=True)
    log_probs = shifted - np.log(sums)
    one_hot = (labels[:, None] == np.arange(b3.shape[0], dtype=labels.dtype)).astype(
        F32
    )
    loss = -((one_hot * log_probs).sum(axis=1).sum() / batch)
    d_log_probs = one_hot * (F32(-1.0) / batch)
    d_logits = d_log_probs + (-d_log_probs).sum(axis=1, keepdims=True) / sums * exps
    d_pre2 = np.where(pre2 > 0, d_logits @ w3.T, F32(0.0))
    d_pre1 = np.where(pre1 > 0, d_pre2 @ w2.T, F32(0.0))
    rate = F32(0.01)
    return (
        np.asarray(loss, dtype=F32),
        w1 - rate * (x.T @ d_pre1),
        b1 - rate * d_pre1.sum(axis=0),
        w2 - rate * (h1.T @ d_pre2),
        b2 - rate * d_pre2.sum(axis=0),
        w3 - rate * (h2.T @ d_logits),
        b3 - rate * d_logits.sum(axis=0),
    )


NUMPY_PROGRAMS: dict[str, Callable[..., tuple[np.ndarray, ...]]] = {
    program.__name__: program
    for program in (
        gelu,
        fma_xyz,
        chain10,
        softmax_rows,
        layernorm,
        mlp_fwd,
        matmul,
        bmm_einsum,
        conv2d_nhwc,
        reductions,
        transpose_reshape_bcast,
        slice_concat_pad,
        compare_select,
        int_ops,
        while_loops,
        gather_index,
        dynamic_slice,
        train_step_mlp,
    )
}
"""Each numpy version under the program's small name (`gelu` for
`small/gelu.mlir` and `bench/gelu_1m.mlir`)."""
