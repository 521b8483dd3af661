"""`fold-index`: simplify `index` arithmetic in loop nests.

`hlo-to-loop` maps each output index to each operand index through the ops a
fusion holds; a reshape linearizes an index (`i * 8 + j`) and delinearizes it
again (`divui`, `remui` by 8), tiling adds `tile + offset`, unrolling adds
`k + 1`, `k + 2`, ... This pass folds what the loop bounds make redundant:

* constants (`3 * 4`), `x + 0`, `x * 1`, `x * 0`, `x / 1` (xDSL's arith
  canonicalization patterns, on `index` ops only), `x rem 1`;
* chains of constants: `(x + c1) + c2`, `(x * c1) * c2`;
* division and remainder by a positive constant `c` of a linear sum
  `sum(a_t * v_t) + k` whose terms are known non-negative: the terms whose
  coefficient `c` divides leave the division, the rest `r` stays inside it
  (`(i * 8 + j) / 8 = i + j / 8`), and when `r` lies in [0, c), `x / c` is the
  quotient alone and `x rem c` is `r` (`(i * 8 + j) rem 8 = j` for `j` in
  [0, 8)): a reshape's linearize/delinearize round trip folds away;
* loop bounds and steps given by constants become static ones;
* `minsi`, `maxsi` and `cmpi` whose answer the operands' ranges decide (the
  clamps of pad and dynamic_slice maps, the edge tiles of `tile`), and the
  `select`s those comparisons decide.

Ranges come from the enclosing loops' bounds and constants
(`index_ranges.py`) and are exact: nothing folds on a value that could
wrap around, so the result is the same for every input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.arith import (
    SelectConstPattern,
    SignlessIntegerBinaryOperationConstantProp,
    SignlessIntegerBinaryOperationZeroOrUnitRight,
)
from xlir.analysis.index_ranges import (
    Linear,
    compare_ranges,
    linear_form,
    linear_range,
    value_range,
)
from xlir.analysis.loop_utils import constant_int
from xlir.dialects.loop.loops import Bound, ForOp, ParallelOp

from xlir.rewriting import PatternRewriteWalker

_DIVISIONS = (arith.DivUIOp, arith.DivSIOp, arith.FloorDivSIOp)
_REMAINDERS = (arith.RemUIOp, arith.RemSIOp)


def _constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType(), truncate_bits=True))


class _OnIndex(RewritePattern):
    """One of xDSL's integer patterns, applied to `index` ops only."""

    def __init__(self, pattern: RewritePattern):
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if (
            isinstance(op, arith.SignlessIntegerBinaryOperation)
            and op.result.type == IndexType()
        ):
            self.pattern.match_and_rewrite(op, rewriter)


class TrivialRemainder(RewritePattern):
    """`x rem 1` is 0; an unused `remui` goes (xDSL 0.74 gives it no effects
    declaration, so dead code elimination keeps it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.RemUIOp | arith.RemSIOp, rewriter: PatternRewriter, /
    ):
        if op.result.type != IndexType():
            return
        if not op.result.uses:
            rewriter.erase(op)
        elif constant_int(op.rhs) == 1:
            rewriter.replace(op, _constant(0))


class ConstantChain(RewritePattern):
    """`(x + c1) + c2` -> `x + (c1 + c2)`, `(x * c1) * c2` -> `x * (c1 * c2)`
    (exact modulo 2^64, as the ops are)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.AddiOp | arith.MuliOp, rewriter: PatternRewriter, /
    ):
        inner = op.lhs.owner
        if (
            op.result.type != IndexType()
            or type(inner) is not type(op)
            or (outer_constant := constant_int(op.rhs)) is None
        ):
            return
        assert isinstance(inner, arith.AddiOp | arith.MuliOp)
        if (inner_constant := constant_int(inner.rhs)) is None:
            return
        combined = (
            inner_constant + outer_constant
            if isinstance(op, arith.AddiOp)
            else inner_constant * outer_constant
        )
        constant = _constant(combined)
        rewriter.replace(op, [constant, type(op)(inner.lhs, constant)])


def _emit_linear(
    terms: dict[SSAValue, int], constant: int
) -> tuple[list[Operation], SSAValue]:
    """Ops computing a linear sum (in term order), and its value."""
    ops: list[Operation] = []
    parts: list[SSAValue] = []
    for term, coefficient in terms.items():
        if coefficient == 1:
            parts.append(term)
            continue
        ops += [factor := _constant(coefficient), product := arith.MuliOp(term, factor)]
        parts.append(product.result)
    if constant or not parts:
        ops.append(constant_op := _constant(constant))
        parts.append(constant_op.result)
    total = parts[0]
    for part in parts[1:]:
        ops.append(sum_ := arith.AddiOp(total, part))
        total = sum_.result
    return ops, total


def _split(linear: Linear, divisor: int) -> tuple[Linear, Linear] | None:
    """A non-negative linear sum split as `divisor * quotient + rest`, with
    `rest` non-negative; None unless every term is provably non-negative."""
    terms, constant = linear
    quotient: dict[SSAValue, int] = {}
    rest: dict[SSAValue, int] = {}
    for term, coefficient in terms.items():
        found = value_range(term)
        if coefficient < 0 or found is None or found[0] < 0:
            return None
        if coefficient % divisor == 0:
            quotient[term] = coefficient // divisor
        else:
            rest[term] = coefficient
    whole = linear_range(terms, constant)
    if whole is None or whole[0] < 0:
        return None
    return (quotient, constant // divisor), (rest, constant % divisor)


class DivideLinear(RewritePattern):
    """Division and remainder of a non-negative linear sum by a positive
    constant (module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, _DIVISIONS + _REMAINDERS):
            return
        divisor = constant_int(op.rhs)
        if op.result.type != IndexType() or divisor is None or divisor <= 1:
            return
        split = _split(linear_form(op.lhs), divisor)
        if split is None:
            return
        (quotient, base), rest = split
        rest_range = linear_range(*rest)
        assert rest_range is not None and rest_range[0] >= 0
        whole_rest = rest_range[1] < divisor
        if not whole_rest and not quotient and not base:
            return
        if isinstance(op, _REMAINDERS):
            ops, value = _emit_linear(*rest)
            if not whole_rest:
                ops.append(remainder := type(op)(value, op.rhs))
                value = remainder.result
        else:
            ops, value = _emit_linear(quotient, base)
            if not whole_rest:
                rest_ops, rest_value = _emit_linear(*rest)
                ops += rest_ops
                ops.append(part := type(op)(rest_value, op.rhs))
                ops.append(sum_ := arith.AddiOp(value, part))
                value = sum_.result
        rewriter.replace(op, ops, [value])


_DECIDED = (arith.MinSIOp, arith.MaxSIOp, arith.CmpiOp)
_decided_kinds: dict[type[Operation], bool] = {}


class DecidedByRanges(RewritePattern):
    """`minsi`, `maxsi` and `cmpi` on `index` values whose ranges decide
    them. Offered every op: each class is tested once (a failing
    `isinstance` on xDSL's op classes goes through `ABCMeta`, once per
    class of the union), by `issubclass`, since xlir's `arith.cmpi` is
    registered as xDSL's, not derived from it (dialects/arith.py)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        kind = type(op)
        decided = _decided_kinds.get(kind)
        if decided is None:
            decided = _decided_kinds[kind] = issubclass(kind, _DECIDED)
        if not decided:
            return
        op = cast(arith.MinSIOp | arith.MaxSIOp | arith.CmpiOp, op)
        if op.lhs.type != IndexType():
            return
        a, b = value_range(op.lhs), value_range(op.rhs)
        if a is None or b is None:
            return
        if isinstance(op, arith.CmpiOp):
            decided = compare_ranges(op.predicate.value.data, a, b)
            if decided is not None:
                rewriter.replace(op, arith.ConstantOp(BoolAttr.from_bool(decided)))
            return
        smaller_first = a[1] <= b[0]
        if smaller_first or b[1] <= a[0]:
            keep_lhs = smaller_first == isinstance(op, arith.MinSIOp)
            rewriter.replace(op, [], [op.lhs if keep_lhs else op.rhs])


def fold_decided(nest: ParallelOp) -> None:
    """Fold the `minsi`, `maxsi` and `cmpi` in `nest` that its bounds decide
    (`DecidedByRanges`): a pad's clamp of a channel index that never leaves
    the channels is the index itself, which a register tile's vector copies
    then load with unit stride (they refuse a clamp, or a comparison, of
    the index along the vector)."""
    PatternRewriteWalker(DecidedByRanges()).rewrite_region(nest.body)


class StaticBounds(RewritePattern):
    """A loop bound or step given by an `arith.constant` becomes a static
    one, so that backends read the trip count off the op."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, ParallelOp | ForOp):
            return
        dynamic = (*op.dynamic_lower, *op.dynamic_upper, *op.dynamic_step)
        if all(constant_int(value) is None for value in dynamic):
            return

        def static(bounds: Sequence[Bound]) -> list[Bound]:
            return [
                bound
                if isinstance(bound, int) or (value := constant_int(bound)) is None
                else value
                for bound in bounds
            ]

        lower, upper, step = (
            static(op.lower_bounds),
            static(op.upper_bounds),
            static(op.steps),
        )
        body = op.detach_region(op.body)
        if isinstance(op, ParallelOp):
            new = ParallelOp(lower, upper, step, body)
        else:
            new = ForOp(lower[0], upper[0], step[0], list(op.iter_args), body)
        new.attributes |= op.attributes
        rewriter.replace(op, new)


@dataclass(frozen=True)
class FoldIndexPass(ModulePass):
    """Fold index arithmetic by constants and loop-bound ranges (module
    docstring)."""

    name = "fold-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    _OnIndex(SignlessIntegerBinaryOperationConstantProp()),
                    _OnIndex(SignlessIntegerBinaryOperationZeroOrUnitRight()),
                    TrivialRemainder(),
                    ConstantChain(),
                    DivideLinear(),
                    DecidedByRanges(),
                    SelectConstPattern(),
                    StaticBounds(),
                ]
            ),
            apply_recursively=True,
        ).rewrite_module(op)
