"""`conv-padding`: give a padded convolution an explicitly padded input, a
CPU layout choice in the spirit of XLA's convolution canonicalization.

The convolution's loop nest (`lowering/fusion_to_loop.py`) reads a tap that
falls in the padding as zero: it clamps the load in bounds and selects,
for every tap of every output element, inside the register tile's
innermost loop (a 3x3 conv with padding 1 on a 32x32x16 input spent as
many ops on those tests as on its multiply-adds). This pass writes such a
convolution as a `stablehlo.pad` of its input by its padding (zeros)
followed by the same convolution without padding, whose taps then all land
on elements the shapes prove in bounds, so the kernel has no test. Every
output element adds the same products in the same order (a padded tap
still adds lhs 0 times the weight), so the bits are the same. The pad is one
pass over the input against the convolution's many reads of each element;
`fuse` keeps it out of the convolution's fusion (a contraction's operands
are materialized, `contraction-operand`), so it becomes its own kernel,
fused with the elementwise ops that produce the input.

A convolution with lhs (base) dilation is left alone: its explicit form
would be a dilated input of mostly zeros.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import (
    ConvDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import ConvolutionOp, padding_pairs
from xlir.dialects.stablehlo.data_movement import ConstantOp, PadOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.dialects.syntax import array_values
from xlir.passes.hlo.simplify_patterns.constants import dense_from_numpy

from xlir.rewriting import PatternRewriteWalker


class PadConvolutionInput(RewritePattern):
    """convolution(x, w) with padding → convolution(pad(x, 0), w)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvolutionOp, rewriter: PatternRewriter) -> None:
        dilated = op.lhs_dilation is not None and any(
            d != 1 for d in array_values(op.lhs_dilation)
        )
        if op.padding is None or dilated:
            return
        padding = padding_pairs(op.padding)
        if all(pair == (0, 0) for pair in padding):
            return
        numbers = op.dimension_numbers
        assert isinstance(numbers, ConvDimensionNumbersAttr)
        spatial = numbers.input_spatial_dimensions.data
        rank = len(shape(op.lhs.type))
        low, high = [0] * rank, [0] * rank
        for dim, (before, after) in zip(spatial, padding, strict=True):
            low[dim], high[dim] = before, after
        zero_type = TensorType(element_type(op.lhs.type), [])
        zero = ConstantOp(dense_from_numpy(np.zeros(()), zero_type))
        pad = PadOp(op.lhs, zero.output, low, high, [0] * rank)
        convolution = op.clone()
        convolution.operands = (pad.result, op.rhs)
        del convolution.properties["padding"]
        for new in (zero, pad, convolution):
            new.location = op.location
        rewriter.replace(op, [zero, pad, convolution], [convolution.result])


@dataclass(frozen=True)
class ConvPaddingPass(ModulePass):
    name = "conv-padding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            PadConvolutionInput(), apply_recursively=False
        ).rewrite_module(op)
