"""`chlo.scan` as a `stablehlo.while` over the scan dimension, as upstream's
chlo legalization does.

The loop carries a position, the inputs (unchanged, so the body reads
nothing from outside its region), the outputs built so far (zeros at
first) and the carries. Each trip slices every input at the position
(`dynamic_slice`, then a reshape that drops the dimension), runs a copy of
the scan's body on the slices and the carries, and writes each output slice
back at the position (`dynamic_update_slice`); the position runs from 0 up,
or from the end down with `is_reverse`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    LocationAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xlir.dialects.chlo_structured import ScanOp
from xlir.dialects.stablehlo import data_movement as dm
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.control_flow import ReturnOp, WhileOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirection,
)
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.decompositions.emitter import scalar


class _Builder:
    """Appends ops to one block, each with the scan's location."""

    def __init__(self, block: Block, location: LocationAttr):
        self.block = block
        self.location = location

    def add(self, op: Operation) -> SSAValue:
        """Append `op`; its (first) result."""
        op.location = self.location
        self.block.add_op(op)
        return op.results[0]

    def finish(self, values: list[SSAValue]) -> None:
        """End the block with a `stablehlo.return` of `values`."""
        terminator = ReturnOp(values)
        terminator.location = self.location
        self.block.add_op(terminator)

    def scalar(self, value: int, element: Attribute = i64) -> SSAValue:
        return self.add(dm.ConstantOp(scalar(element, value)))

    def zeros(self, type_: TensorType) -> SSAValue:
        zero = self.scalar(0, element_type(type_))
        return self.add(dm.BroadcastInDimOp(zero, [], type_))


def can_decompose(op: ScanOp) -> bool:
    """Outputs of integer or float elements (the loop starts them at zero)."""
    return all(
        isinstance(element_type(r.type), IntegerType | AnyFloat) for r in op.results
    )


def scan_as_while(op: ScanOp) -> tuple[list[Operation], Sequence[SSAValue]]:
    """The ops that replace `op` (constants, zeros and the loop), and the
    values that replace its results."""
    insert = _Builder(Block(), op.location)
    dimension = op.dimension.value.data
    reverse = op.is_reverse is not None and op.is_reverse.value.data
    inputs, inits = list(op.inputs), list(op.inits)
    outputs = len(op.results) - len(inits)
    output_types = [r.type for r in op.results[:outputs]]
    length = shape(inputs[0].type)[dimension]
    start = insert.scalar(length - 1 if reverse else 0)
    zeros = [insert.zeros(t) for t in output_types]  # type: ignore[arg-type]
    carried = [start, *inputs, *zeros, *inits]
    types = [v.type for v in carried]

    cond = Block(arg_types=types)
    c = _Builder(cond, insert.location)
    position = cond.args[0]
    if reverse:
        more = ew.CompareOp(position, c.scalar(0), ComparisonDirection.GE, None)
    else:
        more = ew.CompareOp(position, c.scalar(length), ComparisonDirection.LT, None)
    c.finish([c.add(more)])

    body = Block(arg_types=types)
    b = _Builder(body, insert.location)
    position, rest = body.args[0], list(body.args[1:])
    xs, built, state = (
        rest[: len(inputs)],
        rest[len(inputs) : len(inputs) + outputs],
        rest[len(inputs) + outputs :],
    )
    slices = [_slice(b, x, position, dimension) for x in xs]
    results = _run_body(op, b, [*slices, *state])
    updated = [
        _update(b, whole, part, position, dimension)
        for whole, part in zip(built, results[:outputs], strict=True)
    ]
    step = b.scalar(-1 if reverse else 1)
    following = b.add(ew.AddOp(position, step))
    b.finish([following, *xs, *updated, *results[outputs:]])

    loop = WhileOp(carried, Region(cond), Region(body))
    insert.add(loop)
    ops = list(insert.block.ops)
    for new in ops:
        new.detach()
    final = loop.results[1 + len(inputs) :]
    return ops, final


def _starts(
    b: _Builder, position: SSAValue, rank: int, dimension: int
) -> list[SSAValue]:
    zero = b.scalar(0)
    return [position if d == dimension else zero for d in range(rank)]


def _slice(b: _Builder, x: SSAValue, position: SSAValue, dimension: int) -> SSAValue:
    """x at `position` along `dimension`, that dimension dropped."""
    sizes = list(shape(x.type))
    sizes[dimension] = 1
    starts = _starts(b, position, len(sizes), dimension)
    sliced = b.add(dm.DynamicSliceOp(x, starts, sizes))
    kept = sizes[:dimension] + sizes[dimension + 1 :]
    return b.add(dm.ReshapeOp(sliced, TensorType(element_type(x.type), kept)))


def _update(
    b: _Builder, whole: SSAValue, part: SSAValue, position: SSAValue, dimension: int
) -> SSAValue:
    """`whole` with `part` written at `position` along `dimension`."""
    sizes = list(shape(part.type))
    sizes.insert(dimension, 1)
    widened = b.add(dm.ReshapeOp(part, TensorType(element_type(part.type), sizes)))
    starts = _starts(b, position, len(sizes), dimension)
    return b.add(dm.DynamicUpdateSliceOp(whole, widened, starts))


def _run_body(op: ScanOp, b: _Builder, arguments: list[SSAValue]) -> list[SSAValue]:
    """A copy of the scan's body on `arguments`; what it returns."""
    block = op.body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, arguments, strict=True))
    for inner in block.ops:
        if isinstance(inner, ReturnOp):
            return [mapping.get(v, v) for v in inner.operands]
        b.block.add_op(inner.clone(value_mapper=mapping))
    raise AssertionError("the scan body ends in stablehlo.return (verified)")
