"""IRDL checks answered once per signature (xlir/verified_signatures.py):
an op whose signature verified before skips only the IRDL constraints; an
op with a new signature, its traits and its own verifier are still checked,
after parsing and after a pass that creates or changes an op; the
verifications of one compile share what they found."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import AddiOp
from xdsl.dialects.builtin import (
    ModuleOp,
    StringAttr,
    f32,
    i32,
)
from xdsl.dialects.test import TestOp as AnyOp
from xdsl.dialects.test import TestTermOp as AnyTerminator
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    OpDef,
    irdl_op_definition,
    operand_def,
    traits_def,
)
from xdsl.passes import ModulePass
from xdsl.traits import HasParent

import xlir
import xlir.verified_signatures as verified_signatures
from xlir.diagnostics import XlirError, verify_module
from xlir.pass_manager import PASSES, VERIFY_EACH_VARIABLE, PassFailure, run_pipeline
from xlir.verified_ops import VerifiedOps
from xlir.verified_signatures import signature, signatures_shared

ADDS = """\
func.func @main(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %0, %b : i32
  %2 = arith.addi %1, %a : i32
  func.return %2 : i32
}
"""


STABLEHLO_ADD = """\
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def test_ops_of_one_signature_share_one_entry() -> None:
    module = xlir.parse_module(xlir.make_context(), ADDS, "adds.mlir")
    verified = VerifiedOps()
    verify_module(module, verified=verified)
    adds = [op for op in module.walk() if isinstance(op, AddiOp)]
    assert len({signature(op) for op in adds}) == 1
    assert signature(adds[0]) in verified.signatures


def test_an_op_with_a_new_signature_is_checked_in_full() -> None:
    """A signature already seen for the class does not vouch for another:
    an integer add on f32 still fails its operand constraint."""
    module = xlir.parse_module(xlir.make_context(), ADDS, "adds.mlir")
    verified = VerifiedOps()
    verify_module(module, verified=verified)
    add = next(op for op in module.walk() if isinstance(op, AddiOp))
    block = add.parent_block()
    assert block is not None
    block.insert_op_after(AddiOp(add.lhs, add.rhs, result_type=f32), add)
    with pytest.raises(XlirError, match="expected from variable 'T', but got f32"):
        verify_module(module, verified=verified)


def test_a_changed_attribute_is_a_new_signature() -> None:
    module = xlir.parse_module(xlir.make_context(), ADDS, "adds.mlir")
    verified = VerifiedOps()
    verify_module(module, verified=verified)
    add = next(op for op in module.walk() if isinstance(op, AddiOp))
    add.properties["overflowFlags"] = StringAttr("wrong")
    with pytest.raises(XlirError, match=r"should be of base attribute arith\.overflow"):
        verify_module(module, verified=verified)


@irdl_op_definition
class TopLevelOp(IRDLOperation):
    """An op whose trait reads its parent: valid only in a module's body."""

    name = "signatures_test.top_level"
    value = operand_def(i32)
    traits = traits_def(HasParent(ModuleOp))


def test_traits_run_for_every_op_of_a_known_signature() -> None:
    """A second op of a signature already seen, in a place its trait
    forbids, fails: only the IRDL constraints are skipped."""
    constant = AnyOp(result_types=[i32])
    terminator = AnyTerminator()
    nested = Block([terminator])
    module = ModuleOp(
        [
            constant,
            TopLevelOp.create(operands=[constant.results[0]]),
            AnyOp(regions=[Region(nested)]),
        ]
    )
    verified = VerifiedOps()
    verify_module(module, verified=verified)
    assert any(key[0] is TopLevelOp for key in verified.signatures)
    nested.insert_op_before(
        TopLevelOp.create(operands=[constant.results[0]]), terminator
    )
    with pytest.raises(XlirError, match=r"expects parent op 'builtin\.module'"):
        verify_module(module, verified=verified)


@dataclass(frozen=True)
class AddFloatAddPass(ModulePass):
    """Inserts a copy of the first integer add retyped to f32: an op of a
    class seen valid, with a signature that is not."""

    name = "test-add-float-addi"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        add = next(inner for inner in op.walk() if isinstance(inner, AddiOp))
        block = add.parent_block()
        assert block is not None
        block.insert_op_after(AddiOp(add.lhs, add.rhs, result_type=f32), add)


@pytest.fixture
def float_add_pass() -> Iterator[str]:
    PASSES.register(AddFloatAddPass.name, AddFloatAddPass)
    yield AddFloatAddPass.name
    PASSES.unregister(AddFloatAddPass.name)


def test_verify_each_catches_an_invalid_op_a_pass_creates(
    monkeypatch: pytest.MonkeyPatch, float_add_pass: str
) -> None:
    monkeypatch.setenv(VERIFY_EACH_VARIABLE, "1")
    module = xlir.parse_module(xlir.make_context(), ADDS, "adds.mlir")
    with pytest.raises(PassFailure) as failure:
        run_pipeline(xlir.make_context(), module, f"cse,{float_add_pass}")
    assert "expected from variable 'T', but got f32" in str(failure.value)
    assert f"the IR after pass '{float_add_pass}'" in str(failure.value)


def _count_full_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the ops whose IRDL constraints are checked from now on."""
    checked: list[str] = []
    check = verified_signatures._verify_definition

    def counting(definition: OpDef, op: Operation) -> None:
        checked.append(op.name)
        check(definition, op)

    monkeypatch.setattr(verified_signatures, "_verify_definition", counting)
    return checked


@pytest.mark.parametrize("shared, checks", [(True, 1), (False, 2)])
def test_verifications_share_signatures_only_in_a_shared_context(
    monkeypatch: pytest.MonkeyPatch, shared: bool, checks: int
) -> None:
    """Two modules of the same ops: in a shared context the second one's
    signatures are known; outside one each verification starts afresh."""
    checked = _count_full_checks(monkeypatch)
    with signatures_shared() if shared else nullcontext():
        for _ in range(2):
            verify_module(xlir.parse_module(xlir.make_context(), ADDS, "adds.mlir"))
    assert checked.count("arith.addi") == checks


def test_a_compile_checks_a_signature_its_passes_keep_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The parsed program's verification and that of the HLO passes'
    result: an add the passes leave as it was is checked once."""
    checked = _count_full_checks(monkeypatch)
    xlir.compile(STABLEHLO_ADD, target="interpreter")
    assert checked.count("stablehlo.add") == 1
