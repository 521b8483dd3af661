"""Ahead-of-time objects: their sizes per triple, and the host binary's speed
against the JIT on the same inputs.

    python benchmarks/aot.py [--programs gelu_1m,matmul_512] [--repeat N]

For every bench program: `xlir-compile`'s object size for x86_64, aarch64
and riscv64 (generic CPUs) and for this host (its CPU and features); then the
host object linked into examples/aot/main.c, run on the same random inputs
as `xlir.compile(text, target="cpu")`, both timed as the mean of `--repeat`
calls after one warm-up call (main.c's own clock, so no process start-up is
counted), and the C program's outputs compared with the JIT's (they run the
same code, so they must agree bit for bit).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter_bench import BENCH, make_inputs
from xlir.targets.aot import AotOptions, AotResult
from xlir.targets.registry import get_platform

import xlir
from xlir.api import load_module

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aot" / "main.c"
TRIPLES = ("x86_64-linux-gnu", "aarch64-linux-gnu", "riscv64-linux-gnu")


def compile_ahead(path: Path, triple: str | None) -> AotResult:
    module, sources = load_module(path)
    options = AotOptions(triple=triple, entry="model")
    return (
        get_platform("cpu")
        .compiler()
        .compile_ahead_of_time(module, options, "main", sources)
    )


def run_binary(result: AotResult, inputs: list[np.ndarray], repeat: int, folder: Path):
    """Builds main.c with the host object; its ms per call and outputs."""
    (folder / "model.o").write_bytes(result.object_code)
    (folder / "model.h").write_text(result.header)
    subprocess.run(
        [
            "cc", "-O2", "-DXLIR_ENTRY=model", "-DXLIR_PREFIX=MODEL",
            '-DXLIR_HEADER="model.h"', f"-I{folder}", str(EXAMPLE),
            str(folder / "model.o"), "-lm", "-lpthread", "-o", str(folder / "main"),
        ],
        check=True,
    )  # fmt: skip
    (folder / "in.bin").write_bytes(b"".join(a.tobytes() for a in inputs))
    printed = subprocess.run(
        [str(folder / "main"), "in.bin", "out.bin", str(repeat)],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    match = re.search(r"time per call: ([0-9.]+) ms", printed)
    assert match, printed
    raw = (folder / "out.bin").read_bytes()
    outputs, offset = [], 0
    for spec in result.signature.results:
        count = int(np.prod(spec.shape))
        array = np.frombuffer(raw, spec.dtype, count, offset).reshape(spec.shape)
        outputs.append(array)
        offset += array.nbytes
    return float(match.group(1)), outputs


def jit_ms(text: str, inputs: list[np.ndarray], repeat: int):
    executable = xlir.compile(text, target="cpu")
    outputs = [np.empty(r.shape, r.dtype) for r in executable.signature.results]
    executable(*inputs, out=outputs)
    start = time.perf_counter()
    for _ in range(repeat):
        executable(*inputs, out=outputs)
    return (time.perf_counter() - start) * 1e3 / repeat, outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", help="comma-separated bench names")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    names = args.programs.split(",") if args.programs else None
    paths = [
        p for p in sorted(BENCH.glob("*.mlir")) if names is None or p.stem in names
    ]
    arches = "".join(f"{t.split('-')[0]:>9}" for t in TRIPLES)
    print(
        f"{'program':<24}{arches}{'host':>9}{'aot ms':>9}{'jit ms':>9}{'aot/jit':>9} same"
    )
    for path in paths:
        text = path.read_text()
        sizes = [len(compile_ahead(path, t).object_code) for t in TRIPLES]
        host = compile_ahead(path, None)
        rng = np.random.default_rng(0)
        inputs = make_inputs(path.stem, host.signature, rng)
        with tempfile.TemporaryDirectory() as folder:
            aot, aot_outputs = run_binary(host, inputs, args.repeat, Path(folder))
        jit, jit_outputs = jit_ms(text, inputs, args.repeat)
        same = all(
            np.array_equal(a, j, equal_nan=a.dtype.kind == "f")
            for a, j in zip(aot_outputs, jit_outputs, strict=True)
        )
        sized = "".join(f"{size:>9}" for size in (*sizes, len(host.object_code)))
        print(f"{path.stem:<24}{sized}{aot:>9.3f}{jit:>9.3f}{aot / jit:>9.2f} {same}")


if __name__ == "__main__":
    main()
