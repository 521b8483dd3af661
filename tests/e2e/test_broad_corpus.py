"""The broad benchmark corpus (benchmarks/broad_corpus.py: JAX programs of
the kinds users run, which xlir was not tuned on) at its small sizes: each
program, lowered by JAX in the test, gives JAX's outputs on the cpu target.
Needs jax (the `bench` extra): skipped without it."""

from __future__ import annotations

import pytest

pytest.importorskip("jax", reason="jax is not installed: pip install -e '.[bench]'")

from xlir.tools.compare import Tolerance

from tests.e2e.jax_corpus_check import assert_runs_as_jax, script

BROAD = script("benchmarks/broad_corpus.py").BROAD
jax_corpus = script("scripts/jax_corpus.py")

BFLOAT16_TERMS = Tolerance(rtol=2**-5, atol=2**-5)
"""For the bf16 programs: XLA rounds to bf16 at other points than xlir (whose
outputs equal the evaluator's there), and their residual sums and attention
averages of terms of order 1 land on outputs near 0, where a rounding of a
term is many of the output's ulps; so the bound is a few ulps of the terms
(bf16's ulp at 1 is 2**-7)."""


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
        BFLOAT16_TERMS if name.endswith("_bf16") else None,
    )


def test_broad_enough() -> None:
    """At least 40 programs (issue 36)."""
    assert len(BROAD.programs) >= 40
