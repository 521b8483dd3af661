"""`simplify`: an algebraic simplifier in the spirit of XLA's
AlgebraicSimplifier — identities, chains of shape ops, slices of
concatenates, transposes folded into dots — run to a fixpoint.

Float rewrites keep IEEE results bit for bit (NaN, ±inf, -0.0) unless the
`fast-math` option is set (`simplify{fast-math=true}`), which also allows
x + 0.0 → x, x - (-0.0) → x, x * 0.0 → 0.0, x - x → 0.0 and compare(x, x) of
floats. Ops left dead by a rewrite are removed, as canonicalize does. The
rules and why each is exact are in `simplify_patterns/`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.dialects.effects import memo_region_dce
from xlir.passes.hlo.simplify_patterns.arithmetic import arithmetic_patterns
from xlir.passes.hlo.simplify_patterns.compare_clamped import compare_clamped_patterns
from xlir.passes.hlo.simplify_patterns.dot import dot_patterns
from xlir.passes.hlo.simplify_patterns.shape_chains import shape_chain_patterns
from xlir.passes.hlo.simplify_patterns.slices import slice_patterns
from xlir.passes.hlo.simplify_patterns.total_order import total_order_patterns

from xlir.rewriting import PatternRewriteWalker
from xlir.typed_patterns import TypedPatternApplier


@dataclass(frozen=True)
class SimplifyPass(ModulePass):
    name = "simplify"

    fast_math: bool = False
    """Allow rewrites that are wrong for -0.0, ±inf or NaN."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            *arithmetic_patterns(self.fast_math),
            *shape_chain_patterns(),
            *slice_patterns(),
            *dot_patterns(),
            *compare_clamped_patterns(),
            *total_order_patterns(),
        ]
        PatternRewriteWalker(
            TypedPatternApplier(patterns), post_walk_func=memo_region_dce
        ).rewrite_module(op)
