"""A deliberate miscompile, for testing the tools that find one.

With `XLIR_CPU_PLANT_MISCOMPILE=NAME` in the environment, the cpu target
compiles the kernel of the fusion named NAME (`hlo.fusion {name = "NAME"}`)
with its first flippable op replaced by another one of the same type
(add <-> subtract, multiply -> add, maximum <-> minimum), so that kernel
computes a wrong number while every other kernel is right. `xlir-run
--bisect` is tested by finding it (tools/bisect.py). A program without a
fusion of that name compiles as usual.
"""

from __future__ import annotations

import os

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter
from xlir.dialects.hlo import FusionOp
from xlir.dialects.stablehlo.elementwise import (
    AddOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    SubtractOp,
)

from xlir.diagnostics import XlirError
from xlir.walk import walk

PLANT_MISCOMPILE = "XLIR_CPU_PLANT_MISCOMPILE"
"""The environment variable naming the kernel to miscompile."""

FLIPS: dict[type[Operation], type[Operation]] = {
    AddOp: SubtractOp,
    SubtractOp: AddOp,
    MultiplyOp: AddOp,
    MaximumOp: MinimumOp,
    MinimumOp: MaximumOp,
}


def planted_kernel() -> str | None:
    """The fusion name the environment asks to miscompile, if any."""
    return os.environ.get(PLANT_MISCOMPILE) or None


def plant_miscompile(module: ModuleOp, kernel: str) -> None:
    """Flip the first flippable op (program order, reducer bodies included)
    of every fusion named `kernel`; a fusion of that name with nothing to
    flip is an error, since the test relying on it would pass vacuously."""
    for fusion in walk(module):
        if not isinstance(fusion, FusionOp):
            continue
        name = fusion.attributes.get("name")
        if getattr(name, "data", None) != kernel:
            continue
        victim = next((op for op in walk(fusion) if type(op) in FLIPS), None)
        if victim is None:
            flippable = ", ".join(sorted(t.name for t in FLIPS))  # type: ignore[attr-defined]
            raise XlirError(
                f"error: {PLANT_MISCOMPILE}={kernel}: the fusion has no op to "
                f"flip (one of {flippable})"
            )
        flipped = FLIPS[type(victim)].create(
            operands=list(victim.operands),
            result_types=[r.type for r in victim.results],
            attributes=dict(victim.attributes),
            properties=dict(victim.properties),
        )
        Rewriter.replace_op(victim, flipped)
