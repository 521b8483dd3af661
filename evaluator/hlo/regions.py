"""Running regions (reducer bodies, comparators, scatter combiners) on whole
arrays.

A region whose ops are all elementwise can run on arrays of any shape: its
rank-0 constants broadcast. `is_vectorizable` tells which; `compact_ufunc`
recognises the bodies that are one numpy ufunc (add, multiply, maximum,
minimum, and, or, xor) so that they run as `ufunc.reduce` / `ufunc.at`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.dialects.stablehlo.elementwise import (
    AbsOp,
    AddOp,
    AndOp,
    Atan2Op,
    BitcastConvertOp,
    CbrtOp,
    CeilOp,
    ClampOp,
    CompareOp,
    ConvertOp,
    CosineOp,
    CountLeadingZerosOp,
    DivideOp,
    ExponentialMinusOneOp,
    ExponentialOp,
    FloorOp,
    IsFiniteOp,
    LogisticOp,
    LogOp,
    LogPlusOneOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    NegateOp,
    NotOp,
    OrOp,
    PopcntOp,
    PowerOp,
    RemainderOp,
    RoundNearestAfzOp,
    RoundNearestEvenOp,
    RsqrtOp,
    SelectOp,
    ShiftLeftOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
    SignOp,
    SineOp,
    SqrtOp,
    SubtractOp,
    TanhOp,
    TanOp,
    XorOp,
)
from xlir.evaluator.hlo.elementwise import float_maximum, float_minimum
from xlir.evaluator.hlo.engine import Program

Array = Any

ELEMENTWISE = {
    AbsOp,
    CbrtOp,
    CeilOp,
    CosineOp,
    CountLeadingZerosOp,
    ExponentialOp,
    ExponentialMinusOneOp,
    FloorOp,
    LogOp,
    LogPlusOneOp,
    LogisticOp,
    NegateOp,
    NotOp,
    PopcntOp,
    RoundNearestAfzOp,
    RoundNearestEvenOp,
    RsqrtOp,
    SignOp,
    SineOp,
    SqrtOp,
    TanOp,
    TanhOp,
    AddOp,
    Atan2Op,
    DivideOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    PowerOp,
    RemainderOp,
    ShiftLeftOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
    SubtractOp,
    AndOp,
    OrOp,
    XorOp,
    ConvertOp,
    IsFiniteOp,
    CompareOp,
    SelectOp,
    ClampOp,
}


def is_vectorizable(program: Program) -> bool:
    for _, _, outs, _, op, _ in program.steps:
        if type(op) in ELEMENTWISE:
            continue
        if isinstance(op, ConstantOp) and all(
            not getattr(r.type, "get_shape", lambda: (1,))() for r in outs
        ):
            continue
        if isinstance(op, BitcastConvertOp):
            in_shape = op.operands[0].type.get_shape()  # type: ignore[attr-defined]
            if tuple(in_shape) == tuple(op.results[0].type.get_shape()):  # type: ignore[attr-defined]
                continue
        return False
    return True


_UFUNCS: dict[type[Operation], tuple[Callable[..., Any], Any]] = {
    AddOp: (np.add, np.add),
    MultiplyOp: (np.multiply, np.multiply),
    MaximumOp: (np.maximum, np.maximum),
    MinimumOp: (np.minimum, np.minimum),
    AndOp: (np.bitwise_and, np.bitwise_and),
    OrOp: (np.bitwise_or, np.bitwise_or),
    XorOp: (np.bitwise_xor, np.bitwise_xor),
}


def compact_ufunc(program: Program) -> tuple[Any, Callable[..., Any]] | None:
    """(ufunc, combine) if the body is `return op(arg0, arg1)` of one of the
    ufunc ops (either argument order), for a body of two arguments."""
    if len(program.args) != 2 or len(program.steps) != 1:
        return None
    _, ins, outs, _, op, _ = program.steps[0]
    if type(op) not in _UFUNCS or len(program.returns) != 1:
        return None
    if program.returns[0] is not outs[0] or set(ins) != set(program.args):
        return None
    ufunc, combine = _UFUNCS[type(op)]
    dtype = op.results[0].type.get_element_type()  # type: ignore[attr-defined]
    if isinstance(op, MaximumOp) and "f" in str(dtype):
        combine = float_maximum
    if isinstance(op, MinimumOp) and "f" in str(dtype):
        combine = float_minimum
    return ufunc, combine


def run_vectorized(program: Program, values: Sequence[Array]) -> list[Array]:
    return program.run(list(values))


def run_elementwise(
    program: Program, values: Sequence[Array], count: int
) -> list[Array]:
    """Run a region that is not vectorizable element by element: all values
    broadcast to one shape; `count` results come back at that shape."""
    arrays = np.broadcast_arrays(*[np.asarray(v) for v in values])
    shape = arrays[0].shape if arrays else ()
    outputs: list[np.ndarray] | None = None
    for index in np.ndindex(shape):
        results = program.run([np.asarray(a[index]) for a in arrays])
        if outputs is None:
            outputs = [
                np.empty(shape, dtype=np.asarray(r).dtype) for r in results[:count]
            ]
        for out, r in zip(outputs, results, strict=False):
            out[index] = r
    if outputs is None:  # empty: run once on zeros for the dtypes
        probe = program.run([np.zeros((), a.dtype) for a in arrays])
        outputs = [np.empty(shape, dtype=np.asarray(r).dtype) for r in probe[:count]]
    return outputs


def apply_region(program: Program, values: Sequence[Array], count: int) -> list[Array]:
    if is_vectorizable(program):
        return [np.asarray(r) for r in program.run(list(values))]
    return run_elementwise(program, values, count)
