"""What the tests of the corpus exporter (scripts/jax_corpus.py) and of the
broad benchmark corpus (benchmarks/broad_corpus.py) share: importing those
scripts, and running an exported program against JAX's outputs."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import numpy as np
from xlir.tools.compare import Tolerance, compare, default_tolerance

import xlir
from xlir.element_dtypes import from_void

ROOT = Path(__file__).resolve().parents[2]


def script(path: str) -> ModuleType:
    """The repository's script at `path` (scripts/export_corpus.py) as a
    module, its folder on the import path as when it runs."""
    file = ROOT / path
    if str(file.parent) not in sys.path:
        sys.path.insert(0, str(file.parent))
    return importlib.import_module(file.stem)


BFLOAT16_TERMS = Tolerance(rtol=2**-5, atol=2**-5)
"""For the bf16 programs: XLA rounds to bf16 at other points than xlir (whose
outputs equal the evaluator's there), and their residual sums and attention
averages of terms of order 1 land on outputs near 0, where a rounding of a
term is many of the output's ulps; so the bound is a few ulps of the terms
(bf16's ulp at 1 is 2**-7)."""


def broad_tolerance(name: str, dtype: np.dtype) -> Tolerance:
    """How a broad corpus program's output of `dtype` is compared with
    JAX's: BFLOAT16_TERMS for the bf16 programs, else xlir-run's default."""
    if name.endswith("_bf16") and dtype.kind not in "biu":
        return BFLOAT16_TERMS
    return default_tolerance(dtype)


def assert_runs_as_jax(
    text: str,
    name: str,
    arguments: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    tolerance: Callable[[np.dtype], Tolerance] = default_tolerance,
    target: str = "cpu",
) -> None:
    """`text` compiled for `target` gives `expected` on `arguments`, within
    `tolerance(dtype)` of each output (default: xlir-run's)."""
    executable = xlir.compile(text, target=target, name=name)
    specs = executable.signature.arguments
    got = executable(
        *(from_void(a, spec.dtype) for a, spec in zip(arguments, specs, strict=True))
    )
    results = got if isinstance(got, tuple) else (got,)
    assert len(results) == len(expected)
    for index, (result, want) in enumerate(zip(results, expected, strict=True)):
        result = np.asarray(result)
        want = from_void(want, result.dtype)
        assert result.dtype == want.dtype, f"out{index}: dtype"
        ok, verdict = compare(result, want, tolerance(want.dtype))
        assert ok, f"out{index}: {verdict}"
