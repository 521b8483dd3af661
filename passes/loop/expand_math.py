"""`expand-math`: transcendental `math` ops in kernels as `arith` code.

The CPU lowering turns `math.exp` into a call of libm's `expf` per element,
which stops LLVM from vectorizing the loop around it. This pass writes, in
every `loop.kernel`, each transcendental `math` op on f32 as straight-line
`arith` code: range reduction, a minimax polynomial, selects for the special
values (`passes/loop/math_approximations/`, one module per family, where each
formula, where its coefficients come from and its accuracy are explained).
No branches, no tables in memory, no libm: LLVM vectorizes it like any other
arithmetic.

* Expanded: exp, expm1, log, log1p, tanh, sin, cos, tan, atan2, powf, cbrt
  on f32; on f16 and bf16 the operands are extended to f32 and the result
  truncated back once; on vectors of those (the vector copies of a register
  tile's epilogue: `passes/loop/jam_vector.py`) lane by lane, as vector
  code. Each is within 2 ulp of the correctly rounded result
  over the whole f32 domain (`benchmarks/math_accuracy.py` prints the table,
  `tests/unit/test_expand_math.py` holds the bounds), with C99's special
  values (NaN, infinities, signed zeros, overflow to inf, gradual underflow:
  subnormals are computed, not flushed).
* Left alone: ops the LLVM lowering maps to intrinsics that vectorize (absf,
  copysign, sqrt, rsqrt, floor, ceil, trunc, round, roundeven, fma, absi,
  ctpop, ctlz; the expansions themselves use absf and copysign), every op on
  f64 (a backend calls libm), and ops `hlo-to-loop` never emits (erf, acos,
  ...).

The expansions rely on IEEE arithmetic as `arith` defines it: no
reassociation (fast-math would break the compensated sums), and no
`math.fma`, which LLVM would turn into a libm call per lane on a target
without an FMA instruction.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    ModuleOp,
    VectorType,
    f32,
)
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.dialects.loop.kernel import KernelOp
from xlir.passes.loop.math_approximations import (
    arctangent,
    exponential,
    hyperbolic,
    logarithm,
    power,
    trigonometric,
)
from xlir.passes.loop.math_approximations.scalar_builder import (
    Constants,
    ScalarBuilder,
    Value,
)

from xlir.walk import walk

Expansion = Callable[..., Value]
"""Takes the `ScalarBuilder`, then the op's operands as `Value`s."""

EXPANDED_TYPES = (Float32Type, Float16Type, BFloat16Type)
"""The element types the expansions cover (f16 and bf16 through f32)."""

EXPANSIONS: dict[type[Operation], Expansion] = {
    math.ExpOp: exponential.exp,
    math.ExpM1Op: exponential.expm1,
    math.TanhOp: hyperbolic.tanh,
    math.LogOp: logarithm.log,
    math.Log1pOp: logarithm.log1p,
    math.SinOp: trigonometric.sin,
    math.CosOp: trigonometric.cos,
    math.TanOp: trigonometric.tan,
    math.Atan2Op: arctangent.atan2,
    math.PowFOp: power.powf,
    math.CbrtOp: power.cbrt,
}
"""Ops on f32 (f16 and bf16 through f32)."""


def expand(op: Operation, constants: Constants | None = None) -> None:
    """Replace one `math` op by its expansion, if it has one. `constants`:
    those made for the expansions of earlier ops in the op's block, which
    dominate it (each math op made its own dozens, a fifth of a large
    module's ops after this pass)."""
    expansion = EXPANSIONS.get(type(op))
    if expansion is None:
        return
    result_type = op.results[0].type
    lanes = None
    if isinstance(result_type, VectorType):
        lanes = result_type.get_shape()[0]
        result_type = result_type.element_type
    if not isinstance(result_type, EXPANDED_TYPES):
        return
    code = ScalarBuilder(Builder(InsertPoint.before(op)), constants, lanes)
    operands = [code.wrap(operand) for operand in op.operands]
    if isinstance(result_type, Float32Type):
        result = expansion(code, *operands)
    else:
        wide = [operand.extend(f32) for operand in operands]
        result = expansion(code, *wide).truncate(result_type)
    op.results[0].replace_all_uses_with(result.ssa)
    op.detach()
    op.erase()


@dataclass(frozen=True)
class ExpandMathPass(ModulePass):
    """Expand `math` ops in kernels into `arith` (module docstring)."""

    name = "expand-math"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.ops:
            if isinstance(kernel, KernelOp):
                by_block: dict[Block | None, Constants] = defaultdict(dict)
                for inner in list(walk(kernel)):
                    expand(inner, by_block[inner.parent])
