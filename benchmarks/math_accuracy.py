"""Accuracy of `expand-math`: max ulp error per function, the expanded f32
code against numpy's float64 result rounded to f32.

    python benchmarks/math_accuracy.py [--samples N] [--seed S] [NAME ...]

Each function runs as a one-op kernel on the loop interpreter, once after
`expand-math` and once as the `math` op, which the interpreter computes with
numpy on float32 (the "numpy f32" column, for comparison). The inputs and the
measure are `xlir.passes.loop.math_approximations.accuracy`'s.
"""

from __future__ import annotations

import argparse

import numpy as np
from xlir.passes.loop.math_approximations.accuracy import (
    FUNCTIONS,
    reference,
    run_op,
    sample,
    ulp_errors,
)


def _describe(inputs: list[np.ndarray], index: int) -> str:
    return ", ".join(f"{float(x[index]):.9g}" for x in inputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1 << 20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("names", nargs="*", help=f"of {', '.join(FUNCTIONS)}")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(FUNCTIONS))
    if unknown:
        parser.error(f"unknown functions: {', '.join(unknown)}")
    rng = np.random.default_rng(args.seed)
    print(f"{'function':10} {'expanded':>9} {'numpy f32':>10}  worst input (expanded)")
    for name in args.names or FUNCTIONS:
        function = FUNCTIONS[name]
        inputs = sample(function, rng, args.samples)
        want = reference(function, inputs)
        expanded = ulp_errors(run_op(function.op, inputs, expand=True), want)
        direct = ulp_errors(run_op(function.op, inputs, expand=False), want)
        worst = int(np.argmax(expanded))
        print(
            f"{name:10} {expanded.max():9.0f} {direct.max():10.0f}  "
            f"{_describe(inputs, worst)}"
        )


if __name__ == "__main__":
    main()
