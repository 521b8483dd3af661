"""Time the interpreter target on every bench program of the corpus.

    python benchmarks/interpreter_bench.py [--repeat N] [NAME ...]

Inputs are random with a fixed seed: standard normal floats (weights scaled
by 1/sqrt(fan_in) is not needed for timing), integer inputs as described in
bench/xla_cpu_baselines.json (gather indices in [0, rows), int_ops divisors
nonzero, dynamic_slice i=100 and j=37, class labels in [0, 10)). Prints the
compile time and the median time per call next to XLA:CPU's and numpy's
recorded figures (those come from another machine: ratios across machines
are only indicative).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

import xlir

BENCH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "bench"


def make_inputs(name: str, signature, rng: np.random.Generator) -> list[np.ndarray]:
    arrays: list[np.ndarray] = []
    for index, spec in enumerate(signature.arguments):
        if spec.dtype.kind == "f":
            arrays.append(rng.standard_normal(spec.shape).astype(spec.dtype))
            continue
        if name.startswith("gather_index"):
            rows = signature.arguments[0].shape[0]
            value = rng.integers(0, rows, spec.shape)
        elif name.startswith("int_ops"):
            if index == 0:
                value = rng.integers(-1000, 1000, spec.shape)
            else:
                value = rng.integers(1, 50, spec.shape) * rng.choice(
                    [-1, 1], spec.shape
                )
        elif name.startswith("dynamic_slice"):
            value = np.full(spec.shape, 100 if index == 2 else 37)
        else:  # class labels
            value = rng.integers(0, 10, spec.shape)
        arrays.append(np.asarray(value).astype(spec.dtype))
    return arrays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="bench programs (default: all)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    baselines = json.loads((BENCH / "xla_cpu_baselines.json").read_text())["programs"]
    files = sorted(BENCH.glob("*.mlir"))
    if args.names:
        files = [f for f in files if f.stem in args.names]
    header = f"{'program':<26} {'compile ms':>10} {'run ms':>10} {'xla ms':>8} {'numpy ms':>9} {'vs numpy':>9}"
    print(header)
    print("-" * len(header))
    total = 0.0
    for path in files:
        name = path.stem
        started = time.perf_counter()
        executable = xlir.compile(path)
        compile_ms = (time.perf_counter() - started) * 1e3
        rng = np.random.default_rng(args.seed)
        arrays = make_inputs(name, executable.signature, rng)
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            executable(*arrays)
            times.append(time.perf_counter() - started)
        run_ms = sorted(times)[len(times) // 2] * 1e3
        total += run_ms
        base = baselines.get(name, {})
        xla = base.get("jax_compiled_run_ms", float("nan"))
        numpy_ms = base.get("numpy_run_ms", float("nan"))
        print(
            f"{name:<26} {compile_ms:>10.1f} {run_ms:>10.2f} {xla:>8.3f} "
            f"{numpy_ms:>9.3f} {run_ms / numpy_ms:>8.1f}x"
        )
        sys.stdout.flush()
    print("-" * len(header))
    print(f"{'total run ms':<26} {'':>10} {total:>10.2f}")


if __name__ == "__main__":
    main()
