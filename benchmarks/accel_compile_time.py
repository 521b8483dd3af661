"""Compile time of each bench program for accel against cpu (issue 31's
goal: no more than 2x).

Each program is compiled with `xlir.compile(text, target=...)` for both
targets in turn, with the cache off (`XLIR_CACHE=0`) and LLVM on the
calling thread (`XLIR_CODEGEN_THREADS=1`: both columns are one thread's
work, as accel's compile is), best of `--repeat` compiles in process CPU
seconds (on a shared machine the steadier figure; taking the targets in
turn lets a slow spell hit both). One throwaway compile of each target
first pays the one-time start-up (imports, LLVM's initialisation).

    python benchmarks/accel_compile_time.py [--repeat N] [PROGRAM ...]

Prints per program the two times and their ratio, then the median ratio
and the programs above 2x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import xlir

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
TARGETS = ("cpu", "accel")
GOAL = 2.0


def compile_seconds(text: str, target: str) -> float:
    """Process CPU seconds of one compile of `text` for `target`."""
    start = time.process_time()
    xlir.compile(text, target=target)
    return time.process_time() - start


def best_times(text: str, repeat: int) -> dict[str, float]:
    """Per target, the least of `repeat` compiles, the targets in turn."""
    best = dict.fromkeys(TARGETS, float("inf"))
    for _ in range(repeat):
        for target in TARGETS:
            best[target] = min(best[target], compile_seconds(text, target))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    os.environ["XLIR_CACHE"] = "0"
    os.environ["XLIR_CODEGEN_THREADS"] = "1"
    paths = sorted(
        p
        for p in (CORPUS / "bench").glob("*.mlir")
        if not args.programs or p.stem in args.programs
    )
    if not paths:
        parser.error(f"no program of {CORPUS / 'bench'} is named {args.programs}")
    for target in TARGETS:
        compile_seconds(paths[0].read_text(), target)
    ratios: dict[str, float] = {}
    print(f"{'program':24} {'cpu ms':>8} {'accel ms':>9} {'accel/cpu':>10}")
    for path in paths:
        best = best_times(path.read_text(), args.repeat)
        ratios[path.stem] = best["accel"] / best["cpu"]
        print(
            f"{path.stem:24} {best['cpu'] * 1000:8.0f} {best['accel'] * 1000:9.0f} "
            f"{ratios[path.stem]:9.2f}x"
        )
    above = [f"{name} {ratio:.2f}x" for name, ratio in ratios.items() if ratio > GOAL]
    print(f"median {statistics.median(ratios.values()):.2f}x")
    print(f"above {GOAL:g}x: {', '.join(above) or 'none'}")


if __name__ == "__main__":
    main()
