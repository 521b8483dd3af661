"""`fold-constants`: evaluate ops whose operands are all `stablehlo.constant`
and replace them by constants, with the interpreter's kernels — the same
semantics the reference target runs (integer wrap-around, NaN, bf16 rounding),
with no second copy of them.

An op folds only when it has no side effect (Pure, or regions of pure ops,
such as a reduce), is deterministic and terminating (never rng_bit_generator
or while), its results have static shapes (as a constant's must; `refine-shapes`
makes dynamic ones static), and they have at most `max-elements` elements in all
(`fold-constants{max-elements=N}`, 1024 by default: enough for the index
tables and masks JAX computes from constants, small enough that the printed
IR stays readable). Ops that make data from nothing stay as they are: iota,
and broadcast_in_dim of a splat, which fusion absorbs for free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException
from xlir.dialects.effects import memo_region_dce
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.evaluator.hlo.types import Unsupported
from xlir.passes.hlo.simplify_patterns.constants import (
    constant_array,
    dense_from_numpy,
    splat_scalar,
)

from xlir.rewriting import PatternRewriteWalker

if TYPE_CHECKING:
    from xlir.evaluator.hlo import ModuleInterpreter

NEVER = frozenset({"stablehlo.rng_bit_generator", "stablehlo.while"})
"""Pure ops that must not be evaluated: random bits (their algorithm is the
backend's to choose) and loops (which need not terminate)."""


@dataclass
class FoldConstantOp(RewritePattern):
    """Replace an op of constant operands by constants of its results."""

    max_elements: int
    _interpreter: ModuleInterpreter | None = field(default=None, init=False)
    """The evaluator, made when the first op folds: a pipeline over a program
    with nothing to fold does without its kernels."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not self._foldable(op):
            return
        arrays = [constant_array(v) for v in op.operands]
        if any(a is None for a in arrays):
            return
        kernel = self._evaluator().make_kernel(op)
        if kernel is None:
            return
        try:
            with np.errstate(all="ignore"):
                produced = kernel(*arrays)
        except Exception:
            # A kernel that cannot run on these values (it reads a value from
            # outside its regions, say) leaves the op for run time.
            return
        values = [produced] if len(op.results) == 1 else list(produced)
        try:
            constants = [
                ConstantOp(dense_from_numpy(np.asarray(value), result.type))
                for value, result in zip(values, op.results, strict=True)
            ]
        except Unsupported:
            return
        rewriter.replace(op, constants, [c.output for c in constants])

    def _evaluator(self) -> ModuleInterpreter:
        if self._interpreter is None:
            from xlir.evaluator.hlo import ModuleInterpreter

            self._interpreter = ModuleInterpreter(ModuleOp([]))
        return self._interpreter

    def _foldable(self, op: Operation) -> bool:
        if (
            not op.operands
            or not op.results
            or isinstance(op, ConstantOp)
            or op.name in NEVER
            or not is_side_effect_free(op)
        ):
            return False
        if isinstance(op, BroadcastInDimOp) and splat_scalar(op.operand) is not None:
            return False
        total = 0
        for result in op.results:
            if not isinstance(result.type, TensorType):
                return False
            shape = result.type.get_shape()
            if any(size < 0 for size in shape):
                return False  # a constant's type is static
            total += prod(shape)
        return total <= self.max_elements


@dataclass(frozen=True)
class FoldConstantsPass(ModulePass):
    name = "fold-constants"

    max_elements: int = 1024
    """The most elements an op's results may have, all together, to be folded."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_elements < 0:
            raise PassFailedException(
                f"max-elements must be at least 0, but is {self.max_elements}"
            )
        pattern = FoldConstantOp(self.max_elements)
        PatternRewriteWalker(pattern, post_walk_func=memo_region_dce).rewrite_module(op)
