"""xDSL's greedy pattern applier, offering each op only the patterns of its class.

`GreedyRewritePatternApplier` tries every pattern on every op it visits, and
a pattern written with `@op_type_rewrite_pattern` starts with
`isinstance(op, ExpectedOp)`: xDSL's op classes are ABCs, so each failing
test is a call of `ABCMeta.__instancecheck__`. A pass of thirty patterns
(`simplify`) pays thirty of them for each visit of each op, most of its time.
`TypedPatternApplier` asks once per op class which patterns can match it (a
pattern of `@op_type_rewrite_pattern` matches its annotated classes and their
subclasses; any other pattern may match anything) and tries only those, in
their order: the same rewrites in the same order, so the same IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)
from xdsl.transforms.dead_code_elimination import is_trivially_dead


def matched_classes(pattern: RewritePattern) -> type | None:
    """The op class (or union of classes) `pattern` can rewrite, when its
    `match_and_rewrite` is made by `@op_type_rewrite_pattern`; None (any op)
    otherwise."""
    method = type(pattern).match_and_rewrite
    code = getattr(method, "__code__", None)
    closure = getattr(method, "__closure__", None)
    if (
        code is None
        or closure is None
        or method.__qualname__ != "op_type_rewrite_pattern.<locals>.impl"
        or "expected_type" not in code.co_freevars
    ):
        return None
    return closure[code.co_freevars.index("expected_type")].cell_contents


@dataclass(eq=False, repr=False)
class TypedPatternApplier(GreedyRewritePatternApplier):
    """`GreedyRewritePatternApplier` without folding, trying on each op only
    the patterns that can match its class."""

    _by_class: dict[type[Operation], list[RewritePattern]] = field(
        default_factory=dict[type[Operation], list[RewritePattern]], init=False
    )
    _matched: list[tuple[RewritePattern, type | None]] = field(
        default_factory=list[tuple[RewritePattern, type | None]], init=False
    )

    def __post_init__(self) -> None:
        if self.folding_enabled:
            raise ValueError("TypedPatternApplier does not fold")
        self._matched = [(p, matched_classes(p)) for p in self.rewrite_patterns]

    def patterns_for(self, kind: type[Operation]) -> list[RewritePattern]:
        """The patterns that may rewrite an op of class `kind`, in order."""
        patterns = self._by_class.get(kind)
        if patterns is None:
            patterns = self._by_class[kind] = [
                pattern
                for pattern, classes in self._matched
                if classes is None or issubclass(kind, classes)
            ]
        return patterns

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.dce_enabled and is_trivially_dead(op):
            rewriter.erase(op)
            return
        for pattern in self.patterns_for(type(op)):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return
