"""Chains of reshape, transpose and broadcast_in_dim folded into one op, and
ops that leave their operand as it is (reshape, transpose, convert,
broadcast_in_dim, reverse) removed; an element of a tuple built in the
program is the value it was built from (so tuples that only carry values
from one op to another go, as XLA's simplifier does); a dynamic-shape op
whose shapes are known is its static op (as upstream's canonicalizer does).

A broadcast of a splat constant becomes a constant only when the result is
small (`MAX_SPLAT_ELEMENTS`): a big one stays a broadcast, which fusion
absorbs for free.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.control_flow import GetTupleElementOp, TupleOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ReshapeOp,
    ReverseOp,
    TransposeOp,
)
from xlir.dialects.stablehlo.elementwise import ConvertOp
from xlir.dialects.stablehlo.shape_rules import ShapeError
from xlir.dialects.stablehlo.types import shape
from xlir.passes.hlo.refine_shapes.static_forms import STATIC_FORMS
from xlir.passes.hlo.simplify_patterns.constants import (
    MAX_SPLAT_ELEMENTS,
    splat_ops,
    splat_scalar,
)


class TransposeOfTranspose(RewritePattern):
    """transpose(transpose(x, p), q) → transpose(x, [p[i] for i in q]), or x
    when that is the identity; a lone identity transpose → x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        source, permutation = op.operand, op.dims
        inner = source.owner
        if isinstance(inner, TransposeOp):
            source = inner.operand
            permutation = tuple(inner.dims[i] for i in permutation)
        if permutation == tuple(range(len(permutation))):
            rewriter.replace(op, (), (source,))
        elif source is not op.operand:
            rewriter.replace(op, TransposeOp(source, permutation))


class ReshapeOfReshape(RewritePattern):
    """reshape(reshape(x)) → reshape(x); a reshape to the operand's own type → x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter) -> None:
        source = op.operand
        if isinstance(source.owner, ReshapeOp):
            source = source.owner.operand
        if source.type == op.result.type:
            rewriter.replace(op, (), (source,))
        elif source is not op.operand:
            rewriter.replace(op, ReshapeOp(source, op.result.type))


class BroadcastOfBroadcast(RewritePattern):
    """broadcast_in_dim(broadcast_in_dim(x, d), e) → broadcast_in_dim(x, e∘d):
    operand dim i lands in result dim e[d[i]], and each step's size rule
    (1 or equal) composes. An identity broadcast (same type, dims 0..n-1) → x;
    dims that permute are a transpose, and stay."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: BroadcastInDimOp, rewriter: PatternRewriter
    ) -> None:
        source, dims = op.operand, op.dims
        inner = source.owner
        if isinstance(inner, BroadcastInDimOp):
            source = inner.operand
            dims = tuple(dims[d] for d in inner.dims)
        if source.type == op.result.type and dims == tuple(range(len(dims))):
            rewriter.replace(op, (), (source,))
        elif source is not op.operand:
            rewriter.replace(op, BroadcastInDimOp(source, dims, op.result.type))


class BroadcastOfSplat(RewritePattern):
    """broadcast_in_dim(splat c) → splat c, when the result is small (checked
    first: reading the constant and building its splat cost more than the
    rest of `simplify` on a program of large broadcasts)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: BroadcastInDimOp, rewriter: PatternRewriter
    ) -> None:
        if prod(shape(op.result.type)) > MAX_SPLAT_ELEMENTS:
            return
        scalar = splat_scalar(op.operand)
        if scalar is not None:
            rewriter.replace(op, splat_ops(op.result.type, scalar))


class RemoveNoOp(RewritePattern):
    """convert to the same type → x; reverse along no dim of size > 1 → x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ConvertOp | ReverseOp, rewriter: PatternRewriter
    ) -> None:
        if op.operand.type != op.result.type:
            return
        if isinstance(op, ReverseOp) and any(
            shape(op.operand.type)[d] > 1 for d in op.dims
        ):
            return
        rewriter.replace(op, (), (op.operand,))


class ElementOfTuple(RewritePattern):
    """get_tuple_element(tuple(v0, v1, ...))[i] → vi."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: GetTupleElementOp, rewriter: PatternRewriter
    ) -> None:
        built = op.operand.owner
        if isinstance(built, TupleOp):
            rewriter.replace(op, [], [built.val[op.index.value.data]])


class StaticForm(RewritePattern):
    """A dynamic-shape op whose results are static and whose shape operands
    are constants → its static form (`refine-shapes`' table: dynamic_reshape
    → reshape, ...; get_dimension_size of a static dimension → a
    constant)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        make = STATIC_FORMS.get(op.name)
        if make is None or not all(_static(r.type) for r in op.results):
            return
        try:
            static = make(op)
        except ShapeError:
            return  # amounts that make no shape: left for the verifier
        if static is None or static.result_types != op.result_types:
            return
        static.attributes.update(op.attributes)
        rewriter.replace(op, static)


def _static(type_: Attribute) -> bool:
    return isinstance(type_, TensorType) and type_.has_static_shape()


def shape_chain_patterns() -> list[RewritePattern]:
    return [
        StaticForm(),
        ElementOfTuple(),
        TransposeOfTranspose(),
        ReshapeOfReshape(),
        BroadcastOfBroadcast(),
        BroadcastOfSplat(),
        RemoveNoOp(),
    ]
