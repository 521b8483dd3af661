"""The programs of issue 29's defect 8 at the sizes where generated code
corrupted the heap (tests/e2e/bench_size_programs.py: exported from JAX
here, so the test needs jax), each compiled and called twice in a
subprocess: it must exit cleanly with JAX's numbers both times. The f16
decoder also runs compiled without native f16 (as on most x86 CPUs), where
LLVM calls the JIT's own `__truncdfhf2` (its first call once jumped to
address 0). And the corpus's bench programs, compiled with bounds checks,
each called twice in one subprocess: no access out of bounds, the same bits
both times."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cpu_features import X86
from tests.e2e.bench_size_programs import PROGRAMS

ROOT = Path(__file__).resolve().parents[2]

CASES = [(name, False) for name in PROGRAMS]
if X86:
    CASES.append(("decoder_f16", True))


def _run(*arguments: str) -> None:
    """`python -m tests.e2e.bench_size_programs ARGUMENTS` exits cleanly."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.e2e.bench_size_programs", *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "XLIR_CACHE": "0", "JAX_PLATFORMS": "cpu"},
    )
    assert result.returncode == 0, (
        f"exit status {result.returncode}\n{result.stderr[-4000:]}"
    )


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="exports the programs with jax"
)
@pytest.mark.parametrize(
    ("name", "no_native_f16"),
    CASES,
    ids=[f"{n}-no-native-f16" if h else n for n, h in CASES],
)
def test_program_runs_twice_with_jax_numbers(name: str, no_native_f16: bool) -> None:
    _run(name, *(["--no-native-f16"] if no_native_f16 else []))


@pytest.mark.slow
def test_corpus_bench_programs_run_twice_bounds_checked() -> None:
    _run("corpus-bench")
