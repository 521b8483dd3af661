"""Compile time of the HLO-level pipeline on every bench program of the corpus.

    python benchmarks/hlo_pipeline.py [--pipeline SPEC] [--repeat N] [NAME ...]

For each program: parse + verify time, then the wall time of each pass of the
pipeline (default `hlo-opt`), best of N runs on a fresh parse, and the op
counts before and after. Goal: the whole `hlo-opt` pipeline on
train_step_mlp (the largest program) under 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import Instrument, PassManager

BENCH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "bench"


class PassClock(Instrument):
    """Seconds per pass, by position in the pipeline."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.started = 0.0

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.started = time.perf_counter()

    def after(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.seconds.append(time.perf_counter() - self.started)


def count_ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


def measure(path: Path, spec: str, repeat: int) -> tuple[float, list[float], int, int]:
    """(parse s, per-pass s, ops before, ops after), each time the best of runs."""
    text = path.read_text()
    best_parse, best_passes = float("inf"), None
    before = after = 0
    for _ in range(repeat):
        started = time.perf_counter()
        ctx = make_context()
        module = parse_module(ctx, text, path.name)
        module.verify()
        best_parse = min(best_parse, time.perf_counter() - started)
        before = count_ops(module)
        clock = PassClock()
        PassManager(spec, [clock], verify_each=False).run(ctx, module)
        after = count_ops(module)
        if best_passes is None or sum(clock.seconds) < sum(best_passes):
            best_passes = clock.seconds
    return best_parse, best_passes or [], before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="bench programs (default: all)")
    parser.add_argument("--pipeline", default="hlo-opt")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = sorted(BENCH.glob("*.mlir"))
    if args.names:
        paths = [p for p in paths if p.stem in args.names]
    if not paths:
        sys.exit(f"no bench programs found in {BENCH}")
    names = [s.name for s in PassManager(args.pipeline).specs]
    short = [n[:9] for n in names]
    print(f"pipeline: {args.pipeline} ({', '.join(names)}); best of {args.repeat}")
    print(f"{'program':<24} {'parse ms':>9} " + " ".join(f"{n:>9}" for n in short)
          + f" {'total ms':>9} {'ops':>11}")  # fmt: skip
    for path in paths:
        parse, passes, before, after = measure(path, args.pipeline, args.repeat)
        cells = " ".join(f"{1000 * s:9.1f}" for s in passes)
        print(f"{path.stem:<24} {1000 * parse:9.1f} {cells} "
              f"{1000 * sum(passes):9.1f} {before:>5}->{after:<5}")  # fmt: skip


if __name__ == "__main__":
    main()
