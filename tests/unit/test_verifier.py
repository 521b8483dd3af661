"""The verifier (xlir/verifier.py): SSA dominance and region isolation, after
parsing and, with --verify-each / XLIR_VERIFY_EACH, after every pass.

Issue 29's defect 1: programs that use a value before its definition used
to hang `hlo-opt`, crash `fuse`, leave invalid IR after `inline` and exhaust
the stack on the cpu target. They must end in one located diagnostic."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.ir import Block, Operation, OpResult, Region
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.syntax import i64_array
from xlir.tools.opt import main as opt_main

import xlir
from xlir.diagnostics import XlirError, verify_module
from xlir.pass_manager import (
    PASSES,
    VERIFY_EACH_VARIABLE,
    PassFailure,
    run_pipeline,
)
from xlir.verified_ops import VerifiedOps
from xlir.verifier import InvalidUse, check_uses, isolation_checked

SELF_USE = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %0, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""

USE_BEFORE_DEF = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %1, %a : tensor<4xf32>
  %1 = stablehlo.multiply %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""

CALLS = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %0, %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""

DIAGNOSTIC = "error: 'stablehlo.add' op operand #0 does not dominate this use"


def _tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


@pytest.mark.parametrize(
    "text, line",
    [(SELF_USE, 2), (USE_BEFORE_DEF, 2), (CALLS, 6)],
    ids=["self-use", "use-before-def", "in-callee"],
)
@pytest.mark.parametrize(
    "command",
    [
        ["xlir-opt", "-p", "hlo-opt"],  # hung in passes/hlo/buffers/sharing.py
        ["xlir-opt", "-p", "fuse"],  # ValueError deleting a value in use
        ["xlir-opt", "-p", "inline"],  # left invalid IR
        ["xlir-run", "--target", "cpu", "--random"],  # RecursionError
    ],
    ids=["hlo-opt", "fuse", "inline", "cpu"],
)
def test_defect_1_ends_in_a_located_diagnostic(
    tmp_path: Path, text: str, line: int, command: list[str]
) -> None:
    path = tmp_path / "cycle.mlir"
    path.write_text(text)
    result = subprocess.run(
        [_tool(command[0]), *command[1:], str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"{path}:{line}:3: {DIAGNOSTIC}" in result.stderr
    assert "Traceback" not in result.stderr
    assert "internal error" not in result.stderr


def test_compile_rejects_a_cycle() -> None:
    with pytest.raises(XlirError, match=r"cycle.mlir:2:3: error: .* does not dominate"):
        xlir.compile(SELF_USE, name="cycle.mlir")


@dataclass(frozen=True)
class BreakDominancePass(ModulePass):
    """Moves the first op that uses a value of its own block to the front
    of the block: a pass that breaks SSA dominance."""

    name = "test-break-dominance"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            block = inner.parent
            if block is not None and any(
                isinstance(v, OpResult) and v.op.parent is block for v in inner.operands
            ):
                first = block.first_op
                assert first is not None
                inner.detach()
                block.insert_op_before(inner, first)
                return


VALID = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<4xf32>
  %1 = stablehlo.add %0, %a : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
"""


@pytest.fixture
def breaking_pass() -> Iterator[str]:
    PASSES.register(BreakDominancePass.name, BreakDominancePass)
    yield BreakDominancePass.name
    PASSES.unregister(BreakDominancePass.name)


@pytest.fixture
def breaking_transpose_pass() -> Iterator[str]:
    PASSES.register(BreakTransposePass.name, BreakTransposePass)
    yield BreakTransposePass.name
    PASSES.unregister(BreakTransposePass.name)


def test_verify_each_names_the_pass_that_broke_the_ir(
    tmp_path: Path, breaking_pass: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "valid.mlir"
    path.write_text(VALID)
    with pytest.raises(SystemExit) as exit:
        opt_main([str(path), "--verify-each", "-p", f"cse,{breaking_pass},dce"])
    assert exit.value.code == 1
    error = capsys.readouterr().err
    assert (
        f"{path}:3:3: error: 'stablehlo.add' op operand #0 does not dominate" in error
    )
    assert f"note: the IR after pass '{breaking_pass}'" in error


def test_no_verify_each_verifies_the_result(
    tmp_path: Path, breaking_pass: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "valid.mlir"
    path.write_text(VALID)
    with pytest.raises(SystemExit):
        opt_main([str(path), "--no-verify-each", "-p", f"cse,{breaking_pass}"])
    error = capsys.readouterr().err
    assert "does not dominate this use" in error
    assert "--verify-each" in error  # how to find the pass


@pytest.mark.parametrize("each", ["1", ""])
def test_xlir_verify_each_names_the_pass_in_pipelines(
    breaking_pass: str, monkeypatch: pytest.MonkeyPatch, each: str
) -> None:
    monkeypatch.setenv(VERIFY_EACH_VARIABLE, each)
    module = xlir.parse_module(xlir.make_context(), VALID, "valid.mlir")
    with pytest.raises(PassFailure) as failure:
        run_pipeline(xlir.make_context(), module, f"{breaking_pass},cse")
    named = f"the IR after pass '{breaking_pass}'" in str(failure.value)
    assert named == bool(each)


def _nest(depth: int) -> tuple[ModuleOp, Block, Block, Operation]:
    """`depth` nested single-block regions under one op, in the region of
    another (not the module's graph region): the outer block, the innermost
    block and an op before the nest, whose result is in scope inside."""
    before = AnyOp(result_types=[i32])
    innermost = Block()
    op = AnyOp(regions=[Region(innermost)])
    for _ in range(depth):
        op = AnyOp(regions=[Region(Block([op]))])
    outer = Block([before, op])
    return ModuleOp([AnyOp(regions=[Region(outer)])]), outer, innermost, before


def test_deep_nesting_is_checked_without_recursion() -> None:
    module, outer, innermost, before = _nest(5000)
    innermost.add_op(AnyOp([before.results[0]]))
    check_uses(module)
    late = AnyOp(result_types=[i32])
    innermost.add_op(AnyOp([late.results[0]]))
    outer.add_op(late)
    with pytest.raises(InvalidUse, match="operand #0 does not dominate"):
        check_uses(module)


def _isolation_broken() -> tuple[ModuleOp, ModuleOp]:
    """A module whose inner module (IsolatedFromAbove) reads a value
    defined outside it: the outer module and the inner."""
    outside = AnyOp(result_types=[i32])
    inner = ModuleOp([AnyOp([outside.results[0]])])
    return ModuleOp([outside, inner]), inner


def test_verify_module_reports_broken_isolation() -> None:
    """verify_module skips xDSL's trait check of isolation (quadratic in the
    nesting depth) because check_uses makes the same check first."""
    module, _ = _isolation_broken()
    with pytest.raises(XlirError, match="isolated from above"):
        verify_module(module)


def test_xdsl_isolation_check_runs_outside_verify_module() -> None:
    """Only inside `isolation_checked()` is xDSL's trait check skipped."""
    _, inner = _isolation_broken()
    with pytest.raises(VerifyException, match="IsolatedFromAbove"):
        inner.verify()
    with isolation_checked():
        inner.verify()
    with pytest.raises(VerifyException, match="IsolatedFromAbove"):
        inner.verify()


def test_values_not_in_the_ir() -> None:
    module, _, innermost, _ = _nest(1)
    detached = AnyOp(result_types=[i32])
    innermost.add_op(AnyOp([detached.results[0]]))
    with pytest.raises(InvalidUse, match="not in the IR"):
        check_uses(module)


def test_placeholder_values_are_not_in_the_ir() -> None:
    """A value that is neither a result nor a block argument (the parser's
    forward reference) is reported, not an assertion."""
    module, _, innermost, _ = _nest(1)
    innermost.add_op(AnyOp([ForwardDeclaredValue(i32)]))
    with pytest.raises(InvalidUse, match="is a value that is not in the IR"):
        check_uses(module)


@dataclass(frozen=True)
class BreakTransposePass(ModulePass):
    """Changes a transpose's permutation in place to one that is none."""

    name = "test-break-transpose"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if inner.name == "stablehlo.transpose":
                inner.properties["permutation"] = i64_array([0, 0])


TRANSPOSE = """\
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
"""


def test_verify_each_reverifies_an_op_changed_in_place(
    monkeypatch: pytest.MonkeyPatch, breaking_transpose_pass: str
) -> None:
    """An op verified after one pass and changed by the next is verified
    again (xlir/verified_ops.py skips only ops whose key is unchanged)."""
    monkeypatch.setenv(VERIFY_EACH_VARIABLE, "1")
    module = xlir.parse_module(xlir.make_context(), TRANSPOSE, "t.mlir")
    with pytest.raises(PassFailure) as failure:
        run_pipeline(xlir.make_context(), module, f"cse,{BreakTransposePass.name}")
    assert "'stablehlo.transpose' op permutation [0, 0]" in str(failure.value)
    assert f"the IR after pass '{BreakTransposePass.name}'" in str(failure.value)


def test_verified_ops_skip_only_unchanged_leaf_ops() -> None:
    module = xlir.parse_module(xlir.make_context(), TRANSPOSE, "t.mlir")
    verified = VerifiedOps()
    ops = list(module.walk())
    assert all(verified.needs_verifying(op) for op in ops)
    verified.completed()
    transpose = next(op for op in ops if op.name == "stablehlo.transpose")
    skipped = [op.name for op in ops if not verified.needs_verifying(op)]
    assert skipped == ["stablehlo.transpose"]  # func.return: a terminator
    transpose.properties["permutation"] = i64_array([0, 1])
    assert verified.needs_verifying(transpose)
