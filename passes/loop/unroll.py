"""`unroll{factor=N full-only=false}`: unroll innermost `loop.for`s by N.

A reduction's inner `loop.for` runs one add per iteration behind a compare
and a branch; unrolled, a backend sees N adds in a row to schedule (and
`fold-index` folds the index arithmetic of the copies). The body is copied N
times per iteration of a loop stepping N times as far, each copy taking the
induction variable plus k steps and the carried values the previous copy
yields; a remainder loop with the original body runs the last trip count
mod N iterations (none when N divides the trip count). A loop of at most N
iterations is unrolled fully: its body copied once per iteration at constant
indices, the loop gone. With `full-only`, only those are unrolled, and
only those that carry no vectors: longer loops are left as they are, and
so is a register tile's loop over a convolution's kernel taps (vector code
already, and unrolled it cost LLVM more time than it saved). The cpu
pipeline's short loops (a 3-channel pixel's sum inside a loop over pixels)
then leave the loop over pixels innermost, which LLVM vectorizes (its own
full unroll is off with its partial unroll, for compile time).

Only loops with static bounds and step are unrolled: with a dynamic bound the
remainder's length is only known at run time, and `hlo-to-loop`'s loops are
static. Only innermost loops (no loop nested in the body) are unrolled, so the
code grows by at most N times. `loop.parallel` is left alone: spreading its
iterations over vector lanes is a vectorizer's job, and `tile` makes the
constant-size inner nests it wants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import (
    clone_body,
    contains_loop,
    index_constant,
    kernel_ops_of,
    static_trip_count,
)
from xlir.dialects.loop.loops import ForOp, YieldOp

from xlir.diagnostics import XlirError


def _copies(
    loop: ForOp, builder: Builder, ivs: list[SSAValue], carried: list[SSAValue]
) -> list[SSAValue]:
    """The body once per induction value in `ivs`, threading the carried
    values through; returns the last copy's yielded values."""
    for iv in ivs:
        carried = clone_body(
            loop.body.block,
            builder,
            {loop.induction_var: iv, **dict(zip(loop.carried, carried, strict=True))},
        )
    return carried


def _replace(loop: ForOp, results: list[SSAValue]) -> None:
    for old, new in zip(loop.results, results, strict=True):
        old.replace_all_uses_with(new)
    loop.detach()
    loop.erase()


def unroll(loop: ForOp, factor: int, full_only: bool = False) -> bool:
    """Unroll one innermost static `loop.for`; whether it changed."""
    lower, upper, step = loop.lower, loop.upper, loop.step
    count = static_trip_count(lower, upper, step)
    if count is None or factor < 2 or contains_loop(loop):
        return False
    if full_only and (
        count > factor or any(isinstance(v.type, VectorType) for v in loop.results)
    ):
        return False
    assert isinstance(lower, int) and isinstance(step, int)
    builder = Builder(InsertPoint.before(loop))
    if count <= factor:
        ivs = [index_constant(builder, lower + k * step) for k in range(count)]
        _replace(loop, _copies(loop, builder, ivs, list(loop.iter_args)))
        return True
    split = lower + (count - count % factor) * step
    block = Block(arg_types=[arg.type for arg in loop.body.block.args])
    for new, old in zip(block.args, loop.body.block.args, strict=True):
        new.name_hint = old.name_hint
    main = builder.insert(
        ForOp(lower, split, step * factor, list(loop.iter_args), Region(block))
    )
    for new, old in zip(main.results, loop.results, strict=True):
        new.name_hint = old.name_hint
    inner = Builder(InsertPoint.at_end(block))
    iv = main.induction_var
    ivs = [iv] + [
        inner.insert(arith.AddiOp(iv, index_constant(inner, k * step))).result
        for k in range(1, factor)
    ]
    inner.insert(YieldOp(*_copies(loop, inner, ivs, list(main.carried))))
    if split == upper:
        _replace(loop, list(main.results))
        return True
    remainder = builder.insert(
        ForOp(split, upper, step, list(main.results), loop.body.clone())
    )
    _replace(loop, list(remainder.results))
    return True


@dataclass(frozen=True)
class UnrollPass(ModulePass):
    """Unroll innermost static `loop.for`s by `factor` (module docstring)."""

    name = "unroll"

    factor: int = 4
    full_only: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.factor < 1:
            raise XlirError(
                f"error: unroll: factor must be at least 1, got {self.factor}"
            )
        for loop in kernel_ops_of(op, (ForOp,)):
            unroll(cast(ForOp, loop), self.factor, self.full_only)
