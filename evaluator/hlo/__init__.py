"""StableHLO's semantics on numpy arrays: `ModuleInterpreter` prepares a
module once and calls its functions on host arrays (`engine.py`); each
kernel module registers the ops it evaluates.

`KERNELS` and `ModuleInterpreter` are imported on first use, with every kernel
module: a pass that only reads constants (`types.py`) does without them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xlir.evaluator.hlo.engine import KERNELS, ModuleInterpreter

__all__ = ["KERNELS", "ModuleInterpreter"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'xlir.evaluator.hlo' has no attribute '{name}'")
    from xlir.evaluator.hlo import engine

    engine.register_kernels()
    return getattr(engine, name)
