"""Differential tests between levels: every corpus program gives the same
outputs (within the corpus tolerances) through the interpreter after each
HLO-level pass alone and after the whole `hlo-opt` pipeline, as before any."""

from __future__ import annotations

import pytest

import xlir
from tests.corpus import PROGRAMS, assert_matches, load_case, program_name
from xlir.pass_manager import PIPELINES

CASES = [
    *((path, step) for step in PIPELINES["hlo-opt"] for path in PROGRAMS
      if not path.name.endswith(".export.mlir")),
    *((path, "hlo-opt") for path in PROGRAMS),
]  # fmt: skip
"""Each pass alone on one flavour of each program; the pipeline on both."""


@pytest.mark.parametrize(
    ("path", "pipeline"), CASES, ids=[f"{p.name}-{s}" for p, s in CASES]
)
def test_same_outputs_after(path, pipeline) -> None:
    arguments, expected = load_case(path)
    executable = xlir.compile(path, target="interpreter", pipeline=pipeline)
    assert_matches(program_name(path), executable(*arguments), expected)
