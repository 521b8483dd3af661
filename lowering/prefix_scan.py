"""A `stablehlo.reduce_window` that is a running (prefix) reduction, as JAX
writes `cumsum`, `cumprod`, `cummax` and `cumlogsumexp`: along one
dimension of n elements a window of W >= n taps, stride 1, padded by W - 1
in front and nothing behind, so output i reduces the padding then x[0..i];
every other dimension a window of one. Lowered as written, each output
element runs its own W-tap loop: n * W reducer steps per row (a 2048-wide
cumsum, 4 million per row).

The taps run in order, so output i is the reducer folded over W - 1 - i
init values and then x[0], ..., x[i]. Where the reducer maps (init, init)
to init, bit for bit (0 + 0, 1 * 1, max(-inf, -inf), ...), the padding
leaves the accumulator at its init value, and output i is output i - 1
folded with x[i]: one `loop.for` along the dimension carrying the
accumulators computes them all in n steps, with the very same operations
on the same values, so every result is unchanged. The check runs the
reducer on the (constant) init values with the reference interpreter; a
reducer it cannot decide on, or init values that are not constants, keeps
the window loop.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.stablehlo.reduction import ReduceWindowOp
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.lowering.index_maps import int_list, padding_pairs, shape
from xlir.passes.hlo.simplify_patterns.constants import constant_array


def scan_dimension(op: ReduceWindowOp) -> int | None:
    """The dimension along which `op` is a running reduction whose padding
    keeps the init values (module docstring), else None."""
    sizes = shape(op.inputs[0])
    rank = len(sizes)
    if shape(op.outputs[0]) != sizes or 0 in sizes:
        return None
    window = int_list(op.window_dimensions, [])
    ones = [1] * rank
    if (
        int_list(op.window_strides, ones) != ones
        or int_list(op.base_dilations, ones) != ones
        or int_list(op.window_dilations, ones) != ones
    ):
        return None
    padding = padding_pairs(op.padding, rank)
    long = [d for d in range(rank) if window[d] != 1 or padding[d] != (0, 0)]
    if len(long) != 1:
        return None
    (dim,) = long
    if window[dim] < sizes[dim] or padding[dim] != (window[dim] - 1, 0):
        return None
    return dim if _keeps_init(op) else None


def _keeps_init(op: ReduceWindowOp) -> bool:
    """Whether the reducer maps the init values, twice over, to themselves,
    bit for bit."""
    inits = [constant_array(value) for value in op.init_values]
    if any(init is None for init in inits):
        return False
    arrays = [np.asarray(init) for init in inits]
    try:
        program = ModuleInterpreter(ModuleOp([])).compile_region(op.body)
        with np.errstate(all="ignore"):
            results = program.run([*arrays, *arrays])
    except Exception:  # a reducer the interpreter cannot run here
        return False
    return all(
        np.asarray(result).dtype == init.dtype
        and np.asarray(result).tobytes() == init.tobytes()
        for result, init in zip(results, arrays, strict=True)
    )
