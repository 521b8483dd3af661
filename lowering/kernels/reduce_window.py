"""`stablehlo.reduce_window` (variadic too) as one kernel: a `loop.parallel`
over the output around a `loop.for` nest over the window's taps, carrying
one accumulator per input, initialized with the init values, the reducer
inlined.

A tap that falls in the padding or in a hole of the base dilation reads the
init value (the reference pads with it), so the reducer still runs once per
tap; the load is clamped in bounds and a select picks the init value.

A running reduction (`prefix_scan.py`: cumsum and its kin) is instead one
`loop.for` along its dimension carrying the accumulators, storing each.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.reduction import ReduceWindowOp
from xlir.lowering import index_maps as maps
from xlir.lowering.index_maps import Indices, int_list, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.prefix_scan import scan_dimension


def lower_reduce_window(op: ReduceWindowOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    count = len(op.inputs)
    inputs, init_buffers = kb.inputs[:count], kb.inputs[count:]
    window = int_list(op.window_dimensions, [])
    inits = [kb.load(buffer, []) for buffer in init_buffers]
    block = op.body.block
    assert block is not None
    dim = scan_dimension(op)
    if dim is not None:
        _running(kb, op, dim, inits)
        return kb.finish()

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


def _running(
    kb: KernelBuilder, op: ReduceWindowOp, dim: int, inits: list[SSAValue]
) -> None:
    """Each row along `dim` reduced in order, every step's accumulators
    stored (`prefix_scan.py`)."""
    count = len(op.inputs)
    sizes = shape(op.inputs[0])
    block = op.body.block
    assert block is not None
    grid = list(sizes)
    grid[dim] = 1

    def row(idx: Indices) -> None:
        def step(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            at = list(idx)
            at[dim] = ivs[0]
            values = [kb.load(buffer, at) for buffer in kb.inputs[:count]]
            results = kb.inline(block, [*accs, *values])
            for result, buffer in zip(results, kb.outputs, strict=True):
                kb.store(result, buffer, at)
            return results

        kb.nest.for_nest([sizes[dim]], inits, step)

    kb.parallel(grid, row)


KERNELS = {"stablehlo.reduce_window": lower_reduce_window}
