"""Regenerate the JAX-exported programs beside this script: for each NAME,
NAME.mlir (`jax.export`'s module text, locations dropped, or for the
programs in LOWERED `jax.jit(f).lower(...).as_text()`, which keeps the chlo
ops that `jax.export` expands: chlo.square, chlo.next_after) and NAME.npz
(arg0..argN the inputs, out0..outM JAX's outputs on CPU, flattened in result
order). Needs jax (the `bench` extra):

    python tests/jax_exports/export.py            # all programs
    python tests/jax_exports/export.py fft_c64    # only these

Inputs come from numpy.random.default_rng(zlib.crc32(NAME)), so the files
change only when JAX's lowering or the programs do. Shapes are small: every
file stays a few KB, so the tests run them without jax.
"""

from __future__ import annotations

import os
import re
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

HERE = Path(__file__).resolve().parent
PROGRAMS: dict[str, Callable[[np.random.Generator], tuple[Callable, list]]] = {}


def program(function: Callable, name: str | None = None) -> Callable:
    """Register `function(rng) -> (jax function, inputs)` under its name."""
    PROGRAMS[name or function.__name__] = function
    return function


def randn(rng: np.random.Generator, *shape: int, dtype=np.float32) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


@program
def batchnorm_train(rng):
    """Batch norm in training mode: batch statistics (jnp.var: chlo.square),
    normalised output and the updated running statistics."""

    def batchnorm(x, gamma, beta, running_mean, running_var):
        mean = jnp.mean(x, axis=(0, 1, 2))
        var = jnp.var(x, axis=(0, 1, 2))
        y = (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta
        momentum = 0.9
        return (
            y,
            momentum * running_mean + (1 - momentum) * mean,
            momentum * running_var + (1 - momentum) * var,
        )

    return batchnorm, [
        randn(rng, 4, 5, 5, 3) * 2 + 1,
        randn(rng, 3),
        randn(rng, 3),
        np.zeros(3, np.float32),
        np.ones(3, np.float32),
    ]


@program
def cnn_train_step(rng):
    """One SGD step of a small CNN: a convolution, max-pool, a strided
    depthwise (feature-grouped) convolution, average-pool and a dense layer.
    Its backward pass holds convolutions with input dilation (the strided
    one's input gradient), reversed kernels and batch groups, and the pools'
    gradients."""

    dn = ("NHWC", "HWIO", "NHWC")

    def loss(params, x, labels):
        w1, w2, w3 = params
        h = lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=dn)
        h = jax.nn.relu(h)
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        h = lax.conv_general_dilated(
            h, w2, (2, 2), "SAME", dimension_numbers=dn, feature_group_count=4
        )
        h = jnp.tanh(h)
        h = lax.reduce_window(h, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")
        h = h.reshape(h.shape[0], -1) / 4.0
        logits = h @ w3
        log_probs = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_probs, labels[:, None], axis=1))

    def step(w1, w2, w3, x, labels):
        value, grads = jax.value_and_grad(loss)((w1, w2, w3), x, labels)
        return (value, *(w - 0.1 * g for w, g in zip((w1, w2, w3), grads, strict=True)))

    return step, [
        randn(rng, 3, 3, 2, 4) * 0.5,
        randn(rng, 3, 3, 1, 4) * 0.5,
        randn(rng, 4 * 2 * 2, 3) * 0.5,
        randn(rng, 2, 12, 12, 2),
        rng.integers(0, 3, size=2).astype(np.int32),
    ]


@program
def cumulative(rng):
    """cumsum, cumprod and cummax along each axis, and a reversed cumsum."""

    def cumulative(x, n):
        return (
            jnp.cumsum(x, axis=0),
            jnp.cumsum(x, axis=1),
            jnp.cumprod(x, axis=1),
            lax.cummax(x, axis=0),
            lax.cummax(x, axis=1, reverse=True),
            jnp.cumsum(n, axis=1),
        )

    return cumulative, [
        rng.uniform(0.5, 1.5, size=(5, 7)).astype(np.float32),
        rng.integers(-50, 50, size=(5, 7)).astype(np.int32),
    ]


@program
def dropout(rng):
    """Dropout with a key from jax.random, and jax.random's normal and
    truncated_normal initialisers (chlo.next_after)."""

    def dropout(seed, x):
        key = jax.random.key(seed)
        mask_key, normal_key, trunc_key = jax.random.split(key, 3)
        keep = jax.random.bernoulli(mask_key, 0.8, x.shape)
        return (
            jnp.where(keep, x / 0.8, 0.0),
            jax.random.normal(normal_key, (4, 6)),
            jax.random.truncated_normal(trunc_key, -2.0, 2.0, (4, 6)),
        )

    return dropout, [np.array(1234, np.uint32), randn(rng, 6, 8)]


@program
def sorting(rng):
    """top_k, argsort and sort along each axis, beside a top-level 0.0
    constant (CSE must not move the comparator's constant out of its
    region)."""

    def sorting(x):
        values, indices = lax.top_k(x, 3)
        column_values, column_indices = lax.top_k(x.T, 2)
        return (
            values,
            indices,
            column_values,
            column_indices,
            jnp.argsort(x, axis=0),
            jnp.argsort(x, axis=1, descending=True),
            jnp.sort(x, axis=0),
            jnp.sort(x, axis=1),
            jnp.maximum(x, 0.0),
        )

    return sorting, [randn(rng, 6, 9)]


@program
def elementwise_extras(rng):
    """Ops JAX prints that other programs seldom hold: lax.square
    (chlo.square), jnp.nextafter (chlo.next_after), lax.reduce_precision,
    and results that are constants."""

    def elementwise_extras(x, y):
        return (
            lax.square(x),
            jnp.nextafter(x, y),
            lax.reduce_precision(x * 1000.0, exponent_bits=5, mantissa_bits=2),
            jnp.arange(4, dtype=jnp.float32),
            jnp.asarray(np.array([1.5, -2.0, 3.25], np.float32)),
            jnp.int32(7),
        )

    return elementwise_extras, [randn(rng, 3, 5), randn(rng, 3, 5)]


X64 = {"convert_f64"}
LOWERED = {"batchnorm_train", "dropout", "elementwise_extras"}


@program
def convert_f64(rng):
    """f64 -> i32 and f64 -> f32 converts of values past the targets' range
    (exported with jax_enable_x64)."""

    def convert_f64(x):
        return x.astype(jnp.int32), x.astype(jnp.float32), x.astype(jnp.uint8)

    values = np.array([0.5, -2.5, 3e9, -3e9, 1e300, -1e300, 2.0**31, -(2.0**31)])
    return convert_f64, [np.concatenate([values, rng.normal(size=4) * 1e3])]


def _transformer_block(dtype):
    def block(x, wq, wk, wv, wo, w1, w2, gain):
        def layer_norm(v):
            mean = jnp.mean(v, axis=-1, keepdims=True)
            variance = jnp.var(v, axis=-1, keepdims=True)
            return (v - mean) * lax.rsqrt(variance + 1e-5) * gain

        h = layer_norm(x)
        q, k, v = h @ wq, h @ wk, h @ wv

        def heads(t):
            return t.reshape(t.shape[0], 2, -1).transpose(1, 0, 2)

        scores = (
            heads(q) @ heads(k).transpose(0, 2, 1) / float(np.sqrt(q.shape[-1] // 2))
        )
        causal = jnp.tril(jnp.ones((x.shape[0], x.shape[0]), bool))
        p = jax.nn.softmax(jnp.where(causal, scores, jnp.asarray(-1e4, dtype)), axis=-1)
        attended = (p @ heads(v)).transpose(1, 0, 2).reshape(x.shape)
        x = x + attended @ wo
        return x + jax.nn.gelu(layer_norm(x) @ w1) @ w2

    def make(rng):
        d, s, f = 8, 6, 16
        shapes = [(s, d), (d, d), (d, d), (d, d), (d, d), (d, f), (f, d)]
        arrays = [
            randn(rng, *shape) * (1.0 if i == 0 else 0.3)
            for i, shape in enumerate(shapes)
        ]
        arrays.append(np.ones(d, np.float32) + randn(rng, d) * 0.1)
        return block, [a.astype(dtype) for a in arrays]

    return make


program(_transformer_block(np.float32), "transformer_f32")
program(_transformer_block(ml_dtypes.bfloat16), "transformer_bf16")
program(_transformer_block(np.float16), "transformer_f16")


@program
def int8_matmul(rng):
    """An int8-quantized matmul: int8 operands, i32 accumulation, then
    dequantised with per-column scales."""

    def int8_matmul(a, b, scale):
        acc = lax.dot_general(
            a, b, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32
        )
        return acc, acc.astype(jnp.float32) * scale

    return int8_matmul, [
        rng.integers(-128, 128, size=(5, 16)).astype(np.int8),
        rng.integers(-128, 128, size=(16, 7)).astype(np.int8),
        rng.uniform(0.001, 0.01, size=7).astype(np.float32),
    ]


@program
def fft_c64(rng):
    """Complex FFT and its inverse along the last axis, and a real FFT."""

    def fft_c64(z, x):
        return jnp.fft.fft(z), jnp.fft.ifft(z), jnp.fft.rfft(x)

    z = (randn(rng, 3, 8) + 1j * randn(rng, 3, 8)).astype(np.complex64)
    return fft_c64, [z, randn(rng, 4, 16)]


@program
def linalg_solve_cholesky(rng):
    """jnp.linalg.solve (LU with pivots, triangular solves) and
    jnp.linalg.cholesky as JAX lowers them on CPU (LAPACK custom calls)."""

    def linalg(a, b, spd):
        return jnp.linalg.solve(a, b), jnp.linalg.cholesky(spd)

    a = randn(rng, 5, 5) + 5 * np.eye(5, dtype=np.float32)
    m = randn(rng, 4, 4)
    spd = (m @ m.T + 4 * np.eye(4)).astype(np.float32)
    return linalg, [a, randn(rng, 5, 2), spd]


POLYMORPHIC = {"shape_poly": "(b, 8)"}


@program
def shape_poly(rng):
    """A shape-polymorphic export: the batch dimension is symbolic (b, 8),
    so the module holds dynamic shapes; the data has b = 5."""

    def shape_poly(x):
        centred = x - jnp.mean(x, axis=0)
        return jnp.tanh(centred) * 2.0, jnp.sum(x, axis=1)

    return shape_poly, [randn(rng, 5, 8)]


_LOC = re.compile(r"\s*loc\((?:[^()]|\([^()]*\))*\)")


def export(name: str) -> None:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    function, inputs = PROGRAMS[name](rng)
    if name in POLYMORPHIC:
        shape = jax.export.symbolic_shape(POLYMORPHIC[name])
        specs = [jax.ShapeDtypeStruct(shape, inputs[0].dtype)]
    else:
        specs = inputs
    with jax.enable_x64(name in X64):
        if name in LOWERED:
            text = jax.jit(function).lower(*specs).as_text()
        else:
            text = jax.export.export(jax.jit(function))(*specs).mlir_module()
        outputs = jax.tree.leaves(jax.jit(function)(*inputs))
    text = "\n".join(
        line for line in _LOC.sub("", text).splitlines() if not line.startswith("#loc")
    )
    (HERE / f"{name}.mlir").write_text(text.rstrip() + "\n")
    arrays = {f"arg{i}": np.asarray(a) for i, a in enumerate(inputs)}
    arrays |= {f"out{i}": np.asarray(o) for i, o in enumerate(outputs)}
    np.savez(HERE / f"{name}.npz", **arrays)


def main() -> None:
    names = sys.argv[1:] or list(PROGRAMS)
    for name in names:
        export(name)
        print(name)


if __name__ == "__main__":
    main()
