"""`python -m xlir.examples [NAME] [--repeat N]`: a bundled model on the CPU.

Compiles the example with `xlir.compile(text, target="cpu")` (through the
compilation cache: the first run is cold, later ones hit it), runs it on
seeded random inputs, and prints its compile time, its median time per call
against the numpy version's, and the largest difference of the results.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

import xlir
from xlir.examples import EXAMPLES, Example
from xlir.targets.registry import get_platform


def _median_ms(call: Callable[[], object], repeat: int) -> float:
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def run(name: str, example: Example, repeat: int) -> bool:
    text = example.path.read_text()
    cached = get_platform("cpu").compiler().lookup(text, "main", None) is not None
    start = time.perf_counter()
    executable = xlir.compile(text, target="cpu", name=str(example.path))
    compile_ms = (time.perf_counter() - start) * 1e3
    rng = np.random.default_rng(0)
    inputs = []
    for index, spec in enumerate(executable.signature.arguments):
        value = rng.standard_normal(spec.shape).astype(spec.dtype)
        if index in example.weights:
            value /= np.sqrt(np.prod(spec.shape[:-1])).astype(spec.dtype)
        inputs.append(value)
    got = executable(*inputs)
    want = example.numpy(*inputs)
    error = float(np.max(np.abs(got - want)))
    ok = bool(np.allclose(got, want, rtol=1e-4, atol=1e-5))
    out = np.empty_like(got)
    xlir_ms = _median_ms(lambda: executable(*inputs, out=[out]), repeat)
    numpy_ms = _median_ms(lambda: example.numpy(*inputs), repeat)
    shapes = ", ".join(spec.type_text for spec in executable.signature.arguments)
    print(f"{name} ({example.path.name}) on the cpu target")
    print(f"  inputs:  {shapes} (seed 0)")
    print(f"  compile: {compile_ms:.1f} ms ({'cached' if cached else 'cold'})")
    print(
        f"  run:     xlir {xlir_ms:.3f} ms, numpy {numpy_ms:.3f} ms per call "
        f"(median of {repeat}): xlir/numpy {xlir_ms / numpy_ms:.2f}"
    )
    print(f"  check:   max |xlir - numpy| = {error:.2g}: {'ok' if ok else 'MISMATCH'}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m xlir.examples")
    parser.add_argument(
        "names", nargs="*", help=f"examples to run: {', '.join(EXAMPLES)}"
    )
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    names = args.names or ["mlp_classifier"]
    unknown = [n for n in names if n not in EXAMPLES]
    if unknown:
        parser.error(f"no example {', '.join(unknown)} (known: {', '.join(EXAMPLES)})")
    results = [run(name, EXAMPLES[name], args.repeat) for name in names]
    raise SystemExit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
