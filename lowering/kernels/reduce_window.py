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
from xlir.lowering import index_maps as maps
from xlir.lowering.index_maps import Indices, int_list, shape
from xlir.lowering.kernels.common import KernelBuilder


def lower_reduce_window(op: ReduceWindowOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    count = len(op.inputs)
    inputs, init_buffers = kb.inputs[:count], kb.inputs[count:]
    window = int_list(op.window_dimensions, [])
    inits = [kb.load(buffer, []) for buffer in init_buffers]
    block = op.body.block
    assert block is not None

    def element(idx: Indices) -> None:
        def body(taps: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            at, inside = maps.reduce_window(op, idx, taps, kb.ix)
            if 0 in shape(op.inputs[0]):  # every tap is padding: nothing to load
                return kb.inline(block, [*accs, *inits])
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

    kb.parallel(shape(op.outputs[0]), element)
    return kb.finish()


KERNELS = {"stablehlo.reduce_window": lower_reduce_window}
