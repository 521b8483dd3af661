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


ONCE_AND_TWICE = """
func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @once(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @twice(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = call @twice(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
func.func private @once(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_a_function_called_once_is_moved_and_one_called_twice_copied() -> None:
    ctx = make_context()
    module = parse_module(ctx, ONCE_AND_TWICE)
    functions = {f.sym_name.data: f for f in module.body.ops if isinstance(f, FuncOp)}
    (negate, _) = functions["once"].body.block.ops
    (tanh, _) = functions["twice"].body.block.ops
    InlinePass().apply(ctx, module)
    first, second, third, _ = functions["main"].body.block.ops
    assert first is negate
    assert second is not tanh and third is not tanh
    assert [second.name, third.name] == [tanh.name] * 2
    assert [f.sym_name.data for f in module.body.ops] == ["main"]
