"""`stablehlo.reduce_window` (variadic too) as one kernel: a `loop.parallel`
over the output around a `loop.for` nest over the window's taps, carrying
one accumulator per input, initialized with the init values, the reducer
inlined.

A tap that falls in the padding or in a hole of the base dilation reads the
init value (the reference pads with it), so the reducer still runs once per
tap; the load is clamped in bounds and a select picks the init value.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import ReduceWindowOp
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import (
    KernelBuilder,
    int_list,
    padding_pairs,
    window_tap,
)


def lower_reduce_window(op: ReduceWindowOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    count = len(op.inputs)
    inputs, init_buffers = kb.inputs[:count], kb.inputs[count:]
    in_shape, out_shape = shape(op.inputs[0]), shape(op.outputs[0])
    rank = len(in_shape)
    window = int_list(op.window_dimensions, [])
    strides = int_list(op.window_strides, [1] * rank)
    base_dilations = int_list(op.base_dilations, [1] * rank)
    window_dilations = int_list(op.window_dilations, [1] * rank)
    padding = padding_pairs(op.padding, rank)
    inits = [kb.load(buffer, []) for buffer in init_buffers]
    block = op.body.block
    assert block is not None

    def element(idx: Indices) -> None:
        def body(taps: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            inside: SSAValue | None = None
            at: Indices = []
            for d in range(rank):
                position, inside = window_tap(
                    kb,
                    idx[d],
                    taps[d],
                    (window[d], strides[d], window_dilations[d], padding[d][0]),
                    (in_shape[d], base_dilations[d]),
                    out_shape[d],
                    inside,
                )
                at.append(position)
            values = [kb.load(buffer, at) for buffer in inputs]
            if inside is not None:
                values = [
                    kb.place(arith.SelectOp(inside, v, init))
                    for v, init in zip(values, inits, strict=True)
                ]
            return kb.inline(block, [*accs, *values])

        results = kb.nest.for_nest(window, inits, body)
        for result, buffer in zip(results, kb.outputs, strict=True):
            kb.store(result, buffer, idx)

    kb.parallel(out_shape, element)
    return kb.finish()


KERNELS = {"stablehlo.reduce_window": lower_reduce_window}
