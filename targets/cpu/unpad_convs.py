"""`unpad-convs`: convolutions that will call the conv routine read their
input unpadded again, the padded copy `conv-padding` gave them dropped.

`conv-padding` (before `fuse`) writes a padded convolution's input padded
beforehand, so that the inline kernel reads it without a test per tap.
The conv routine reads a padded input itself (conv_routine.py: the rows of
the padded input each group of output rows reads, padded into a window of
its scratch), so for a convolution that calls it the copy is one more pass
over the activations and one more kernel to compile. This pass, run after
`fuse` (which decides which convolutions stay alone), takes a fusion that
is only a zero pad (`conv-padding`'s, or one written in the program) back
into the convolutions that read it, their padding the pad's plus their
own, where every reader is a lone f32 convolution of one group without lhs
dilation whose spatial dims the pad pads (`conv-calls` takes the nest
`hlo-to-loop` then makes: a clamped read selected by its in-bounds test).
A convolution fused with its epilogue keeps its padded input: its kernel
stays inline, where the test would cost it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xlir.dialects.hlo import FusionOp
from xlir.dialects.stablehlo.attributes import ConvDimensionNumbersAttr
from xlir.dialects.stablehlo.contraction import (
    ConvolutionOp,
    padding_attr,
    padding_pairs,
)
from xlir.dialects.stablehlo.data_movement import ConstantOp, PadOp
from xlir.dialects.stablehlo.types import element_type
from xlir.dialects.syntax import array_values

from xlir.walk import walk


def _zero_pad(fusion: FusionOp) -> PadOp | None:
    """The pad a fusion is, where it is only a pad of one of its inputs by
    +0.0 on its edges."""
    ops = list(fusion.block.ops)
    if len(ops) != 3 or len(fusion.outputs) != 1:
        return None
    zero, pad, _ = ops
    if (
        not isinstance(zero, ConstantOp)
        or not isinstance(pad, PadOp)
        or pad.padding_value is not zero.output
        or fusion.yield_op.operands[0] is not pad.result
        or pad.operand.owner is not fusion.block
        or any(array_values(pad.interior_padding))
        or min(array_values(pad.edge_padding_low), default=0) < 0
        or min(array_values(pad.edge_padding_high), default=0) < 0
        or not isinstance(element_type(pad.result.type), Float32Type)
    ):
        return None
    values = zero.value.get_values()
    if len(values) != 1 or not isinstance(values[0], float):
        return None
    if values[0] != 0.0 or math.copysign(1.0, values[0]) < 0:
        return None  # not +0.0: the routine reads +0.0 outside the input
    return pad


def _routine_conv(op: Operation, pad: PadOp, fusion: FusionOp) -> bool:
    """Whether `op` is a lone convolution that reads the fusion as its
    input (not its kernel) and that the pad pads only in its spatial dims."""
    if not isinstance(op, ConvolutionOp) or op.rhs is fusion.outputs[0]:
        return False
    if isinstance(op.parent_op(), FusionOp):
        return False
    dilated = op.lhs_dilation is not None and any(
        d != 1 for d in array_values(op.lhs_dilation)
    )
    if dilated or op.feature_group_count.value.data != 1:
        return False
    if op.batch_group_count.value.data != 1:
        return False
    numbers = op.dimension_numbers
    assert isinstance(numbers, ConvDimensionNumbersAttr)
    spatial = set(numbers.input_spatial_dimensions.data)
    edges = zip(
        array_values(pad.edge_padding_low),
        array_values(pad.edge_padding_high),
        strict=True,
    )
    return all(dim in spatial or edge == (0, 0) for dim, edge in enumerate(edges))


def unpad(fusion: FusionOp, pad: PadOp, convolutions: list[ConvolutionOp]) -> None:
    """Each of `convolutions` reads the pad's input, padded by the pad's
    edges plus its own padding; the fusion erased."""
    block_argument = pad.operand
    source = fusion.inputs[fusion.block.args.index(block_argument)]
    low = array_values(pad.edge_padding_low)
    high = array_values(pad.edge_padding_high)
    for op in convolutions:
        numbers = op.dimension_numbers
        assert isinstance(numbers, ConvDimensionNumbersAttr)
        dims = numbers.input_spatial_dimensions.data
        own = (
            padding_pairs(op.padding)
            if op.padding is not None
            else [(0, 0)] * len(dims)
        )
        pairs = [
            (before + low[dim], after + high[dim])
            for dim, (before, after) in zip(dims, own, strict=True)
        ]
        op.operands = (source, op.rhs)
        op.properties["padding"] = padding_attr(pairs)
    Rewriter.erase_op(fusion)


@dataclass(frozen=True)
class UnpadConvsPass(ModulePass):
    """Lone f32 convolutions read a zero pad's input again (module
    docstring)."""

    name = "unpad-convs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fusion in [f for f in walk(op) if isinstance(f, FusionOp)]:
            pad = _zero_pad(fusion)
            if pad is None:
                continue
            readers = [use.operation for use in fusion.outputs[0].uses]
            if readers and all(_routine_conv(r, pad, fusion) for r in readers):
                convolutions = [r for r in readers if isinstance(r, ConvolutionOp)]
                unpad(fusion, pad, convolutions)
