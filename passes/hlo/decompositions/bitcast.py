"""`stablehlo.bitcast_convert` between element types of different widths as
same-width bitcasts, shifts and an `or` reduction, so that targets only
reinterpret bits of one width.

The narrower elements are the pieces of the wider one along the last
dimension, the first piece in the lowest bits (little-endian, as upstream):
`tensor<...xNxS>` of `w`-bit elements makes `tensor<...xT>` of `N*w` bits.
Going wide, each piece is zero-extended to the wide unsigned type, shifted
left by `i*w` (`i` its position, an iota) and the pieces or-ed together;
going narrow, the wide bits are broadcast along a new last dimension,
shifted right by `i*w` and masked. An `i1` piece is one bit: 1 for true.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    Signedness,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConstantOp,
    IotaOp,
)
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.dialects.stablehlo.reduction import ReduceOp
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.decompositions.emitter import Emitter, scalar


def _width(element: Attribute) -> int | None:
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, AnyFloat):
        return element.bitwidth
    return None


def changes_width(op: ew.BitcastConvertOp) -> bool:
    """A bitcast between integer or float types of different widths."""
    source = _width(element_type(op.operand.type))
    target = _width(element_type(op.result.type))
    return source is not None and target is not None and source != target


def _unsigned(width: int) -> IntegerType:
    return IntegerType(width, Signedness.UNSIGNED)


def _as_unsigned(e: Emitter, x: SSAValue, wide: IntegerType) -> SSAValue:
    """The bits of each element of `x`, zero-extended to `wide`."""
    element = element_type(x.type)
    if element == i1:
        return e.convert(x, wide)
    own = _unsigned(_width(element))  # type: ignore[arg-type]
    if element != own:
        x = e.emit(ew.BitcastConvertOp(x, e.tensor(own)))
    return e.convert(x, wide)


def _from_unsigned(e: Emitter, bits: SSAValue, element: Attribute) -> SSAValue:
    """Bits held in an unsigned type of `element`'s width (or in a wider
    one, masked, for `i1`) as `element`."""
    if element == i1:
        zero = e.const(0, element_type(bits.type))
        return e.compare(ComparisonDirection.NE, bits, zero)
    own = _unsigned(_width(element))  # type: ignore[arg-type]
    bits = e.convert(bits, own)
    if element == own:
        return bits
    return e.emit(ew.BitcastConvertOp(bits, e.tensor(element)))


def _positions(e: Emitter, piece_bits: int, wide: IntegerType) -> SSAValue:
    """`i * piece_bits` along the last dimension of the emitter's shape."""
    index = e.emit(IotaOp(len(e.shape) - 1, e.tensor(wide)))
    return e.mul(index, e.const(piece_bits, wide))


def _emitter(rewriter: PatternRewriter, op: Operation, type_: Attribute) -> Emitter:
    """An emitter before `op` for values of `type_`'s shape."""
    e = Emitter(rewriter, op, element_type(type_))
    e.shape = shape(type_)
    return e


def bitcast_across_widths(
    rewriter: PatternRewriter, op: ew.BitcastConvertOp
) -> SSAValue:
    source_bits = _width(element_type(op.operand.type))
    target_bits = _width(element_type(op.result.type))
    assert source_bits is not None and target_bits is not None
    if source_bits < target_bits:
        return _merge(rewriter, op, source_bits, target_bits)
    return _split(rewriter, op, source_bits, target_bits)


def _merge(
    rewriter: PatternRewriter, op: ew.BitcastConvertOp, piece: int, whole: int
) -> SSAValue:
    """Pieces along the last dimension into one wide element."""
    wide = _unsigned(whole)
    pieces = _emitter(rewriter, op, op.operand.type)
    parts = _as_unsigned(pieces, op.operand, wide)
    shifted = pieces.emit(ew.ShiftLeftOp(parts, _positions(pieces, piece, wide)))
    element = TensorType(wide, [])
    body = Block(arg_types=[element, element])
    combined = ew.OrOp(body.args[0], body.args[1])
    body.add_ops([combined, ReturnOp([combined.results[0]])])
    zero = pieces.emit(ConstantOp(scalar(wide, 0)))
    last = len(pieces.shape) - 1
    merged = pieces.emit(ReduceOp([shifted], [zero], [last], Region(body)))
    target = element_type(op.result.type)
    return _from_unsigned(_emitter(rewriter, op, op.result.type), merged, target)


def _split(
    rewriter: PatternRewriter, op: ew.BitcastConvertOp, whole: int, piece: int
) -> SSAValue:
    """One wide element into pieces along a new last dimension."""
    wide = _unsigned(whole)
    whole_values = _emitter(rewriter, op, op.operand.type)
    bits = _as_unsigned(whole_values, op.operand, wide)
    pieces = _emitter(rewriter, op, op.result.type)
    kept = list(range(len(whole_values.shape)))
    spread = pieces.emit(BroadcastInDimOp(bits, kept, pieces.tensor(wide)))
    shifted = pieces.emit(
        ew.ShiftRightLogicalOp(spread, _positions(pieces, piece, wide))
    )
    masked = pieces.and_(shifted, pieces.const((1 << piece) - 1, wide))
    return _from_unsigned(pieces, masked, element_type(op.result.type))
