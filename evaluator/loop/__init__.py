"""The loop level's semantics on numpy arrays (loop, device, arith, math,
memref, scf, func): `LoopModule` prepares a loop-level module once and calls
its host functions with the same tensors in and out as the HLO program it was
lowered from.

xDSL's interpreter framework runs one op per element in Python (1.4 s for a
64x128 elementwise loop nest on the development machine); this one compiles
each op once to a closure and runs `loop.parallel` bodies vectorized over
their whole index space (`engine.py`).
"""

from __future__ import annotations

from xlir.evaluator.loop.image import LoopModule

__all__ = ["LoopModule"]
