"""Heavy ops the fusion lowering already computes element by element: an
unfused dot_general, convolution, reduce (variadic too: argmax's value/index
pairs), gather, dynamic_slice or iota is lowered as a fusion of that one op.

So the kernel is the same nest a fusion would get (dot: a parallel nest over
the output around a `loop.for` nest over the contracting dims carrying the
accumulator in the result type; convolution: the same around a `loop.for`
nest over the input features of the output feature's group and the window's
taps, `index_maps.convolution`; reduce: a parallel nest over the kept dims
around a `loop.for` nest over the reduced ones, the reducer inlined; gather:
one parallel nest over the output with clamped start indices), and the two
lowerings cannot drift apart.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region
from xlir.dialects.hlo import FusionKind, FusionOp, YieldOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.fusion_to_loop import lower_fusion
from xlir.lowering.scalar import UnsupportedScalarOp

_KINDS = {
    "stablehlo.dot_general": FusionKind.OUTPUT,
    "stablehlo.convolution": FusionKind.OUTPUT,
    "stablehlo.reduce": FusionKind.INPUT,
}


def as_fusion(op: Operation) -> FusionOp:
    """A detached `hlo.fusion` computing a copy of `op` from its operands (it
    uses them: erase it when done)."""
    block = Block(arg_types=op.operand_types)
    clone = op.clone()
    for index, arg in enumerate(block.args):
        clone.operands[index] = arg
    block.add_ops([clone, YieldOp(*clone.results)])
    kind = _KINDS.get(op.name, FusionKind.LOOP)
    return FusionOp(kind, op.operands, op.result_types, Region(block))


def lower_single_op(op: Operation, name: str) -> KernelOp:
    for value in (*op.operands, *op.results):
        if not isinstance(value.type, TensorType):
            raise UnsupportedScalarOp(op, f"on {value.type} is not supported")
    fusion = as_fusion(op)
    try:
        kernel, globals_, problems = lower_fusion(fusion, name)
    finally:
        fusion.erase()
    if problems:
        raise UnsupportedScalarOp(op, "; ".join(reason for _, reason in problems))
    assert not globals_, "a single op's operands are all kernel arguments"
    return kernel


KERNELS = {name: lower_single_op for name in (
    "stablehlo.dot_general",
    "stablehlo.convolution",
    "stablehlo.reduce",
    "stablehlo.gather",
    "stablehlo.dynamic_slice",
    "stablehlo.iota",
)}  # fmt: skip
