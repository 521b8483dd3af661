"""The broad benchmark corpus (benchmarks/broad_corpus.py: JAX programs of
the kinds users run, which xlir was not tuned on) at its small sizes: each
program, lowered by JAX in the test, gives JAX's outputs on the cpu target
(within `broad_tolerance`).
Needs jax (the `bench` extra): skipped without it."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("jax", reason="jax is not installed: pip install -e '.[bench]'")

from tests.e2e.jax_corpus_check import assert_runs_as_jax, broad_tolerance, script

BROAD = script("benchmarks/broad_corpus.py").BROAD
jax_corpus = script("scripts/jax_corpus.py")


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("name", list(BROAD.programs))
def test_matches_jax(name: str) -> None:
    program = BROAD.programs[name]
    arguments = program.arguments("small")
    function = program.named("small")
    assert_runs_as_jax(
        jax_corpus.lowered_text(function, arguments),
        f"{name}.mlir",
        arguments,
        jax_corpus.run_jax(function, arguments),
        functools.partial(broad_tolerance, name),
    )


def test_broad_enough() -> None:
    """At least 40 programs (issue 36)."""
    assert len(BROAD.programs) >= 40
