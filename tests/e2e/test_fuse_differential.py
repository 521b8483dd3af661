"""`fuse` changes where values are computed, never what: every corpus
program (both flavours) gives bit-identical outputs through the interpreter
after `fuse` (alone, and after `inline` so that whole programs fuse) as
before any pass. Afterwards no elementwise, data-movement or reduction op is
left outside a fusion."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from xlir.dialects.hlo import FusionOp
from xlir.passes.hlo.fusion.op_classes import Role, role

import xlir
from tests.corpus import PROGRAMS, load_case
from xlir.api import load_module
from xlir.context import make_context
from xlir.pass_manager import run_pipeline

PIPELINES = ("fuse", "inline,fuse")
CASES = [(path, spec) for path in PROGRAMS for spec in PIPELINES]


@cache
def _before_any_pass(path) -> tuple[list[np.ndarray], tuple[np.ndarray, ...]]:
    """A program's inputs and its outputs before any pass, computed once for
    both pipelines compared with them."""
    arguments, _ = load_case(path)
    return arguments, _results(xlir.compile(path, pipeline="")(*arguments))


def _results(got: np.ndarray | tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    return got if isinstance(got, tuple) else (got,)


@pytest.mark.parametrize(
    ("path", "spec"), CASES, ids=[f"{p.name}-{s}" for p, s in CASES]
)
def test_same_outputs_after_fuse(path, spec) -> None:
    arguments, before = _before_any_pass(path)
    after = _results(xlir.compile(path, pipeline=spec)(*arguments))
    assert len(before) == len(after)
    for index, (want, got) in enumerate(zip(before, after, strict=True)):
        assert got.dtype == want.dtype, f"out{index}: dtype"
        np.testing.assert_array_equal(got, want, err_msg=f"out{index}")


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_everything_loop_fusible_is_fused(path) -> None:
    module, sources = load_module(path)
    run_pipeline(make_context(), module, "inline,fuse", sources)
    for op in module.walk():
        if isinstance(op, FusionOp):
            continue
        inside = any(isinstance(parent, FusionOp) for parent in _ancestors(op))
        assert inside or role(op) not in (Role.LOOP, Role.REDUCTION), (
            f"'{op.name}' at {op.location} is left outside a fusion"
        )


def _ancestors(op):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()
