"""How `expand-math` is measured: each function as a one-op kernel on the
loop interpreter, on sampled f32 inputs, against numpy's float64 result
rounded to f32, in ulp. `benchmarks/math_accuracy.py` prints the table and
`tests/unit/test_expand_math.py` holds each function to a bound.

Inputs: random bit patterns over every finite f32 (so every exponent is
sampled alike), as many uniform in the range where the function is not
trivially 0, 1 or inf, the cases hard for the method (arguments nearest to
multiples of pi/2, powers of numbers near 1), and the special values (every
pair of them for two operands). The error is the distance in f32 steps to the correctly rounded
result; a NaN where the reference has none (or the reverse) is infinite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xlir.evaluator.loop import LoopModule

from xlir.context import make_context
from xlir.diagnostics import verify_module
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

F32 = np.finfo(np.float32)
SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0,
     -3.0, 0.1, 1e-30, -1e-30, 1e30, F32.tiny, -F32.tiny, F32.smallest_subnormal,
     -F32.smallest_subnormal, F32.max, -F32.max, 88.72, -88.72, 1.5707964,
     3.1415927, -3.1415927, 1e10, -1e10],
    np.float32,
)  # fmt: skip


@dataclass(frozen=True)
class Function:
    """A `math` op, its float64 reference, and where its inputs matter."""

    op: str
    reference: Callable[..., np.ndarray]
    ranges: tuple[tuple[float, float], ...]
    """Per operand, a range sampled uniformly besides the random bits."""
    hard: Callable[[np.random.Generator, int], list[np.ndarray]] | None = None
    """Inputs where a naive formula loses accuracy, `count` per operand."""

    @property
    def arity(self) -> int:
        return len(self.ranges)


def _near_quadrants(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Floats nearest to multiples of pi/2, and the closest of all (found by
    searching every f32): where reducing modulo pi/2 cancels most bits."""
    multiples = rng.integers(1, 1 << 40, count) * (np.pi / 2)
    closest = [7.72917892e28, 2.19993846e10, 1.54583578e29, 252.898209]
    values = np.concatenate([multiples, closest, np.negative(closest)])
    return [values.astype(np.float32)]


def _pow_near_one(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """x within 2000 ulp of 1 to large powers (log x must be far more
    accurate than f32), and negative x to integer powers."""
    half = count // 2
    steps = rng.integers(-2000, 2000, half)
    exponents = rng.uniform(-1, 1, half) * 2.0 ** rng.uniform(0, 30, half)
    negative = -rng.uniform(0.1, 10, half)
    integers = rng.integers(-40, 40, half)
    x = np.concatenate([1 + steps * 2.0**-23, negative])
    y = np.concatenate([exponents, integers])
    return [x.astype(np.float32), y.astype(np.float32)]


FUNCTIONS = {
    "exp": Function("math.exp", np.exp, ((-104.0, 89.0),)),
    "expm1": Function("math.expm1", np.expm1, ((-20.0, 20.0),)),
    "log": Function("math.log", np.log, ((0.0, 4.0),)),
    "log1p": Function("math.log1p", np.log1p, ((-1.0, 4.0),)),
    "tanh": Function("math.tanh", np.tanh, ((-10.0, 10.0),)),
    "sin": Function("math.sin", np.sin, ((-100.0, 100.0),), _near_quadrants),
    "cos": Function("math.cos", np.cos, ((-100.0, 100.0),), _near_quadrants),
    "tan": Function("math.tan", np.tan, ((-100.0, 100.0),), _near_quadrants),
    "atan2": Function("math.atan2", np.arctan2, ((-10.0, 10.0), (-10.0, 10.0))),
    "powf": Function("math.powf", np.power, ((0.0, 4.0), (-60.0, 60.0)), _pow_near_one),
    "cbrt": Function("math.cbrt", np.cbrt, ((-10.0, 10.0),)),
}


def kernel_module(op: str, arity: int, count: int, type_: str = "f32") -> str:
    """A module whose @main applies `op` to each element of its buffers."""
    memref = f"memref<{count}x{type_}>"
    names = ", ".join(f"%x{i}" for i in range(arity))
    params = ", ".join(f"%a{i}: {memref}" for i in range(arity))
    loads = "\n".join(
        f"    %x{i} = loop.load %a{i}[%i] : {memref}" for i in range(arity)
    )
    args = ", ".join(f"%a{i}" for i in range(arity))
    types = ", ".join([memref] * (arity + 1))
    return f"""
loop.kernel @k({params}, %out: {memref}) {{
  loop.parallel (%i) = (0) to ({count}) step (1) {{
{loads}
    %r = {op} {names} : {type_}
    loop.store %r, %out[%i] : {memref}
  }}
  loop.return
}}
func.func @main({params}) -> {memref} {{
  %s = device.default_stream
  %out = device.alloc : {memref}
  device.launch @k({args}, %out) on %s : {types}
  device.synchronize %s
  func.return %out : {memref}
}}
"""


def run_op(
    op: str, inputs: list[np.ndarray], expand: bool, type_: str = "f32"
) -> np.ndarray:
    """The op on the loop interpreter, after `expand-math` if `expand`."""
    text = kernel_module(op, len(inputs), inputs[0].size, type_)
    module = parse_module(make_context(), text, "math_accuracy.mlir")
    verify_module(module, {"math_accuracy.mlir": text})
    if expand:
        run_pipeline(make_context(), module, "expand-math")
    return LoopModule(module).call("main", inputs)[0]


def random_finite(rng: np.random.Generator, count: int) -> np.ndarray:
    """Uniform random bit patterns of finite f32s (every exponent alike)."""
    bits = rng.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32)
    values = bits.view(np.float32)
    return np.where(np.isfinite(values), values, np.float32(1.0))


def sample(
    function: Function, rng: np.random.Generator, count: int
) -> list[np.ndarray]:
    """`count` random inputs per operand, half random bits and half uniform
    in the function's range, then its hard cases (as many again), then the
    special values (every pair of them for two operands)."""
    half = count // 2
    operands = [
        [random_finite(rng, half), rng.uniform(low, high, half).astype(np.float32)]
        for low, high in function.ranges
    ]
    if function.hard is not None:
        for parts, hard in zip(operands, function.hard(rng, count), strict=True):
            parts.append(hard)
    operands = [np.concatenate(parts) for parts in operands]
    if function.arity == 1:
        return [np.concatenate([operands[0], SPECIALS])]
    first, second = np.meshgrid(SPECIALS, SPECIALS)
    return [
        np.concatenate([operands[0], first.ravel()]),
        np.concatenate([operands[1], second.ravel()]),
    ]


def _ordinal(x: np.ndarray) -> np.ndarray:
    """f32s as integers in the same order, consecutive floats one apart (both
    zeros are 0)."""
    bits = x.astype(np.float32).view(np.int32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)


def ulp_errors(got: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Distance in f32 steps from `got` to the f32 rounding of `reference`
    (float64): 0 for two NaNs, inf for one."""
    with np.errstate(over="ignore"):
        want = reference.astype(np.float32)
    distance = np.abs(_ordinal(got) - _ordinal(want)).astype(np.float64)
    nan_got, nan_want = np.isnan(got), np.isnan(want)
    distance = np.where(nan_got | nan_want, np.inf, distance)
    return np.where(nan_got & nan_want, 0.0, distance)


def reference(function: Function, inputs: list[np.ndarray]) -> np.ndarray:
    with np.errstate(all="ignore"):
        return function.reference(*[x.astype(np.float64) for x in inputs])
