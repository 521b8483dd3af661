"""Memory effects of ops with regions, found once per analysis.

xDSL's `RecursiveMemoryEffect` gathers an op's effects from every op in its
regions, recursively, each time it is asked. Dead-code elimination and CSE
ask for every op, so a `while` nested in a `while` ... is asked about once per
level above it, and each answer walks everything below: time growing with the
square of the nesting depth (minutes at 1,000 levels). `RecursiveEffects` is
the same trait, with answers kept while an `effects_memo()` is active; the
passes that ask (`simplify` and `fold-constants` through `region_dce`, `cse`,
`dce`) hold one while they analyse. While one is active the IR only loses
ops (CSE merges, DCE deletes), which can only take effects away, so a kept
answer errs on the safe side.
"""

from __future__ import annotations

from collections.abc import Iterator, Set
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.traits import EffectInstance, RecursiveMemoryEffect
from xdsl.transforms.dead_code_elimination import region_dce

Effects = Set[EffectInstance] | None

_memo: ContextVar[dict[Operation, Effects] | None] = ContextVar(
    "xlir_effects_memo", default=None
)


class RecursiveEffects(RecursiveMemoryEffect):
    """The effects of the ops in the op's regions (xDSL's trait), kept for
    the op while an `effects_memo()` is active."""

    @classmethod
    def get_effects(cls, op: Operation) -> Effects:
        memo = _memo.get()
        if memo is None:
            return super().get_effects(op)
        if op not in memo:
            memo[op] = super().get_effects(op)
        return memo[op]


@contextmanager
def effects_memo() -> Iterator[None]:
    """Keep the effects of region ops found until the block ends."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def memo_region_dce(
    region: Region, listener: PatternRewriterListener | None = None
) -> bool:
    """xDSL's `region_dce`, each region op's effects found once."""
    with effects_memo():
        return region_dce(region, listener)
