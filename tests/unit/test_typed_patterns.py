"""`TypedPatternApplier` offers each op the patterns that can match its class,
in their order, and reads those classes from `@op_type_rewrite_pattern`."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.elementwise import AddOp, SubtractOp, XorOp
from xlir.passes.hlo.simplify_patterns.arithmetic import AddZero, SelfCancel

from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.rewriting import PatternRewriteWalker
from xlir.typed_patterns import TypedPatternApplier, matched_classes

PROGRAM = """
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %a : i32
  %2 = arith.addi %1, %0 : i32
  func.return %2 : i32
}
"""


class SeesAdds(RewritePattern):
    def __init__(self, seen: list[str]):
        self.seen = seen

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        self.seen.append(f"adds:{op.name}")


class SeesAddsAndMuls(RewritePattern):
    def __init__(self, seen: list[str]):
        self.seen = seen

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.AddiOp | arith.MuliOp, rewriter: PatternRewriter
    ) -> None:
        self.seen.append(f"both:{op.name}")


class SeesAll(RewritePattern):
    def __init__(self, seen: list[str]):
        self.seen = seen

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(f"all:{op.name}")


class MulToAdd(RewritePattern):
    """Rewrites each muli into an addi of the same operands."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.MuliOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, arith.AddiOp(op.lhs, op.rhs))


def test_matched_classes_come_from_the_annotation():
    assert matched_classes(AddZero(False)) is AddOp
    assert matched_classes(SelfCancel(False)) == SubtractOp | XorOp
    assert matched_classes(SeesAll([])) is None


def test_each_op_meets_only_the_patterns_of_its_class_in_order():
    seen: list[str] = []
    module = parse_module(make_context(), PROGRAM)
    patterns = [SeesAdds(seen), SeesAll(seen), SeesAddsAndMuls(seen)]
    applier = TypedPatternApplier(patterns, dce_enabled=False)
    PatternRewriteWalker(applier, apply_recursively=False).rewrite_module(module)
    assert seen == [
        "all:func.func",
        "adds:arith.addi",
        "all:arith.addi",
        "both:arith.addi",
        "all:arith.muli",
        "both:arith.muli",
        "adds:arith.addi",
        "all:arith.addi",
        "both:arith.addi",
        "all:func.return",
    ]
    assert applier.patterns_for(arith.MuliOp) == patterns[1:]


def test_a_rewrite_ends_the_patterns_tried_on_the_op():
    seen: list[str] = []
    module = parse_module(make_context(), PROGRAM)
    patterns = [MulToAdd(), SeesAddsAndMuls(seen)]
    applier = TypedPatternApplier(patterns, dce_enabled=False)
    PatternRewriteWalker(applier, apply_recursively=False).rewrite_module(module)
    assert "both:arith.muli" not in seen
    assert not any(isinstance(op, arith.MuliOp) for op in module.walk())


def test_folding_is_refused():
    with pytest.raises(ValueError, match="does not fold"):
        TypedPatternApplier([], folding_enabled=True)
