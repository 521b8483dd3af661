"""`stablehlo.convolution` as one kernel: a `loop.parallel` over the output
around a `loop.for` nest over the kernel's input features and window taps,
carrying the accumulator.

Every dimension number is honoured (`index_maps.convolution`, which a
convolution inside an output fusion shares). A tap that falls
in the padding or between dilated input elements reads zero: the load is
clamped in bounds and a select replaces it, and the test is left out where
the shapes prove every tap of a dimension lands on an input element.
Half-precision results accumulate in f32.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.contraction import ConvolutionOp
from xlir.lowering.fusion_to_loop import accumulator_type
from xlir.lowering.index_maps import Indices, convolution, convolution_loops, shape
from xlir.lowering.kernels.common import (
    KernelBuilder,
    cast,
    multiply_add,
)
from xlir.lowering.scalar import is_unsigned, scalar_type


def lower_convolution(op: ConvolutionOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    lhs, rhs = kb.inputs
    (out,) = kb.outputs
    result_type = scalar_type(op.result.type)
    acc_type = accumulator_type(result_type, scalar_type(op.lhs.type))
    zero = kb.const(0, acc_type)
    lhs_zero = kb.const(0, scalar_type(op.lhs.type))

    def element(idx: Indices) -> None:
        def body(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            x_idx, w_idx, inside = convolution(op, idx, ivs, kb.ix)
            x = kb.load(lhs, x_idx)
            if inside is not None:
                x = kb.place(arith.SelectOp(inside, x, lhs_zero))
            return [multiply_add(kb, accs[0], x, kb.load(rhs, w_idx))]

        (acc,) = kb.nest.for_nest(convolution_loops(op), [zero], body)
        kb.store(cast(kb, acc, result_type, is_unsigned(op.result.type)), out, idx)

    kb.parallel(shape(op.result), element)
    return kb.finish()


KERNELS = {"stablehlo.convolution": lower_convolution}
