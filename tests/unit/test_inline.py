"""`inline` on the corpus: no call and no private function is left, the
inlined ops keep the locations of the callee's ops, and the interpreter gives
bit-identical outputs before and after."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.dialects.func import CallOp, FuncOp
from xlir.passes.hlo.inline import InlinePass

import xlir
from tests.conftest import CORPUS
from xlir.context import make_context
from xlir.parsing import parse_module

SMALL = CORPUS / "small"
WITH_CALLS = sorted(p for p in SMALL.glob("*.mlir") if "call @" in p.read_text())


def _arguments(path) -> list[np.ndarray]:
    data = np.load(SMALL / f"{path.name.split('.')[0]}.npz")
    return [data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data))]


def _run(module, arguments) -> tuple[np.ndarray, ...]:
    got = xlir.compile(module, target="interpreter", pipeline="")(*arguments)
    return got if isinstance(got, tuple) else (got,)


def test_corpus_has_calls() -> None:
    assert len(WITH_CALLS) >= 10


@pytest.mark.parametrize("path", WITH_CALLS, ids=[p.name for p in WITH_CALLS])
def test_inline_corpus(path) -> None:
    text = path.read_text()
    ctx = make_context()
    before = parse_module(ctx, text, path.name)
    after = parse_module(ctx, text, path.name)
    InlinePass().apply(ctx, after)
    after.verify()

    assert not [op for op in after.walk() if isinstance(op, CallOp)]
    functions = [op for op in after.body.ops if isinstance(op, FuncOp)]
    assert all(f.sym_visibility is None or f.sym_visibility.data == "public"
               for f in functions)  # fmt: skip

    # Every op still points at a line of the source, callee lines included.
    lines = {
        op.location.line.data
        for op in after.walk()
        if isinstance(op.location, FileLineColLoc)
    }
    callee_lines = {
        op.location.line.data
        for f in before.body.ops
        if isinstance(f, FuncOp) and f.sym_visibility is not None
        and f.sym_visibility.data == "private"
        for op in f.body.walk()
        if isinstance(op.location, FileLineColLoc) and op.name not in ("func.return", "func.call")
    }  # fmt: skip
    assert callee_lines <= lines

    arguments = _arguments(path)
    for want, got in zip(_run(before, arguments), _run(after, arguments), strict=True):
        np.testing.assert_array_equal(got, want)
