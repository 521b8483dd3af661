"""JAX programs at the sizes where generated code once corrupted the heap
(issue 29, defect 8), exported to StableHLO with their inputs and JAX's
outputs: an embedding gradient (a scatter-add of 4,096 ids into a
32000x256 table), an LSTM over `lax.scan` (64 steps, batch 32, hidden
512), a Newton iteration in a `while_loop` over 1M elements and an f16
transformer decoder layer. Needs jax (tests/e2e/test_bench_size_programs.py
skips without it).

`python -m tests.e2e.bench_size_programs NAME [--no-native-f16]` runs one
on the cpu target twice and checks both calls against JAX's outputs;
`corpus-bench` runs every bench program of the corpus twice with bounds
checks (`run_corpus_bench`): what the tests run in a subprocess, so that a
crash is a failure, not a dead run.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

import numpy as np

TOLERANCES = {"f32": (2e-4, 2e-5), "f16": (2e-2, 2e-2)}
"""rtol, atol by the outputs' element type: f16 programs round each op to
f16 where XLA keeps f32 inside its fusions."""


def embed_grad(jax: Any, rng: np.random.Generator) -> tuple[Callable, list]:
    vocab, dim, count = 32000, 256, 4096

    def f(ids, g):
        def loss(table):
            return jax.numpy.sum(table[ids] * g)

        return jax.grad(loss)(jax.numpy.zeros((vocab, dim), np.float32))

    ids = rng.integers(0, vocab, (count,)).astype(np.int32)
    return f, [ids, rng.standard_normal((count, dim)).astype(np.float32)]


def lstm(jax: Any, rng: np.random.Generator) -> tuple[Callable, list]:
    steps, batch, hidden = 64, 32, 512
    jnp = jax.numpy

    def f(xs, h0, c0, w, u, b):
        def step(carry, x):
            h, c = carry
            z = x @ w + h @ u + b
            i, forget, o, g = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(forget) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        (h, c), hs = jax.lax.scan(step, (h0, c0), xs)
        return hs, h, c

    def normal(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.05).astype(np.float32)

    state = np.zeros((batch, hidden), np.float32)
    arguments = [normal(steps, batch, hidden), state, state]
    arguments += [normal(hidden, 4 * hidden), normal(hidden, 4 * hidden)]
    return f, [*arguments, normal(4 * hidden)]


def newton(jax: Any, rng: np.random.Generator) -> tuple[Callable, list]:
    jnp = jax.numpy

    def f(a):
        def cond(state):
            x, i = state
            return (i < 50) & (jnp.max(jnp.abs(x * x - a)) > 1e-5)

        def body(state):
            x, i = state
            return 0.5 * (x + a / x), i + 1

        return jax.lax.while_loop(cond, body, (jnp.maximum(a, 1.0), 0))

    return f, [np.abs(rng.standard_normal(1 << 20)).astype(np.float32) + 0.01]


def decoder_f16(jax: Any, rng: np.random.Generator) -> tuple[Callable, list]:
    batch, length, width, heads = 4, 128, 512, 8
    jnp = jax.numpy

    def f(x, wq, wk, wv, wo, w1, w2, gain):
        def layer_norm(v):
            mean = jnp.mean(v, -1, keepdims=True)
            variance = jnp.mean((v - mean) ** 2, -1, keepdims=True)
            return (v - mean) * jax.lax.rsqrt(variance + 1e-5) * gain

        def split(v):
            return v.reshape(batch, length, heads, width // heads)

        h = layer_norm(x)
        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        scores = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.float16(8.0)
        mask = jnp.tril(jnp.ones((length, length), bool))
        p = jax.nn.softmax(jnp.where(mask, scores, jnp.float16(-1e4)), axis=-1)
        attended = jnp.einsum("bhts,bshd->bthd", p, v)
        x = x + attended.reshape(batch, length, width) @ wo
        return x + jax.nn.gelu(layer_norm(x) @ w1) @ w2

    def normal(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.05).astype(np.float16)

    arguments = [normal(batch, length, width)]
    arguments += [normal(width, width) for _ in range(4)]
    arguments += [normal(width, 4 * width), normal(4 * width, width)]
    return f, [*arguments, np.ones((width,), np.float16)]


PROGRAMS = {
    "embed_grad": embed_grad,
    "lstm": lstm,
    "newton": newton,
    "decoder_f16": decoder_f16,
}


def export(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """Program `name` as StableHLO text, its inputs and JAX's outputs."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    function, arguments = PROGRAMS[name](jax, np.random.default_rng(29))
    jitted = jax.jit(function)
    text = jitted.lower(*arguments).as_text()
    outputs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jitted(*arguments))]
    return text, arguments, outputs


def run(name: str) -> None:
    """Two calls of program `name` on the cpu target, each within the
    tolerances of JAX's outputs."""
    import xlir

    text, arguments, expected = export(name)
    executable = xlir.compile(text, target="cpu", name=name)
    for call in range(2):
        got = _outputs(executable(*arguments))
        assert len(got) == len(expected)
        for index, (have, want) in enumerate(zip(got, expected, strict=True)):
            assert have.shape == want.shape, f"call {call} out{index}: shape"
            if want.dtype.kind in "biu":
                np.testing.assert_array_equal(have, want)
                continue
            rtol, atol = TOLERANCES["f16" if want.dtype == np.float16 else "f32"]
            np.testing.assert_allclose(
                have.astype(np.float32),
                want.astype(np.float32),
                rtol=rtol,
                atol=atol,
                err_msg=f"{name}: call {call} out{index}",
            )


def run_corpus_bench() -> None:
    """Every program of the corpus's bench/ (random inputs) compiled with
    bounds checks and called twice, the same bits each time
    (tests/e2e/test_corpus.py checks the numbers, without checks)."""
    import xlir
    from tests.conftest import CORPUS
    from tests.unit.test_kernels_numerics import random_inputs

    for path in sorted((CORPUS / "bench").glob("*.mlir")):
        text = path.read_text()
        arguments = random_inputs(text, seed=1)
        checked = xlir.compile(text, target="cpu", name=path.name, bounds_check=True)
        first, second = (_outputs(checked(*arguments)) for _ in range(2))
        for index, (have, want) in enumerate(zip(second, first, strict=True)):
            np.testing.assert_array_equal(
                have, want, err_msg=f"{path.name}: out{index}"
            )


def _outputs(result: Any) -> tuple[np.ndarray, ...]:
    return result if isinstance(result, tuple) else (result,)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name", choices=[*sorted(PROGRAMS), "corpus-bench"])
    parser.add_argument("--no-native-f16", action="store_true")
    arguments = parser.parse_args()
    if arguments.no_native_f16:
        from tests.cpu_features import without_native_half

        without_native_half()
    if arguments.name == "corpus-bench":
        run_corpus_bench()
    else:
        run(arguments.name)


if __name__ == "__main__":
    main()
