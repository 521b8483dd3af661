#!/usr/bin/env python3
"""A broad benchmark corpus: JAX programs of the kinds users run, which xlir
was not tuned on, exported by the corpus exporter (scripts/jax_corpus.py).

    pip install -e '.[bench]'
    python benchmarks/broad_corpus.py                 # -> benchmarks/broad/ (git-ignored)
    python benchmarks/broad_corpus.py top_k lstm      # only these
    python benchmarks/broad_corpus.py -o OUT          # into OUT
    python benchmarks/broad_corpus.py --list

small/ holds each program at small shapes with its inputs and JAX's outputs
(tests/e2e/test_broad_corpus.py runs those on the cpu target); bench/ holds
them at realistic sizes, also with inputs and JAX's outputs (NAME.npz), for
benchmarks/run.py --corpus broad. Weights are scaled by 1/sqrt(fan-in), so
activations stay of order 1 as in trained models.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax
from jax_corpus import ProgramList, main, randn

FOLDER = Path(__file__).resolve().parent / "broad"
"""Where the corpus goes by default (git-ignored: made on demand)."""

BROAD = ProgramList()
program = BROAD.add
BF16 = ml_dtypes.bfloat16
HEADS = 4


def weight(rng, *shape, dtype=np.float32):
    """Scaled by 1/sqrt(fan-in): all dimensions but the last."""
    return randn(rng, *shape, scale=1 / math.sqrt(math.prod(shape[:-1])), dtype=dtype)


def labels(rng, classes, *shape):
    return rng.integers(0, classes, shape).astype(np.int32)


# ---------------------------------------------------------------- transformers


def layer_norm(x, gain, bias, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    variance = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(variance + eps) * gain + bias


def split_heads(t):
    batch, length, width = t.shape
    return t.reshape(batch, length, HEADS, width // HEADS).transpose(0, 2, 1, 3)


def merge_heads(t):
    batch, heads, length, head_width = t.shape
    return t.transpose(0, 2, 1, 3).reshape(batch, length, heads * head_width)


def attention(q, k, v, causal):
    """Multi-head scaled dot-product attention on (batch, heads, length, dh)."""
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.shape[-1])
    if causal:
        length = q.shape[2]
        mask = jnp.tril(jnp.ones((length, length), dtype=bool))
        scores = jnp.where(mask, scores, jnp.finfo(scores.dtype).min)
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(scores, axis=-1), v)


def transformer_block(x, wq, wk, wv, wo, g1, c1, w1, d1, w2, d2, g2, c2, causal):
    """Pre-norm block: self-attention, then a GELU MLP, each with a residual."""
    h = layer_norm(x, g1, c1)
    q, k, v = (split_heads(h @ w) for w in (wq, wk, wv))
    x = x + merge_heads(attention(q, k, v, causal)) @ wo
    h = layer_norm(x, g2, c2)
    return x + jax.nn.gelu(h @ w1 + d1) @ w2 + d2


def block_inputs(dtype):
    def draw(rng, batch, length, width, hidden):
        return [
            randn(rng, batch, length, width, dtype=dtype),
            *(weight(rng, width, width, dtype=dtype) for _ in range(4)),
            (1 + randn(rng, width, scale=0.1)).astype(dtype),
            randn(rng, width, scale=0.1, dtype=dtype),
            weight(rng, width, hidden, dtype=dtype),
            randn(rng, hidden, scale=0.01, dtype=dtype),
            weight(rng, hidden, width, dtype=dtype),
            randn(rng, width, scale=0.01, dtype=dtype),
            (1 + randn(rng, width, scale=0.1)).astype(dtype),
            randn(rng, width, scale=0.1, dtype=dtype),
        ]

    return draw


SMALL_BLOCK = {"batch": 2, "length": 16, "width": 32, "hidden": 64}
BENCH_BLOCK = {"batch": 4, "length": 128, "width": 256, "hidden": 1024}


@program(block_inputs(np.float32), small=SMALL_BLOCK, bench=BENCH_BLOCK)
def encoder_block_f32(*args):
    return transformer_block(*args, causal=False)


@program(block_inputs(BF16), small=SMALL_BLOCK, bench=BENCH_BLOCK)
def encoder_block_bf16(*args):
    return transformer_block(*args, causal=False)


@program(block_inputs(np.float32), small=SMALL_BLOCK, bench=BENCH_BLOCK)
def decoder_block_f32(*args):
    return transformer_block(*args, causal=True)


@program(block_inputs(BF16), small=SMALL_BLOCK, bench=BENCH_BLOCK)
def decoder_block_bf16(*args):
    return transformer_block(*args, causal=True)


def qkv_inputs(dtype):
    def draw(rng, batch, length, head_width):
        shape = (batch, HEADS, length, head_width)
        return [randn(rng, *shape, dtype=dtype) for _ in range(3)]

    return draw


@program(
    qkv_inputs(np.float32),
    small={"batch": 2, "length": 16, "head_width": 8},
    bench={"batch": 4, "length": 512, "head_width": 64},
)
def causal_attention_f32(q, k, v):
    return attention(q, k, v, causal=True)


@program(
    qkv_inputs(BF16),
    small={"batch": 2, "length": 16, "head_width": 8},
    bench={"batch": 4, "length": 512, "head_width": 64},
)
def causal_attention_bf16(q, k, v):
    return attention(q, k, v, causal=True)


DECODE_STEPS = 8


def decode_inputs(rng, batch, cache, width):
    return [
        randn(rng, batch, width),
        *(weight(rng, width, width) for _ in range(4)),
        randn(rng, batch, cache, width),
        randn(rng, batch, cache, width),
        np.array(cache - DECODE_STEPS, np.int32),
    ]


@program(
    decode_inputs,
    small={"batch": 2, "cache": 16, "width": 32},
    bench={"batch": 8, "cache": 512, "width": 256},
)
def kv_cache_decode(x, wq, wk, wv, wo, keys, values, start):
    """DECODE_STEPS decode steps from position `start`: each writes the new
    token's key and value into the caches (dynamic_update_slice) and attends
    over the positions written so far."""
    batch, cache, width = keys.shape
    positions = jnp.arange(cache)

    def step(i, state):
        x, keys, values = state
        position = start + i
        keys = lax.dynamic_update_slice(keys, (x @ wk)[:, None, :], (0, position, 0))
        values = lax.dynamic_update_slice(
            values, (x @ wv)[:, None, :], (0, position, 0)
        )
        q = (x @ wq).reshape(batch, HEADS, width // HEADS)
        k = keys.reshape(batch, cache, HEADS, width // HEADS)
        v = values.reshape(batch, cache, HEADS, width // HEADS)
        scores = jnp.einsum("bhd,bthd->bht", q, k) / math.sqrt(width // HEADS)
        scores = jnp.where(positions <= position, scores, -jnp.inf)
        attended = jnp.einsum("bht,bthd->bhd", jax.nn.softmax(scores, axis=-1), v)
        return jnp.tanh(x + attended.reshape(batch, width) @ wo), keys, values

    return lax.fori_loop(0, DECODE_STEPS, step, (x, keys, values))


# ---------------------------------------------------------------- recurrent


def recurrent_inputs(gates):
    def draw(rng, time, batch, features, hidden):
        return [
            randn(rng, time, batch, features),
            weight(rng, features, gates * hidden),
            weight(rng, hidden, gates * hidden),
            randn(rng, gates * hidden, scale=0.01),
        ]

    return draw


SMALL_RNN = {"time": 6, "batch": 2, "features": 8, "hidden": 16}
BENCH_RNN = {"time": 64, "batch": 16, "features": 128, "hidden": 256}


def gru_cell(wx, wh, bias):
    def cell(h, x):
        zx, rx, nx = jnp.split(x @ wx + bias, 3, axis=-1)
        zh, rh, nh = jnp.split(h @ wh, 3, axis=-1)
        z = jax.nn.sigmoid(zx + zh)
        r = jax.nn.sigmoid(rx + rh)
        h = (1 - z) * jnp.tanh(nx + r * nh) + z * h
        return h, h

    return cell


@program(recurrent_inputs(4), small=SMALL_RNN, bench=BENCH_RNN)
def lstm(xs, wx, wh, bias):
    """An LSTM over time (lax.scan): the last hidden and cell states, and
    every hidden state."""
    hidden = wh.shape[0]

    def cell(state, x):
        h, c = state
        i, f, g, o = jnp.split(x @ wx + h @ wh + bias, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    zeros = jnp.zeros((xs.shape[1], hidden), xs.dtype)
    (h, c), hs = lax.scan(cell, (zeros, zeros), xs)
    return h, c, hs


@program(recurrent_inputs(3), small=SMALL_RNN, bench=BENCH_RNN)
def gru(xs, wx, wh, bias):
    h0 = jnp.zeros((xs.shape[1], wh.shape[0]), xs.dtype)
    return lax.scan(gru_cell(wx, wh, bias), h0, xs)


@program(recurrent_inputs(3), small=SMALL_RNN, bench=BENCH_RNN)
def bidirectional_gru(xs, wx, wh, bias):
    """The same cell forwards and backwards in time, outputs concatenated."""
    h0 = jnp.zeros((xs.shape[1], wh.shape[0]), xs.dtype)
    cell = gru_cell(wx, wh, bias)
    _, forwards = lax.scan(cell, h0, xs)
    _, backwards = lax.scan(cell, h0, xs, reverse=True)
    return jnp.concatenate([forwards, backwards], axis=-1)


# ---------------------------------------------------------------- convolutions

NHWC = ("NHWC", "HWIO", "NHWC")


def conv(x, w, stride=1, groups=1):
    return lax.conv_general_dilated(
        x,
        w,
        (stride, stride),
        "SAME",
        dimension_numbers=NHWC,
        feature_group_count=groups,
    )


def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def batch_norm_inference(x, scale, shift, mean, variance):
    return (x - mean) * lax.rsqrt(variance + 1e-5) * scale + shift


def batch_norm_training(x, scale, shift):
    mean = jnp.mean(x, axis=(0, 1, 2))
    variance = jnp.var(x, axis=(0, 1, 2))
    return (x - mean) * lax.rsqrt(variance + 1e-5) * scale + shift


def norm_statistics(rng, channels):
    return [
        1 + randn(rng, channels, scale=0.1),
        randn(rng, channels, scale=0.1),
        randn(rng, channels, scale=0.1),
        1 + np.abs(randn(rng, channels, scale=0.1)),
    ]


def cnn_inputs(rng, batch, size, channels, classes):
    return [
        randn(rng, batch, size, size, 3),
        weight(rng, 3, 3, 3, channels),
        *norm_statistics(rng, channels),
        weight(rng, 3, 3, channels, 2 * channels),
        weight(rng, 2 * channels, classes),
        randn(rng, classes, scale=0.01),
    ]


SMALL_CNN = {"batch": 2, "size": 8, "channels": 4, "classes": 10}
BENCH_CNN = {"batch": 16, "size": 32, "channels": 32, "classes": 10}


@program(cnn_inputs, small=SMALL_CNN, bench=BENCH_CNN)
def cnn_forward(x, w1, scale, shift, mean, variance, w2, dense, bias):
    """conv, batch norm, relu, max pool, conv, relu, global average pool,
    dense."""
    h = jax.nn.relu(batch_norm_inference(conv(x, w1), scale, shift, mean, variance))
    h = jax.nn.relu(conv(max_pool(h), w2))
    return jnp.mean(h, axis=(1, 2)) @ dense + bias


def cnn_train_inputs(rng, batch, size, channels, classes):
    return [
        randn(rng, batch, size, size, 3),
        labels(rng, classes, batch),
        weight(rng, 3, 3, 3, channels),
        1 + randn(rng, channels, scale=0.1),
        randn(rng, channels, scale=0.1),
        weight(rng, 3, 3, channels, 2 * channels),
        weight(rng, 2 * channels, classes),
        randn(rng, classes, scale=0.01),
    ]


@program(cnn_train_inputs, small=SMALL_CNN, bench=BENCH_CNN)
def cnn_train_step(x, y, w1, scale, shift, w2, dense, bias):
    """One SGD step (learning rate 0.1) of a CNN with batch norm in training
    mode: the loss and the new parameters."""

    def loss(parameters):
        w1, scale, shift, w2, dense, bias = parameters
        h = jax.nn.relu(batch_norm_training(conv(x, w1), scale, shift))
        h = jax.nn.relu(conv(max_pool(h), w2, stride=2))
        logits = jnp.mean(h, axis=(1, 2)) @ dense + bias
        return cross_entropy(logits, y)

    parameters = (w1, scale, shift, w2, dense, bias)
    value, gradients = jax.value_and_grad(loss)(parameters)
    return value, *(p - 0.1 * g for p, g in zip(parameters, gradients, strict=True))


@program(
    lambda rng, batch, size, channels: [
        randn(rng, batch, size, size, channels),
        weight(rng, 3, 3, channels, channels),
        *norm_statistics(rng, channels),
        weight(rng, 3, 3, channels, channels),
        *norm_statistics(rng, channels),
    ],
    small={"batch": 2, "size": 6, "channels": 8},
    bench={"batch": 8, "size": 28, "channels": 64},
)
def resnet_block(x, w1, s1, t1, m1, v1, w2, s2, t2, m2, v2):
    h = jax.nn.relu(batch_norm_inference(conv(x, w1), s1, t1, m1, v1))
    return jax.nn.relu(x + batch_norm_inference(conv(h, w2), s2, t2, m2, v2))


@program(
    lambda rng, batch, size, channels: [
        randn(rng, batch, size, size, channels),
        weight(rng, 3, 3, 1, channels),
        weight(rng, 1, 1, channels, 2 * channels),
    ],
    small={"batch": 2, "size": 8, "channels": 8},
    bench={"batch": 8, "size": 56, "channels": 64},
)
def depthwise_separable_conv(x, depthwise, pointwise):
    """A depthwise 3x3 convolution (one group per channel), relu6, and a 1x1
    convolution (MobileNet's block)."""
    h = jnp.clip(conv(x, depthwise, groups=x.shape[-1]), 0.0, 6.0)
    return conv(h, pointwise)


@program(
    lambda rng, batch, size, channels: [
        randn(rng, batch, size, size, channels),
        weight(rng, 4, 4, channels, channels // 2),
    ],
    small={"batch": 1, "size": 5, "channels": 8},
    bench={"batch": 8, "size": 32, "channels": 64},
)
def transposed_conv(x, w):
    """A stride-2 transposed convolution: a decoder's upsampling."""
    return lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=NHWC)


@program(
    lambda rng, batch, length, channels: [
        randn(rng, batch, length, channels),
        weight(rng, 2, channels, channels),
        weight(rng, 2, channels, channels),
    ],
    small={"batch": 2, "length": 16, "channels": 8},
    bench={"batch": 8, "length": 2048, "channels": 64},
)
def dilated_causal_conv1d(x, w1, w2):
    """Two causal 1-D convolutions with dilations 1 and 4 and a gated
    activation (WaveNet)."""

    def causal(h, w, dilation):
        return lax.conv_general_dilated(
            h,
            w,
            (1,),
            [(dilation, 0)],
            rhs_dilation=(dilation,),
            dimension_numbers=("NWC", "WIO", "NWC"),
        )

    h = causal(x, w1, 1)
    return jnp.tanh(causal(h, w2, 4)) * jax.nn.sigmoid(h)


@program(
    lambda rng, batch, size, channels: [randn(rng, batch, size, size, channels)],
    small={"batch": 2, "size": 8, "channels": 4},
    bench={"batch": 16, "size": 64, "channels": 64},
)
def pooling(x):
    """3x3 stride-2 max pool, 2x2 average pool, and a global max."""
    padding = ((0, 0), (1, 1), (1, 1), (0, 0))
    big = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), padding)
    summed = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return big, summed / 4, jnp.max(x, axis=(1, 2))


@program(
    lambda rng, batch, size, channels: [randn(rng, batch, size, size, channels) + 1],
    small={"batch": 4, "size": 5, "channels": 3},
    bench={"batch": 32, "size": 28, "channels": 64},
)
def batch_norm_statistics(x):
    """Batch norm in training mode: the normalised batch and its mean and
    variance (for the running averages)."""
    mean = jnp.mean(x, axis=(0, 1, 2))
    variance = jnp.var(x, axis=(0, 1, 2))
    return (x - mean) * lax.rsqrt(variance + 1e-5), mean, variance


# ---------------------------------------------------------------- embeddings


@program(
    lambda rng, vocabulary, batch, length, width: [
        randn(rng, vocabulary, width),
        randn(rng, length, width, scale=0.1),
        labels(rng, vocabulary, batch, length),
    ],
    small={"vocabulary": 50, "batch": 2, "length": 8, "width": 16},
    bench={"vocabulary": 8192, "batch": 16, "length": 128, "width": 256},
)
def embedding_lookup(table, positions, ids):
    """Token embeddings (a gather) plus positions, scaled."""
    return table[ids] * math.sqrt(table.shape[1]) + positions


@program(
    lambda rng, vocabulary, batch, length, width: [
        randn(rng, vocabulary, width),
        labels(rng, vocabulary, batch, length),
        randn(rng, batch, length, width),
    ],
    small={"vocabulary": 50, "batch": 2, "length": 8, "width": 16},
    bench={"vocabulary": 8192, "batch": 16, "length": 128, "width": 256},
)
def embedding_update(table, ids, upstream):
    """An SGD step (learning rate 0.1) of an embedding table: its gradient
    is a scatter-add of the upstream gradient into the looked-up rows."""
    gradient = jax.grad(lambda t: jnp.sum(t[ids] * upstream))(table)
    return table - 0.1 * gradient


@program(
    lambda rng, rows, width, count: [
        randn(rng, rows, width),
        labels(rng, rows, count),
        randn(rng, count, width),
    ],
    small={"rows": 32, "width": 8, "count": 12},
    bench={"rows": 16384, "width": 64, "count": 4096},
)
def scatter_set(x, rows, values):
    """Rows overwritten (the last write wins with repeated indices, so the
    indices are made unique first)."""
    unique = jnp.unique(rows, size=rows.shape[0], fill_value=rows[0])
    return x.at[unique].set(values * 2.0)


@program(
    lambda rng, rows, cols, picks: [
        randn(rng, rows, cols),
        labels(rng, cols, rows, picks),
    ],
    small={"rows": 8, "cols": 16, "picks": 4},
    bench={"rows": 4096, "cols": 1024, "picks": 32},
)
def take_along_axis(x, idx):
    return jnp.take_along_axis(x, idx, axis=1)


# ---------------------------------------------------------------- sorting


def logits(rng, rows, cols):
    return [randn(rng, rows, cols)]


@program(
    logits,
    small={"rows": 4, "cols": 64},
    bench={"rows": 64, "cols": 32000},
)
def top_k(x):
    """The 8 largest logits of each row and their indices (sampling)."""
    return lax.top_k(x, 8)


@program(logits, small={"rows": 8, "cols": 32}, bench={"rows": 256, "cols": 1024})
def argsort(x):
    return jnp.argsort(x, axis=-1)


@program(logits, small={"rows": 8, "cols": 32}, bench={"rows": 512, "cols": 1024})
def sort_rows(x):
    return jnp.sort(x, axis=-1)


@program(
    lambda rng, n: [randn(rng, n), labels(rng, 1000, n)],
    small={"n": 64},
    bench={"n": 1 << 18},
)
def sort_key_value(keys, values):
    """Values sorted by their keys (lax.sort of two operands)."""
    return lax.sort((keys, values), num_keys=1)


@program(
    lambda rng, tokens, width, experts: [
        randn(rng, tokens, width),
        weight(rng, width, experts),
        weight(rng, experts, width, width),
    ],
    small={"tokens": 16, "width": 8, "experts": 4},
    bench={"tokens": 1024, "width": 256, "experts": 8},
)
def moe_top2(x, router, experts):
    """Mixture of experts: each token goes to its top-2 experts (dense
    dispatch through one-hot weights)."""
    weights, chosen = lax.top_k(jax.nn.softmax(x @ router, axis=-1), 2)
    gates = jnp.sum(
        jax.nn.one_hot(chosen, router.shape[1]) * weights[..., None], axis=1
    )
    outputs = jnp.einsum("td,edf->tef", x, experts)
    return jnp.einsum("te,tef->tf", gates, outputs)


# ---------------------------------------------------------------- scans and segments


@program(
    lambda rng, rows, cols: [
        randn(rng, rows, cols),
        randn(rng, rows, cols, scale=0.01),
    ],
    small={"rows": 8, "cols": 32},
    bench={"rows": 512, "cols": 2048},
)
def cumulative(x, small):
    """Running sum, product (of numbers near 1), maximum, and a log-sum-exp."""
    return (
        jnp.cumsum(x, axis=1),
        jnp.cumprod(1 + small, axis=1),
        lax.cummax(x, axis=1),
        lax.cumlogsumexp(x, axis=1),
    )


def segment_inputs(rng, rows, width):
    """Sorted segment ids: about 100 rows a segment."""
    return [randn(rng, rows, width), np.sort(labels(rng, rows // 100, rows))]


@program(
    segment_inputs,
    small={"rows": 600, "width": 4},
    bench={"rows": 100000, "width": 64},
)
def segment_sum(data, ids):
    segments = data.shape[0] // 100
    return jax.ops.segment_sum(data, ids, segments, indices_are_sorted=True)


@program(
    segment_inputs,
    small={"rows": 600, "width": 4},
    bench={"rows": 100000, "width": 64},
)
def segment_max_mean(data, ids):
    """Each segment's maximum and mean (graph pooling)."""
    segments = data.shape[0] // 100
    count = jax.ops.segment_sum(jnp.ones_like(ids, jnp.float32), ids, segments)
    total = jax.ops.segment_sum(data, ids, segments)
    mean = total / jnp.maximum(count, 1)[:, None]
    return jax.ops.segment_max(data, ids, segments), mean


# ---------------------------------------------------------------- einsums


def operands(*shapes):
    """Inputs of the given shapes, by dimension name: ("bi", "ij")."""

    def draw(rng, **dims):
        return [randn(rng, *(dims[d] for d in shape)) for shape in shapes]

    return draw


@program(
    operands("bhqd", "bhkd"),
    small={"b": 2, "h": 2, "q": 8, "k": 8, "d": 4},
    bench={"b": 8, "h": 8, "q": 256, "k": 256, "d": 64},
)
def einsum_batch_heads(q, k):
    return jnp.einsum("bhqd,bhkd->bhqk", q, k)


@program(
    operands("bijk", "jkl"),
    small={"b": 2, "i": 6, "j": 4, "k": 5, "l": 7},
    bench={"b": 16, "i": 128, "j": 16, "k": 32, "l": 256},
)
def einsum_two_contracting(a, b):
    """Two contracting dimensions at once."""
    return jnp.einsum("bijk,jkl->bil", a, b)


@program(
    operands("bi", "bj"),
    small={"b": 4, "i": 8, "j": 6},
    bench={"b": 16, "i": 512, "j": 512},
)
def einsum_outer(a, b):
    return jnp.einsum("bi,bj->bij", a, b)


@program(
    operands("ij", "ij"),
    small={"i": 16, "j": 8},
    bench={"i": 2048, "j": 1024},
)
def einsum_row_dot(a, b):
    """A contraction with a batch dimension and nothing free: row dot products."""
    return jnp.einsum("ij,ij->i", a, b)


@program(
    operands("ab", "bc", "cd"),
    small={"a": 8, "b": 6, "c": 5, "d": 4},
    bench={"a": 512, "b": 256, "c": 1024, "d": 64},
)
def einsum_chain(a, b, c):
    return jnp.einsum("ab,bc,cd->ad", a, b, c)


@program(
    operands("bi", "ij", "bj"),
    small={"b": 4, "i": 6, "j": 5},
    bench={"b": 256, "i": 512, "j": 512},
)
def einsum_bilinear(x, w, y):
    return jnp.einsum("bi,ij,bj->b", x, w, y)


@program(
    operands("ijk", "kl"),
    small={"i": 4, "j": 6, "k": 5, "l": 3},
    bench={"i": 64, "j": 128, "k": 256, "l": 128},
)
def einsum_permuted_output(a, b):
    """A product whose result comes out in another dimension order."""
    return jnp.einsum("ijk,kl->lji", a, b)


# ---------------------------------------------------------------- quantized


def int8(rng, *shape):
    return rng.integers(-127, 128, shape).astype(np.int8)


@program(
    lambda rng, m, k, n: [
        int8(rng, m, k),
        int8(rng, k, n),
        np.abs(randn(rng, m, scale=0.01)) + 1e-3,
        np.abs(randn(rng, n, scale=0.01)) + 1e-3,
    ],
    small={"m": 8, "k": 32, "n": 16},
    bench={"m": 512, "k": 1024, "n": 1024},
)
def int8_matmul(a, b, a_scale, b_scale):
    """int8 x int8 with int32 accumulation, dequantised per row and column."""
    product = lax.dot(a, b, preferred_element_type=jnp.int32)
    return product.astype(jnp.float32) * a_scale[:, None] * b_scale[None, :]


@program(
    lambda rng, batch, k, n: [
        randn(rng, batch, k),
        int8(rng, k, n),
        np.abs(randn(rng, n, scale=0.01)) + 1e-3,
        randn(rng, n, scale=0.1),
    ],
    small={"batch": 4, "k": 32, "n": 16},
    bench={"batch": 256, "k": 1024, "n": 1024},
)
def int8_dense(x, w, w_scale, bias):
    """Dynamic per-row quantisation of the activations to int8, an int8
    matmul, dequantisation, bias and relu."""
    x_scale = jnp.max(jnp.abs(x), axis=1, keepdims=True) / 127.0
    q = jnp.clip(jnp.round(x / x_scale), -127, 127).astype(jnp.int8)
    product = lax.dot(q, w, preferred_element_type=jnp.int32).astype(jnp.float32)
    return jax.nn.relu(product * x_scale * w_scale + bias)


def image(rng, batch, size):
    return [rng.integers(0, 256, (batch, size, size, 3)).astype(np.uint8)]


MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


@program(
    image,
    small={"batch": 2, "size": 16},
    bench={"batch": 8, "size": 256},
)
def uint8_resize_normalize(images):
    """uint8 NHWC images resized bilinearly to 7/8 of their side (256 to
    224), scaled to [0, 1], normalised by channel and transposed to NCHW."""
    side = images.shape[1] * 7 // 8
    x = images.astype(jnp.float32) / 255.0
    x = jax.image.resize(x, (x.shape[0], side, side, 3), "bilinear")
    return jnp.transpose((x - MEAN) / STD, (0, 3, 1, 2))


@program(
    image,
    small={"batch": 2, "size": 16},
    bench={"batch": 8, "size": 256},
)
def uint8_augment(images):
    """A flipped centre crop with more brightness and contrast, back in uint8,
    and its grey-level histogram."""
    size = images.shape[1]
    crop = images[:, size // 8 : size - size // 8, size // 8 : size - size // 8, :]
    x = crop[:, :, ::-1, :].astype(jnp.float32)
    x = jnp.clip((x - 128.0) * 1.2 + 138.0, 0.0, 255.0)
    out = jnp.round(x).astype(jnp.uint8)
    grey = (out.astype(jnp.int32) * jnp.array([77, 150, 29])).sum(-1) >> 8
    histogram = jnp.zeros(256, jnp.int32).at[grey.reshape(-1)].add(1)
    return out, histogram


# ---------------------------------------------------------------- training pieces


@program(
    lambda rng, width: [
        *(randn(rng, width, width, scale=s) for s in (0.1, 0.01, 0.01)),
        np.abs(randn(rng, width, width, scale=1e-4)),
        *(randn(rng, width, scale=s) for s in (0.1, 0.01, 0.01)),
        np.abs(randn(rng, width, scale=1e-4)),
        np.array(10, np.int32),
    ],
    small={"width": 16},
    bench={"width": 1024},
)
def adam(w, w_grad, w_m, w_v, b, b_grad, b_m, b_v, step):
    """One Adam step (lr 1e-3, betas 0.9, 0.999) with weight decay 0.01 on
    a matrix and a vector: the new parameters and moments."""
    t = (step + 1).astype(jnp.float32)
    results = []
    for p, g, m, v in ((w, w_grad, w_m, w_v), (b, b_grad, b_m, b_v)):
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        update = (m / (1 - 0.9**t)) / (jnp.sqrt(v / (1 - 0.999**t)) + 1e-8)
        results += [p - 1e-3 * (update + 0.01 * p), m, v]
    return tuple(results)


@program(
    lambda rng, width: [
        randn(rng, width, width),
        randn(rng, width, width),
        randn(rng, width, width, scale=0.1),
    ],
    small={"width": 16},
    bench={"width": 1024},
)
def sgd_clipped_momentum(p, g, velocity):
    """SGD with momentum after clipping the gradient's global norm to 1."""
    norm = jnp.sqrt(jnp.sum(g * g))
    g = g * jnp.minimum(1.0, 1.0 / (norm + 1e-6))
    velocity = 0.9 * velocity + g
    return p - 0.01 * velocity, velocity


def cross_entropy(logits, y):
    log_probabilities = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(log_probabilities, y[:, None], axis=1))


@program(
    lambda rng, batch, classes: [
        randn(rng, batch, classes),
        labels(rng, classes, batch),
    ],
    small={"batch": 8, "classes": 10},
    bench={"batch": 512, "classes": 1000},
)
def cross_entropy_grad(logits, y):
    """Softmax cross-entropy with integer labels and its gradient."""
    return jax.value_and_grad(cross_entropy)(logits, y)


@program(
    lambda rng, batch, width: [randn(rng, batch, width), randn(rng, batch, width)],
    small={"batch": 8, "width": 16},
    bench={"batch": 1024, "width": 1024},
)
def regression_losses(prediction, target):
    """Mean squared, mean absolute and Huber (delta 1) losses."""
    error = prediction - target
    small = jnp.abs(error) <= 1.0
    huber = jnp.where(small, 0.5 * error * error, jnp.abs(error) - 0.5)
    return jnp.mean(error * error), jnp.mean(jnp.abs(error)), jnp.mean(huber)


@program(
    lambda rng, batch, width: [
        randn(rng, batch, width, scale=3.0),
        (rng.random((batch, width)) < 0.3).astype(np.float32),
    ],
    small={"batch": 8, "width": 16},
    bench={"batch": 1024, "width": 1024},
)
def sigmoid_binary_cross_entropy(logits, targets):
    """With label smoothing 0.1, in the stable form, and its gradient."""

    def loss(logits):
        smoothed = targets * 0.9 + 0.05
        terms = (
            jax.nn.relu(logits)
            - logits * smoothed
            + jnp.log1p(jnp.exp(-jnp.abs(logits)))
        )
        return jnp.mean(terms)

    return jax.value_and_grad(loss)(logits)


@program(
    lambda rng, rows, cols: [randn(rng, rows, cols, scale=10.0)],
    small={"rows": 8, "cols": 32},
    bench={"rows": 1024, "cols": 4096},
)
def logsumexp_rows(x):
    return jax.nn.logsumexp(x, axis=-1)


@program(
    lambda rng, batch, k, n: [
        randn(rng, batch, k),
        weight(rng, k, n),
        randn(rng, n, scale=0.01),
    ],
    small={"batch": 8, "k": 32, "n": 16},
    bench={"batch": 256, "k": 1024, "n": 4096},
)
def dense_gelu(x, w, b):
    """A matmul with a bias and GELU epilogue."""
    return jax.nn.gelu(x @ w + b)


@program(
    lambda rng, batch, length, width: [
        randn(rng, batch, length, HEADS, width),
        1 + randn(rng, width, scale=0.1),
    ],
    small={"batch": 2, "length": 8, "width": 8},
    bench={"batch": 8, "length": 512, "width": 64},
)
def rms_norm_rope(x, gain):
    """RMS normalisation and rotary position embeddings (sin/cos of iota)."""
    x = x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * gain
    half = x.shape[-1] // 2
    frequencies = 10000.0 ** (-jnp.arange(half, dtype=jnp.float32) / half)
    angles = jnp.arange(x.shape[1], dtype=jnp.float32)[:, None] * frequencies
    cos, sin = jnp.cos(angles)[None, :, None], jnp.sin(angles)[None, :, None]
    first, second = x[..., :half], x[..., half:]
    return jnp.concatenate([first * cos - second * sin, first * sin + second * cos], -1)


@program(
    lambda rng, n: [np.abs(randn(rng, n)) * 100 + 0.01],
    small={"n": 64},
    bench={"n": 1 << 20},
)
def newton_sqrt(x):
    """A data-dependent while loop: Newton's iteration for sqrt until every
    element has converged (at most 50 steps); the roots and the step count."""

    def unfinished(state):
        y, count = state
        return (count < 50) & jnp.any(jnp.abs(y * y - x) > 1e-4 * x)

    def step(state):
        y, count = state
        return 0.5 * (y + x / y), count + 1

    return lax.while_loop(unfinished, step, (x, jnp.int32(0)))


# ---------------------------------------------------------------- random numbers


def key(rng):
    return rng.integers(0, 2**32, 2, dtype=np.uint32)


@program(
    lambda rng, rows, cols: [key(rng), randn(rng, rows, cols)],
    small={"rows": 8, "cols": 16},
    bench={"rows": 1024, "cols": 1024},
)
def random_noise(seed, x):
    """Threefry from split keys: Gaussian noise added, and a uniform mask."""
    first, second = jax.random.split(seed)
    noisy = x + 0.1 * jax.random.normal(first, x.shape)
    return noisy, jax.random.uniform(second, x.shape) < 0.5


@program(
    lambda rng, rows, cols: [key(rng), randn(rng, rows, cols)],
    small={"rows": 8, "cols": 16},
    bench={"rows": 1024, "cols": 1024},
)
def dropout(seed, x):
    """Inverted dropout with keep probability 0.9."""
    keep = jax.random.bernoulli(seed, 0.9, x.shape)
    return jnp.where(keep, x / 0.9, 0.0)


@program(
    lambda rng, rows, cols: [key(rng), randn(rng, rows, cols)],
    small={"rows": 8, "cols": 16},
    bench={"rows": 64, "cols": 32000},
)
def random_categorical(seed, logits):
    """One sample per row from the softmax of logits (Gumbel argmax)."""
    return jax.random.categorical(seed, logits, axis=-1)


if __name__ == "__main__":
    main(
        BROAD,
        __doc__.split("\n\n")[0],
        default_folder=FOLDER,
        bench_data=True,
    )
