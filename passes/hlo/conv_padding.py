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

Convolutions of one input (with the same spatial dims) share one pad, by the largest padding of each
side among them; each keeps the rest of its padding, which is then zero or
negative (it starts later or ends earlier in the padded input, which needs
no test either). `subpixel-conv`'s phases are such convolutions. A
convolution whose padding is nowhere positive is left alone, and so is one
with lhs (base) dilation: its explicit form would be a dilated input of
mostly zeros.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.dialects.stablehlo.attributes import ConvDimensionNumbersAttr
from xlir.dialects.stablehlo.contraction import (
    ConvolutionOp,
    padding_attr,
    padding_pairs,
)
from xlir.dialects.stablehlo.data_movement import ConstantOp, PadOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.dialects.syntax import array_values
from xlir.passes.hlo.simplify_patterns.constants import dense_from_numpy

from xlir.walk import walk


def _padded(op: ConvolutionOp) -> bool:
    """Whether the convolution pads its input somewhere and has no lhs
    dilation."""
    dilated = op.lhs_dilation is not None and any(
        d != 1 for d in array_values(op.lhs_dilation)
    )
    if op.padding is None or dilated:
        return False
    return any(edge > 0 for pair in padding_pairs(op.padding) for edge in pair)


def _spatial(op: ConvolutionOp) -> tuple[int, ...]:
    numbers = op.dimension_numbers
    assert isinstance(numbers, ConvDimensionNumbersAttr)
    return numbers.input_spatial_dimensions.data


def pad_inputs(convolutions: list[ConvolutionOp]) -> None:
    """convolution(x, w) with padding, for each of `convolutions` (one
    input with the same spatial dims, one block, in program order) →
    convolution(pad(x, 0), w) with the padding left over."""
    first = convolutions[0]
    rank = len(shape(first.lhs.type))
    low, high = [0] * rank, [0] * rank
    for op in convolutions:
        assert op.padding is not None
        for dim, (before, after) in zip(
            _spatial(op), padding_pairs(op.padding), strict=True
        ):
            low[dim], high[dim] = max(low[dim], before), max(high[dim], after)
    zero_type = TensorType(element_type(first.lhs.type), [])
    zero = ConstantOp(dense_from_numpy(np.zeros(()), zero_type))
    pad = PadOp(first.lhs, zero.output, low, high, [0] * rank)
    for new in (zero, pad):
        new.location = first.location
    Rewriter.insert_op([zero, pad], InsertPoint.before(first))
    for op in convolutions:
        assert op.padding is not None
        rest = [
            (before - low[dim], after - high[dim])
            for dim, (before, after) in zip(
                _spatial(op), padding_pairs(op.padding), strict=True
            )
        ]
        op.operands = (pad.result, op.rhs)
        if any(pair != (0, 0) for pair in rest):
            op.properties["padding"] = padding_attr(rest)
        else:
            del op.properties["padding"]


@dataclass(frozen=True)
class ConvPaddingPass(ModulePass):
    name = "conv-padding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        groups: dict[
            tuple[SSAValue, Block | None, tuple[int, ...]], list[ConvolutionOp]
        ] = {}
        for inner in walk(op):
            if isinstance(inner, ConvolutionOp) and _padded(inner):
                key = (inner.lhs, inner.parent_block(), tuple(sorted(_spatial(inner))))
                groups.setdefault(key, []).append(inner)
        for convolutions in groups.values():
            pad_inputs(convolutions)
