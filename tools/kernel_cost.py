"""Bytes and floating-point operations of an HLO-level kernel (a fusion, or
an op left unfused), for the achieved GB/s and GFLOP/s of `xlir-run
--profile`, counted as XLA's cost analysis does.

* bytes: each distinct operand and result of the kernel once, the traffic
  of a kernel that reads its inputs and writes its outputs one time each;
* FLOPs: one per result element of an elementwise op (math, compare,
  select; not convert or bitcast_convert), two per multiply-add of a
  `dot_general`, `dot` or `convolution`, one per input element and op of a
  reducer for `reduce` and per window element for `reduce_window`; data
  movement counts none. A kernel with control flow (`while`, `if`, `case`)
  runs its body a number of times known only at run time: its FLOPs are
  unknown (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.dialects.hlo import FusionOp
from xlir.dialects.stablehlo.contraction import ConvolutionOp, DotGeneralOp, DotOp
from xlir.dialects.stablehlo.elementwise import (
    ELEMENTWISE_OPS,
    BitcastConvertOp,
    ConvertOp,
)
from xlir.dialects.stablehlo.reduction import ReduceOp, ReduceWindowOp

from xlir.element_dtypes import array_dtype

ARITHMETIC = tuple(
    op for op in ELEMENTWISE_OPS if op not in (ConvertOp, BitcastConvertOp)
)
CONTROL_FLOW = {"stablehlo.while", "stablehlo.if", "stablehlo.case"}
TERMINATORS = {"hlo.yield", "stablehlo.return", "func.return"}


@dataclass(frozen=True)
class Cost:
    bytes: int
    flops: int | None


def kernel_cost(op: Operation) -> Cost:
    """The bytes the kernel moves and the FLOPs it computes."""
    values: dict[SSAValue, None] = dict.fromkeys((*op.operands, *op.results))
    size = sum(_bytes(v.type) for v in values)
    body = list(op.regions[0].block.ops) if isinstance(op, FusionOp) else [op]
    flops: int | None = 0
    for inner in body:
        count = op_flops(inner)
        flops = None if flops is None or count is None else flops + count
    return Cost(size, flops)


def op_flops(op: Operation) -> int | None:
    """FLOPs of one op (None where they depend on run-time trip counts)."""
    if op.name in CONTROL_FLOW:
        return None
    if isinstance(op, ARITHMETIC):
        return _elements(op.results[0].type)
    if isinstance(op, DotGeneralOp):
        numbers = op.dot_dimension_numbers
        shape = _shape(op.lhs.type)
        depth = prod(shape[d] for d in numbers.lhs_contracting_dimensions.data)
        return 2 * _elements(op.result.type) * depth
    if isinstance(op, DotOp):
        return 2 * _elements(op.result.type) * _shape(op.lhs.type)[-1]
    if isinstance(op, ConvolutionOp):
        kernel = _shape(op.rhs.type)
        features = kernel[op.dimension_numbers.kernel_output_feature]
        return 2 * _elements(op.results[0].type) * (prod(kernel) // max(features, 1))
    if isinstance(op, ReduceOp):
        return _elements(op.inputs[0].type) * _reducer_ops(op)
    if isinstance(op, ReduceWindowOp):
        window = prod(op.window_dimensions.get_values())
        return _elements(op.outputs[0].type) * window * _reducer_ops(op)
    return 0


def _reducer_ops(op: Operation) -> int:
    return sum(o.name not in TERMINATORS for o in op.regions[0].block.ops)


def _shape(type_: Attribute) -> tuple[int, ...]:
    assert isinstance(type_, TensorType)
    return tuple(type_.get_shape())


def _elements(type_: Attribute) -> int:
    return prod(_shape(type_)) if isinstance(type_, TensorType) else 1


def _bytes(type_: Attribute) -> int:
    if not isinstance(type_, TensorType):
        return 0
    dtype = array_dtype(type_.get_element_type())
    return _elements(type_) * (dtype.itemsize if dtype is not None else 0)
