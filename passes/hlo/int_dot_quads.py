"""`int-dot-quads`: an int8 dot as a dot of byte quads, the layout of x86's
byte dot product instruction (VNNI `vpdpbusd`: per i32 lane, four u8 x s8
products added to the lane).

The cpu pipeline runs it where the host has that instruction
(`TargetInfo.byte_dot_bits`). A dot of a signed or unsigned 8-bit lhs and a
signed 8-bit rhs into i32, contracting one dim of each whose extent is a
multiple of 4 (unbatched, at least `MIN_ROWS` lhs rows and `MIN_COLUMNS` rhs
columns, so a register tile fills), gets

* its lhs with the contracted dim last, split into `[k / 4, 4]`, as u8: a
  signed lhs plus 128 (`xor 0x80`, bitcast to ui8), as `vpdpbusd`'s first
  operand must be unsigned;
* its rhs split likewise and transposed to `[k / 4, columns..., 4]`: the four
  consecutive k of one column lie together, one i32 lane's worth;
* the dot contracting both `k / 4` and the trailing 4, which `dot-quads`
  (passes/loop/dot_quads.py) turns into one `arith.dot_quads` per quad, and
  `register-tile` into register tiles of them;
* with a signed lhs, `128 * colsum(rhs)` subtracted, a dot of the rhs with a
  vector of 128s: `(a + 128) . b - 128 . b = a . b`.

Every step is a StableHLO op with its usual meaning, and i32 sums wrap, so
the result is the original dot's bit for bit whatever the magnitudes.

    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
        : (tensor<512x1024xi8>, tensor<1024x1024xi8>) -> tensor<512x1024xi32>

becomes (abridged)

    %au = stablehlo.reshape (bitcast_convert (xor %a, -128)) : tensor<512x256x4xui8>
    %bq = stablehlo.transpose (reshape %b : tensor<256x4x1024xi8>), dims = [0, 2, 1]
    %q = stablehlo.dot_general %au, %bq, contracting_dims = [1, 2] x [0, 2]
    %c = stablehlo.dot_general %128s, %b, contracting_dims = [0] x [0]
    %d = stablehlo.subtract %q, (broadcast_in_dim %c, dims = [1])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness, TensorType, i8, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import (
    DotDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import DotGeneralOp
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ReshapeOp,
    TransposeOp,
)
from xlir.dialects.stablehlo.elementwise import (
    AddOp,
    BitcastConvertOp,
    ConvertOp,
    MultiplyOp,
    SubtractOp,
    XorOp,
)
from xlir.dialects.stablehlo.reduction import ReduceOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.simplify_patterns.constants import splat_ops

from xlir.rewriting import PatternRewriteWalker

ui8 = IntegerType(8, Signedness.UNSIGNED)

BYTE_PAIRS = ((i8, i8), (ui8, i8), (i8, ui8))
"""(lhs, rhs) element types it rewrites: one of the two must be, or become,
`vpdpbusd`'s unsigned operand."""

MIN_ROWS = 4
"""The fewest lhs rows (its free extent) worth the packing."""
MIN_COLUMNS = 16
"""The fewest rhs columns (its free extent): one vector of i32 lanes."""


def is_byte_quad_dot(op: DotGeneralOp) -> bool:
    """Whether the dot is one this pass made: quads of u8 and s8 (either way
    round) contracted along both operands' trailing dims of 4
    (`int-dot-in-f32` and `dot-layout` leave it as it is)."""
    dims = op.dot_dimension_numbers
    lhs_c = dims.lhs_contracting_dimensions.data
    rhs_c = dims.rhs_contracting_dimensions.data
    lhs_shape, rhs_shape = shape(op.lhs.type), shape(op.rhs.type)
    return (
        {element_type(op.lhs.type), element_type(op.rhs.type)} == {ui8, i8}
        and bool(lhs_c)
        and bool(rhs_c)
        and lhs_c[-1] == len(lhs_shape) - 1
        and rhs_c[-1] == len(rhs_shape) - 1
        and lhs_shape[-1] == rhs_shape[-1] == 4
    )


def _quads_apply(op: DotGeneralOp) -> bool:
    """Whether the dot qualifies (module docstring)."""
    dims = op.dot_dimension_numbers
    if dims.lhs_batching_dimensions.data or is_byte_quad_dot(op):
        return False
    types = (element_type(op.lhs.type), element_type(op.rhs.type))
    if element_type(op.result.type) != i32 or types not in BYTE_PAIRS:
        return False
    lhs_cs = dims.lhs_contracting_dimensions.data
    rhs_cs = dims.rhs_contracting_dimensions.data
    if len(lhs_cs) != 1 or len(rhs_cs) != 1:
        return False
    (lhs_c,), (rhs_c,) = lhs_cs, rhs_cs
    lhs_shape, rhs_shape = shape(op.lhs.type), shape(op.rhs.type)
    rows = math.prod(n for d, n in enumerate(lhs_shape) if d != lhs_c)
    columns = math.prod(n for d, n in enumerate(rhs_shape) if d != rhs_c)
    return (
        lhs_shape[lhs_c] % 4 == 0
        and lhs_shape[lhs_c] > 0
        and rows >= MIN_ROWS
        and columns >= MIN_COLUMNS
    )


class DotOfQuads(RewritePattern):
    """A qualifying int8 dot_general → a dot of byte quads (module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        if not _quads_apply(op):
            return
        dims = op.dot_dimension_numbers
        (lhs_c,) = dims.lhs_contracting_dimensions.data
        (rhs_c,) = dims.rhs_contracting_dimensions.data
        lhs_shape, rhs_shape = shape(op.lhs.type), shape(op.rhs.type)
        k = lhs_shape[lhs_c]
        made: list[Operation] = []

        def add(new: Operation) -> SSAValue:
            new.location = op.location
            made.append(new)
            return new.results[0]

        def splat(type_: TensorType, value: int) -> SSAValue:
            dtype = np.int8 if element_type(type_) == i8 else np.int32
            for new in splat_ops(type_, np.asarray(value, dtype)):
                add(new)
            return made[-1].results[0]

        lhs_element = element_type(op.lhs.type)
        offset = lhs_element == element_type(op.rhs.type) == i8
        rows = [d for d in range(len(lhs_shape)) if d != lhs_c]
        row_shape = [lhs_shape[d] for d in rows]
        lhs = op.lhs
        if lhs_c != len(lhs_shape) - 1:
            lhs = add(TransposeOp(lhs, [*rows, lhs_c]))
        rows_last = lhs
        lhs = add(ReshapeOp(lhs, TensorType(lhs_element, [*row_shape, k // 4, 4])))

        rhs = op.rhs
        if offset:
            flipped = add(XorOp(rhs, splat(TensorType(i8, rhs_shape), -128)))
            rhs = add(BitcastConvertOp(flipped, TensorType(ui8, rhs_shape)))
        split = [*rhs_shape[:rhs_c], k // 4, 4, *rhs_shape[rhs_c + 1 :]]
        rhs = add(ReshapeOp(rhs, TensorType(element_type(rhs.type), split)))
        columns = [d for d in range(len(split)) if d not in (rhs_c, rhs_c + 1)]
        rhs = add(TransposeOp(rhs, [rhs_c, *columns, rhs_c + 1]))

        rank = len(row_shape)
        numbers = DotDimensionNumbersAttr.get(
            (), (), (rank, rank + 1), (0, len(columns) + 1)
        )
        result = add(
            DotGeneralOp(lhs, rhs, numbers, op.precision_config, op.result.type)
        )
        if offset:
            wide = add(ConvertOp(rows_last, TensorType(i32, [*row_shape, k])))
            element = TensorType(i32, [])
            body = Block(arg_types=[element, element])
            total = AddOp(body.args[0], body.args[1])
            body.add_ops([total, ReturnOp([total.result])])
            zero = splat(element, 0)
            sums = add(ReduceOp([wide], [zero], [rank], Region(body)))
            row_type = TensorType(i32, row_shape)
            scaled = add(MultiplyOp(sums, splat(row_type, 128)))
            spread = add(BroadcastInDimOp(scaled, range(rank), op.result.type))
            result = add(SubtractOp(result, spread))
        rewriter.replace(op, made, [result])


@dataclass(frozen=True)
class IntDotQuadsPass(ModulePass):
    """int8 dots as dots of byte quads (module docstring)."""

    name = "int-dot-quads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DotOfQuads(), apply_recursively=False).rewrite_module(op)
