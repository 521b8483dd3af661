"""Compile time and memory against module size, on generated JAX-like modules.

    python benchmarks/compile_scaling.py [--sizes 500,2000,5000,20000] [--seed N]
                                         [--skip-cpu] [--write DIR]

Generates one module per size (`--sizes`, in ops) the way JAX emits a large
model: several independent chains of elementwise ops over 64x256 f32 arrays,
fed by broadcast scalar constants and bias rows, reduced along rows and
broadcast back (normalizations), joining each other and reading values from
far back (residuals, activations kept for a backward pass). Each size runs
in fresh subprocesses: `xlir-opt FILE -p hlo-opt` (in process, as its
`main`, printing to /dev/null) and `xlir.compile(text, target="cpu")` with
the cache off (`XLIR_CACHE=0`). Prints per size the wall and CPU seconds of
each, CPU milliseconds per op (on a shared machine the CPU time is the
steadier figure) and the peak RSS of its process (`ru_maxrss`).
Goal: the cpu compile of 5,000 ops under 10 s and under 300 MB; time per op
at most 1.5x as large at 20,000 ops as at 500.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS, COLS = 64, 256
FLOAT = f"tensor<{ROWS}x{COLS}xf32>"
ROW = f"tensor<{COLS}xf32>"
COLUMN = f"tensor<{ROWS}xf32>"
SCALAR = "tensor<f32>"
UNARY = ("exponential", "tanh", "negate", "abs", "logistic", "sine", "cosine")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum")


class ModuleWriter:
    """Emits a `main` of about `size` ops (constants and broadcasts included)
    over `chains` chains that each end in one of the function's results."""

    def __init__(self, size: int, seed: int, chains: int = 8) -> None:
        self.size = size
        self.random = random.Random(seed)
        self.lines: list[str] = []
        self.names = 0
        self.heads = [f"%arg{i}" for i in range(chains)]
        self.history: list[str] = list(self.heads)
        self.bias = f"%arg{chains}"

    def emit(self, text: str, type_: str) -> str:
        name = f"%{self.names}"
        self.names += 1
        self.lines.append(f"    {name} = {text} : {type_}")
        return name

    def scalar(self) -> str:
        """A broadcast splat, as JAX writes `x * 0.5`: a constant and a
        broadcast_in_dim per use."""
        value = self.random.choice((0.5, 1.5, 2.0, 0.25, 3.0, 0.1))
        constant = self.emit(f"stablehlo.constant dense<{value:e}>", SCALAR)
        return self.emit(
            f"stablehlo.broadcast_in_dim {constant}, dims = []",
            f"({SCALAR}) -> {FLOAT}",
        )

    def step(self, value: str) -> str:
        """One JAX-sized piece of work on a chain's value."""
        kind = self.random.random()
        if kind < 0.3:
            op = self.random.choice(UNARY)
            return self.emit(f"stablehlo.{op} {value}", FLOAT)
        if kind < 0.6:
            op = self.random.choice(BINARY)
            return self.emit(f"stablehlo.{op} {value}, {self.scalar()}", FLOAT)
        if kind < 0.7:
            bias = self.emit(
                f"stablehlo.broadcast_in_dim {self.bias}, dims = [1]",
                f"({ROW}) -> {FLOAT}",
            )
            return self.emit(f"stablehlo.add {value}, {bias}", FLOAT)
        if kind < 0.85:
            return self.normalize(value)
        if self.random.random() < 0.8:
            other = self.random.choice(self.history[-200:])
        else:
            other = self.random.choice(self.history)
        op = self.random.choice(BINARY)
        return self.emit(f"stablehlo.{op} {value}, {other}", FLOAT)

    def normalize(self, value: str) -> str:
        """x - mean(x) along rows, as JAX emits it."""
        zero = self.emit("stablehlo.constant dense<0.000000e+00>", SCALAR)
        total = self.emit(
            f"stablehlo.reduce({value} init: {zero}) applies stablehlo.add "
            "across dimensions = [1]",
            f"({FLOAT}, {SCALAR}) -> {COLUMN}",
        )
        mean = self.emit(
            f"stablehlo.multiply {total}, "
            + self.emit(
                "stablehlo.broadcast_in_dim "
                + self.emit(f"stablehlo.constant dense<{1 / COLS:e}>", SCALAR)
                + ", dims = []",
                f"({SCALAR}) -> {COLUMN}",
            ),
            COLUMN,
        )
        spread = self.emit(
            f"stablehlo.broadcast_in_dim {mean}, dims = [0]", f"({COLUMN}) -> {FLOAT}"
        )
        return self.emit(f"stablehlo.subtract {value}, {spread}", FLOAT)

    def text(self) -> str:
        while self.names < self.size:
            chain = self.random.randrange(len(self.heads))
            self.heads[chain] = self.step(self.heads[chain])
            self.history.append(self.heads[chain])
        arguments = ", ".join(
            [f"%arg{i}: {FLOAT}" for i in range(len(self.heads))]
            + [f"{self.bias}: {ROW}"]
        )
        results = ", ".join(FLOAT for _ in self.heads)
        return "\n".join(
            [
                "module @jit_scaling {",
                f"  func.func public @main({arguments}) -> ({results}) {{",
                *self.lines,
                f"    return {', '.join(self.heads)} : {results}",
                "  }",
                "}",
                "",
            ]
        )


def generate(size: int, seed: int = 0) -> str:
    """The text of a JAX-like module of about `size` ops."""
    return ModuleWriter(size, seed).text()


def peak_rss_mb() -> float:
    """This process's peak resident set (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_child(mode: str, path: Path) -> dict[str, float]:
    """Runs in the fresh subprocess: one compile of `path`, timed."""
    if mode == "hlo-opt":
        from xlir.tools.opt import main

        started, cpu = time.perf_counter(), time.process_time()
        try:  # a tool's main ends in sys.exit, even on success
            main([str(path), "-p", "hlo-opt", "-o", os.devnull])
        except SystemExit as exit_:
            if exit_.code:
                raise
    else:
        import xlir

        text = path.read_text()
        started, cpu = time.perf_counter(), time.process_time()
        xlir.compile(text, target="cpu")
    return {
        "wall": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "rss_mb": peak_rss_mb(),
    }


def measure(mode: str, path: Path) -> dict[str, float]:
    """One compile in a fresh interpreter, so RSS is its own."""
    environment = dict(os.environ, XLIR_CACHE="0")
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, str(path)],
        env=environment,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"{mode} of {path} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,2000,5000,20000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-cpu", action="store_true", help="hlo-opt only")
    parser.add_argument("--write", help="also keep the generated modules here")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure_child(args.child[0], Path(args.child[1]))))
        return
    modes = ["hlo-opt"] if args.skip_cpu else ["hlo-opt", "cpu"]
    print(
        f"{'ops':>6} "
        + " ".join(
            f"{m + ' wall s':>14} {'cpu s':>8} {'ms/op':>6} {'MB':>5}" for m in modes
        )
    )
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.write or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for size in (int(s) for s in args.sizes.split(",")):
            path = folder / f"scaling_{size}.mlir"
            path.write_text(generate(size, args.seed))
            cells = []
            for mode in modes:
                figures = measure(mode, path)
                cells.append(
                    f"{figures['wall']:14.2f} {figures['cpu']:8.2f} "
                    f"{1000 * figures['cpu'] / size:6.2f} {figures['rss_mb']:5.0f}"
                )
            print(f"{size:>6} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
