"""One `loop.kernel` per heavy unfused HLO op.

`emit_kernel(op, name)` is what `hlo-to-loop` calls for every top-level op
that is not a fusion: it returns the op's kernel, named `name`, with the
`loop.global`s it reads (an emitter returns a kernel, or a kernel and its
globals: fft's tables), or None when
the op needs none (host control flow, constants, ops the driver handles). A
kernel's arguments are one buffer per tensor operand, then one per result
(`buffer_type`: same shape, signless elements, row-major); the driver
launches it with the plan's buffers, which may alias where the plan puts a
result in place of an operand (dynamic_update_slice writes only the update
window then, see `slicing`).

Each family lives in its own module, imported when first needed, and maps
op names to emitters in its `KERNELS`. An emitter that meets a case it
cannot lower raises `UnsupportedScalarOp` (lowering/scalar.py) naming the
op and the reason, for the driver to report with the others.
"""

from __future__ import annotations

from importlib import import_module

from xdsl.ir import Operation
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp

_FAMILIES = {
    "stablehlo.dot_general": "single_op",
    "stablehlo.reduce": "single_op",
    "stablehlo.gather": "single_op",
    "stablehlo.dynamic_slice": "single_op",
    "stablehlo.iota": "single_op",
    "stablehlo.dynamic_update_slice": "slicing",
    "stablehlo.convolution": "single_op",
    "stablehlo.reduce_window": "reduce_window",
    "stablehlo.sort": "sort",
    "chlo.top_k": "top_k",
    "stablehlo.scatter": "scatter",
    "stablehlo.select_and_scatter": "select_and_scatter",
    "stablehlo.rng_bit_generator": "rng_bit_generator",
    "stablehlo.triangular_solve": "linalg",
    "stablehlo.cholesky": "linalg",
    "stablehlo.custom_call": "linalg",
    "hlo.fft": "fft",
}
"""Op name -> the module of `xlir.lowering.kernels` that lowers it."""


def has_kernel(name: str) -> bool:
    """Whether `emit_kernel` lowers ops of this name."""
    return name in _FAMILIES


def emit_kernel(op: Operation, name: str) -> tuple[KernelOp, list[GlobalOp]] | None:
    """The kernel of `op`, named `name`, and the globals (tables) it reads;
    None for ops lowered elsewhere (or that its family has no kernel for)."""
    family = _FAMILIES.get(op.name)
    if family is None:
        return None
    module = import_module(f"{__name__}.{family}")
    made = module.KERNELS[op.name](op, name)
    if made is None or isinstance(made, tuple):
        return made
    return made, []
