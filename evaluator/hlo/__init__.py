"""StableHLO's semantics on numpy arrays: `ModuleInterpreter` prepares a
module once and calls its functions on host arrays (`engine.py`); each
kernel module registers the ops it evaluates."""

from __future__ import annotations

# Kernel modules register themselves in the engine's table on import.
from xlir.evaluator.hlo import (  # noqa: F401
    check,
    chlo,
    collectives,
    contraction,
    control_flow,
    data_movement,
    elementwise,
    indexing,
    linalg,
    normalization,
    reduction,
    rng,
)
from xlir.evaluator.hlo.engine import KERNELS, ModuleInterpreter

__all__ = ["KERNELS", "ModuleInterpreter"]
