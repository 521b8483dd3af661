"""`xlir.jax.jit`: JAX functions compiled by xlir give `jax.jit`'s results
(an elementwise chain, a softmax and an SGD training step of an MLP, whose
parameters are a pytree), compile once per signature of arguments, and a
diagnostic names the line of this file that made the failing op. Skipped
without JAX (the `bench` extra)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from xlir.diagnostics import XlirError

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
import xlir.jax  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5  # the corpus's float32 tolerance


def _assert_matches(got, want) -> None:
    got_leaves, got_tree = jax.tree_util.tree_flatten(got)
    want_leaves, want_tree = jax.tree_util.tree_flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves, strict=True):
        assert isinstance(g, np.ndarray)
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)


def elementwise(x, y, z):
    return jnp.maximum(jnp.tanh(x * y + z), 0.0) - jnp.exp(-jnp.abs(z)) / 2


def softmax_rows(x):
    return jax.nn.softmax(x, axis=-1)


def _loss(params, x, labels):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(log_probs, labels[:, None], axis=1))


def train_step(params, x, labels):
    loss, grads = jax.value_and_grad(_loss)(params, x, labels)
    new = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
    return loss, new


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_elementwise_matches_jax() -> None:
    rng = _rng(1)
    x, y, z = (rng.standard_normal((64, 32), dtype=np.float32) for _ in range(3))
    _assert_matches(xlir.jax.jit(elementwise)(x, y, z), jax.jit(elementwise)(x, y, z))


def test_softmax_matches_jax() -> None:
    x = _rng(2).standard_normal((16, 128), dtype=np.float32)
    _assert_matches(xlir.jax.jit(softmax_rows)(x), jax.jit(softmax_rows)(x))


def test_training_step_matches_jax() -> None:
    rng = _rng(3)
    params = {
        "w1": rng.standard_normal((20, 16), dtype=np.float32) / np.sqrt(20),
        "b1": np.full(16, 0.01, np.float32),
        "w2": rng.standard_normal((16, 10), dtype=np.float32) / 4,
        "b2": np.zeros(10, np.float32),
    }
    x = rng.standard_normal((8, 20), dtype=np.float32)
    labels = rng.integers(0, 10, 8).astype(np.int32)
    got = xlir.jax.jit(train_step)(params, x, labels)
    _assert_matches(got, jax.jit(train_step)(params, x, labels))
    assert set(got[1]) == set(params)


def test_compiles_once_per_signature() -> None:
    scale = xlir.jax.jit(lambda x, s: x * s, target="interpreter")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(scale(x, 2.0), x * 2)
    np.testing.assert_array_equal(scale(x + 1, 3.0), (x + 1) * 3)
    assert len(scale._compiled) == 1
    scale(np.arange(6, dtype=np.float32), 2.0)  # a new shape
    scale(x, np.float32(2.0))  # an array, not a Python scalar
    assert len(scale._compiled) == 3
    # float64 is what JAX makes of it: float32 (x64 off)
    assert scale(x.astype(np.float64), 2.0).dtype == np.float32
    assert len(scale._compiled) == 3


def test_jax_arrays_when_asked() -> None:
    double = xlir.jax.jit(target="interpreter", jax_arrays=True)(lambda x: x + x)
    result = double(np.ones(3, np.float32))
    assert isinstance(result, jax.Array)
    np.testing.assert_array_equal(np.asarray(result), np.full(3, 2, np.float32))


def test_lowered_text_keeps_python_locations() -> None:
    text = xlir.jax.jit(softmax_rows).lower(np.ones((2, 3), np.float32))
    line = inspect.getsourcelines(softmax_rows)[1] + 1
    assert f'"{__file__}":{line}:' in text


def _uses_an_op_xlir_lacks(x):
    # chlo.bessel_i1e has no scalar translation in xlir: if it gains one,
    # use another op xlir cannot lower here.
    return jax.lax.bessel_i1e(x) + 1


def test_diagnostic_names_the_python_line() -> None:
    line = inspect.getsourcelines(_uses_an_op_xlir_lacks)[1] + 3
    with pytest.raises(XlirError) as raised:
        xlir.jax.jit(_uses_an_op_xlir_lacks)(np.ones(4, np.float32))
    message = str(raised.value)
    assert "error: 'chlo.bessel_i1e' has no scalar translation" in message
    assert f"{__file__}:{line}:11: note: made here as" in message
    assert "    return jax.lax.bessel_i1e(x) + 1\n           ^" in message


def _uses_an_op_xlir_cannot_read(x):
    # xlir's dialects have no chlo.zeta: if they gain it, use another.
    return jax.lax.zeta(x + 2, x + 3)


def test_parse_error_names_the_python_line() -> None:
    line = inspect.getsourcelines(_uses_an_op_xlir_cannot_read)[1] + 2
    with pytest.raises(XlirError) as raised:
        xlir.jax.jit(_uses_an_op_xlir_cannot_read)(np.ones(4, np.float32))
    message = str(raised.value)
    assert "error: Operation chlo.zeta is not registered" in message
    assert f"{__file__}:{line}:11: note: made here as 'jit(_uses_an_op" in message
