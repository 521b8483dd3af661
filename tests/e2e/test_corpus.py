"""Every registered target on the corpus: each small program (both
flavours) gives JAX's outputs within the tolerances of tolerances.json
(integer and boolean outputs, and those listed as exact, bit for bit), and
each bench program gives the reference interpreter's outputs on random
inputs: integers exactly, floats within the corpus tolerances, the absolute
one scaled by the outputs' magnitude (sums of hundreds of terms are added in
another order than numpy's pairwise sums).

The small programs' tests are `xlir.testing.target_conformance`'s, which
an out-of-tree target runs too: a program a target cannot run yet is listed
in its known gaps (`Target.known_gaps().corpus`); a listed program that runs
fails, so the lists stay true."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from xlir.targets.registry import get_target, reference_target, target_names

import xlir
from tests.conftest import CORPUS, skip_without_device
from tests.corpus import PROGRAMS, SMALL, TOLERANCES
from tests.unit.test_kernels_numerics import random_inputs
from xlir.testing.target_conformance import (  # noqa: F401
    pytest_generate_tests,
    test_known_gaps_name_corpus_programs,
    test_small_program,
)

BENCH = sorted(p for p in (CORPUS / "bench").glob("*.mlir") if ".export." not in p.name)

REFERENCE = reference_target()
"""The target the bench programs are compared with (StableHLO's semantics)."""


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    """Compile for real: the cache has its own tests."""
    monkeypatch.setenv("XLIR_CACHE", "0")


def test_corpus_present() -> None:
    assert len(PROGRAMS) == 36, f"expected 18 programs x 2 flavours in {SMALL}"


def _bench_name(path) -> str:
    """`gelu` for `gelu_1m.mlir`: the small program of the same computation."""
    stem = path.name.split(".")[0]
    return next(
        n for n in sorted(TOLERANCES, key=len, reverse=True) if stem.startswith(n)
    )


LONG_SIMULATIONS = {
    "accel": {
        "chain10_1m", "compare_select_1024", "conv2d_nhwc_32x32", "gelu_1m",
        "int_ops_512", "slice_concat_pad", "softmax_rows_1024",
        "train_step_mlp", "transpose_reshape_bcast", "while_loops_128",
    },
}  # fmt: skip
"""Bench programs whose run on a target's simulated device costs many times
the rest of this file: they are `extended` tests, left out of the default
run (`python -m pytest -m extended` runs them; docs/testing.md). The same
computations stay in it at the corpus's small sizes on that target
(`test_small_program`), as do the bench programs it simulates quickly (a
512x512 matmul, 1,024x512 reductions, a 512x768 layernorm), so full-size
tiling stays checked on every target."""

BENCH_CASES = [
    pytest.param(
        path,
        target,
        id=f"{path.name}-{target}",
        marks=[pytest.mark.extended]
        if path.name.split(".")[0] in LONG_SIMULATIONS.get(target, ())
        else [],
    )
    for path in BENCH
    for target in target_names()
    if target != REFERENCE
]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "target"), BENCH_CASES)
def test_bench_program_matches_the_reference(path, target: str) -> None:
    skip_without_device(target)
    gap = get_target(target).known_gaps().bench.get(path.name.split(".")[0])
    if gap is None:
        _bench_program(path, target)
        return
    with pytest.raises(Exception):  # noqa: B017 (any failure; the list says why)
        _bench_program(path, target)
    pytest.xfail(gap)


@pytest.mark.parametrize("target", target_names())
def test_known_gaps_name_bench_programs(target: str) -> None:
    names = {p.name.split(".")[0] for p in BENCH}
    assert set(get_target(target).known_gaps().bench) <= names


@cache
def _reference_case(path) -> tuple[list[np.ndarray], object]:
    """The random inputs of a bench program and the reference's outputs,
    computed once for every target compared with them."""
    text = path.read_text()
    # Small floats keep iterated programs (while_loops: ten rounds of
    # tanh(x @ w)) away from chaos, where any rounding difference grows.
    arguments = [
        a * np.asarray(0.05, a.dtype) if a.dtype.kind == "f" else a
        for a in random_inputs(text, seed=1)
    ]
    return arguments, xlir.compile(text, target=REFERENCE)(*arguments)


def _bench_program(path, target: str) -> None:
    arguments, expected = _reference_case(path)
    got = xlir.compile(path.read_text(), target=target, name=str(path))(*arguments)
    wants = expected if isinstance(expected, tuple) else (expected,)
    haves = got if isinstance(got, tuple) else (got,)
    tolerance = TOLERANCES[_bench_name(path)]
    for index, (have, want) in enumerate(zip(haves, wants, strict=True)):
        assert have.shape == want.shape and have.dtype == want.dtype, f"out{index}"
        if want.dtype.kind in "biu":
            np.testing.assert_array_equal(have, want, err_msg=f"out{index}")
            continue
        scale = float(np.max(np.abs(want), initial=1.0))
        atol = max(tolerance["atol"], 1e-6 * scale)
        np.testing.assert_allclose(
            have, want, rtol=tolerance["rtol"], atol=atol, err_msg=f"out{index}"
        )
