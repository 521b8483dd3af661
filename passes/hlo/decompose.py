"""`decompose`: rewrite every chlo op, and every `stablehlo.composite`, into
plain stablehlo, so that later passes and the backends see a small op set.

* Special functions (erf, erfc, erf_inv, lgamma, digamma) become polynomial
  approximations accurate to the element type (`decompositions/erf.py`,
  `decompositions/gamma.py`); f64 has its own coefficients, f16 and bf16 are
  computed in f32 and converted back.
* Trigonometric and hyperbolic ops become exp/log/atan2 formulas that avoid
  overflow and cancellation (`decompositions/elementary.py`); is_inf and kin
  become compares; conj of a real number is the number; square is x * x.
* top_k becomes a stable descending `stablehlo.sort` of the operand with an
  iota of indices, then a slice (`decompositions/top_k.py`), unless
  `keep-top-k` is set: a target with a selection kernel (cpu's,
  lowering/kernels/top_k.py) keeps it.
* mulhi becomes 64-bit integer arithmetic (`decompositions/mulhi.py`).
* scan becomes a while loop over the scan dimension (`decompositions/scan.py`).
* `stablehlo.reduce_precision` of f16, bf16, f32 and f64 becomes integer
  operations on the bits (`decompositions/reduce_precision.py`).
* `stablehlo.map` of an elementwise computation becomes its ops on whole
  tensors (`decompositions/map.py`).
* `stablehlo.bitcast_convert` between widths becomes same-width bitcasts,
  shifts and an `or` reduction (`decompositions/bitcast.py`).
* ragged_dot with ragged lhs rows becomes a `dot_general` per group, each
  kept on its group's rows (`decompositions/ragged_dot.py`).
* A composite becomes a copy of its `decomposition` function's body; the
  function goes once nothing else refers to it.
* `stablehlo.if` becomes a `stablehlo.case` on `convert(not(pred))` (0 runs
  the true branch, 1 the false one), so targets lower one conditional.

What stays, unchanged: `chlo.next_after` (the loop level computes it on the
bits, `lowering/scalar.py`), and, with no decomposition written yet, chlo ops
on complex numbers, `chlo.ragged_dot` with a ragged contracting or batch
dimension, `chlo.bessel_i1e`, and composites whose decomposition is missing
or is not a single-block function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable
from xlir.dialects import chlo
from xlir.dialects.chlo_structured import RaggedDotOp, ScanOp
from xlir.dialects.stablehlo.control_flow import CaseOp, CompositeOp, IfOp
from xlir.dialects.stablehlo.elementwise import (
    BitcastConvertOp,
    ConvertOp,
    MultiplyOp,
    NotOp,
    ReducePrecisionOp,
)
from xlir.dialects.stablehlo.reduction import MapOp
from xlir.dialects.stablehlo.types import element_type, is_float
from xlir.passes.hlo.decompositions import (
    bitcast,
    elementary,
    erf,
    gamma,
    mulhi,
    predicates,
    ragged_dot,
    reduce_precision,
    scan,
)
from xlir.passes.hlo.decompositions import map as map_
from xlir.passes.hlo.decompositions.emitter import Emitter, compute_type
from xlir.passes.hlo.decompositions.top_k import top_k
from xlir.passes.hlo.inline import clone_body, erase_dead_private_functions

from xlir.rewriting import PatternRewriteWalker
from xlir.typed_patterns import TypedPatternApplier

UnaryDecomposition = Callable[[Emitter, SSAValue], SSAValue]

UNARY: dict[type[Operation], UnaryDecomposition] = {
    chlo.ErfOp: erf.erf,
    chlo.ErfcOp: erf.erfc,
    chlo.ErfInvOp: erf.erf_inv,
    chlo.LgammaOp: gamma.lgamma,
    chlo.DigammaOp: gamma.digamma,
    chlo.TanOp: elementary.tan,
    chlo.SinhOp: elementary.sinh,
    chlo.CoshOp: elementary.cosh,
    chlo.AsinOp: elementary.asin,
    chlo.AcosOp: elementary.acos,
    chlo.AtanOp: elementary.atan,
    chlo.AsinhOp: elementary.asinh,
    chlo.AcoshOp: elementary.acosh,
    chlo.AtanhOp: elementary.atanh,
    chlo.IsInfOp: predicates.is_inf,
    chlo.IsPosInfOp: predicates.is_pos_inf,
    chlo.IsNegInfOp: predicates.is_neg_inf,
}
"""The formula of each elementwise chlo op, computed in the compute type."""


class DecomposeUnary(RewritePattern):
    """An elementwise chlo op on real numbers → its formula."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, chlo.ConjOp):
            if is_float(element_type(op.operand.type)):
                rewriter.replace(op, [], [op.operand])
            return
        formula = UNARY.get(type(op))
        if formula is None or not op.operands:
            return
        element = element_type(op.operands[0].type)
        if not is_float(element):
            return
        e = Emitter(rewriter, op, compute_type(element))
        result = formula(e, e.convert(op.operands[0], e.element))
        if is_float(element_type(op.results[0].type)):
            result = e.convert(result, element)
        rewriter.replace(op, [], [result])


class DecomposeSquare(RewritePattern):
    """chlo.square → x * x (for every element type it takes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.SquareOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, MultiplyOp(op.operand, op.operand, op.result.type))


class DecomposeTopK(RewritePattern):
    """chlo.top_k → sort + slice."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.TopKOp, rewriter: PatternRewriter) -> None:
        e = Emitter(rewriter, op, element_type(op.operand.type))
        rewriter.replace(op, [], top_k(e, op))


class DecomposeMulhi(RewritePattern):
    """chlo.mulhi → 64-bit integer arithmetic (`decompositions/mulhi.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.MulhiOp, rewriter: PatternRewriter) -> None:
        e = Emitter(rewriter, op, element_type(op.lhs.type))
        rewriter.replace(op, [], [mulhi.mulhi(e, op)])


class DecomposeScan(RewritePattern):
    """chlo.scan → a while loop (`decompositions/scan.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScanOp, rewriter: PatternRewriter) -> None:
        if scan.can_decompose(op):
            ops, results = scan.scan_as_while(op)
            rewriter.replace(op, ops, results)


class DecomposeReducePrecision(RewritePattern):
    """reduce_precision → integer operations on the bits
    (`decompositions/reduce_precision.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ReducePrecisionOp, rewriter: PatternRewriter
    ) -> None:
        if reduce_precision.can_decompose(op):
            e = Emitter(rewriter, op, element_type(op.operand.type))
            rewriter.replace(op, [], [reduce_precision.reduce_precision(e, op)])


class InlineMap(RewritePattern):
    """map of an elementwise computation → its ops on whole tensors
    (`decompositions/map.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MapOp, rewriter: PatternRewriter) -> None:
        if map_.can_inline(op):
            ops, result = map_.inline_map(op)
            rewriter.replace(op, ops, [result])


class BitcastAcrossWidths(RewritePattern):
    """bitcast_convert between widths → same-width bitcasts, shifts and an
    `or` reduction (`decompositions/bitcast.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: BitcastConvertOp, rewriter: PatternRewriter
    ) -> None:
        if bitcast.changes_width(op):
            rewriter.replace(op, [], [bitcast.bitcast_across_widths(rewriter, op)])


class DecomposeRaggedDot(RewritePattern):
    """chlo.ragged_dot (ragged lhs rows) → a dot_general per group
    (`decompositions/ragged_dot.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: RaggedDotOp, rewriter: PatternRewriter) -> None:
        if ragged_dot.can_decompose(op):
            rewriter.replace(op, [], [ragged_dot.ragged_dot(rewriter, op)])


class IfToCase(RewritePattern):
    """`if(pred) {A} {B}` → `case(convert(not(pred)) to i32) {A} {B}`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IfOp, rewriter: PatternRewriter) -> None:
        negated = NotOp(op.pred)
        index = ConvertOp(negated.results[0], TensorType(i32, []))
        branches = [op.true_branch, op.false_branch]
        case = CaseOp.create(
            operands=[index.results[0]],
            result_types=list(op.outputs.types),
            regions=[Region() for _ in branches],
            attributes=dict(op.attributes),
        )
        for region, branch in zip(case.regions, branches, strict=True):
            branch.move_blocks(region)
        for new in (negated, index, case):
            new.location = op.location
        rewriter.replace(op, [negated, index, case], list(case.results))


@dataclass
class InlineComposite(RewritePattern):
    """A composite → the body of its decomposition function."""

    inlined: set[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CompositeOp, rewriter: PatternRewriter) -> None:
        if op.decomposition is None:
            return
        callee = SymbolTable.lookup_symbol(op, op.decomposition)
        if not isinstance(callee, FuncOp) or len(callee.body.blocks) != 1:
            return
        results = clone_body(callee, op.inputs, rewriter.insert)
        rewriter.replace(op, [], results)
        self.inlined.add(callee.sym_name.data)


@dataclass(frozen=True)
class DecomposePass(ModulePass):
    """Rewrite chlo ops and composites into stablehlo."""

    name = "decompose"

    keep_top_k: bool = False
    """Leave chlo.top_k for the target's own kernel."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inlined: set[str] = set()
        patterns: list[RewritePattern] = [
            DecomposeUnary(),
            DecomposeSquare(),
            DecomposeMulhi(),
            DecomposeScan(),
            DecomposeReducePrecision(),
            InlineMap(),
            BitcastAcrossWidths(),
            DecomposeRaggedDot(),
            IfToCase(),
            InlineComposite(inlined),
        ]
        if not self.keep_top_k:
            patterns.append(DecomposeTopK())
        PatternRewriteWalker(TypedPatternApplier(patterns)).rewrite_module(op)
        erase_dead_private_functions(op, inlined)
