"""top_k's selection kernel against a full sort of the same rows, on cpu.

    python benchmarks/top_k.py [--rows 256] [--columns 1024] [--k 8] [--repeat 50]

Three programs over one random f32 matrix: `chlo.top_k` (the cpu target's
top_k routine, targets/cpu/top_k_routine.py; its selection kernel,
lowering/kernels/top_k.py, with `XLIR_SORT_ROUTINES=0`), the same top_k through the
target-neutral decomposition (a stable sort of (values, iota) then a slice:
`decompose` without `keep-top-k`, what cpu ran before), and a plain
descending sort of the values. Each is timed as the median of `--repeat`
calls after a warm-up call, in one process; the outputs of the two top_k
programs are compared, and the ratios printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlir.targets.cpu.target import CpuTarget
from xlir.targets.target import CompileOptions

import xlir
from xlir.pass_manager import pipeline_text


def top_k_program(rows: int, columns: int, k: int) -> str:
    return f"""
func.func @main(%x: tensor<{rows}x{columns}xf32>) -> (tensor<{rows}x{k}xf32>, tensor<{rows}x{k}xi32>) {{
  %v, %i = chlo.top_k(%x, k = {k}) : tensor<{rows}x{columns}xf32> -> (tensor<{rows}x{k}xf32>, tensor<{rows}x{k}xi32>)
  return %v, %i : tensor<{rows}x{k}xf32>, tensor<{rows}x{k}xi32>
}}
"""


def sort_program(rows: int, columns: int) -> str:
    t = f"tensor<{rows}x{columns}xf32>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %s = "stablehlo.sort"(%x) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }}) {{dimension = 1 : i64, is_stable = true}} : ({t}) -> {t}
  return %s : {t}
}}
"""


def median_ms(function, x: np.ndarray, repeat: int) -> float:
    function(x)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(x)
        times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--columns", type=int, default=1024)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    x = np.random.default_rng(0).standard_normal((args.rows, args.columns))
    x = x.astype(np.float32)
    top_k = top_k_program(args.rows, args.columns, args.k)
    decomposed = pipeline_text(CpuTarget().hlo_pipeline(CompileOptions())).replace(
        "decompose{keep-top-k=true}", "decompose"
    )
    programs = {
        "top_k (selection)": xlir.compile(top_k, target="cpu"),
        "top_k (sort + slice)": xlir.compile(top_k, target="cpu", pipeline=decomposed),
        "sort": xlir.compile(sort_program(args.rows, args.columns), target="cpu"),
    }
    selected = programs["top_k (selection)"](x)
    sorted_ = programs["top_k (sort + slice)"](x)
    for a, b in zip(selected, sorted_, strict=True):
        assert np.array_equal(a, b), "the selection and the sort disagree"
    times = {name: median_ms(f, x, args.repeat) for name, f in programs.items()}
    shape = f"{args.rows}x{args.columns} f32, k = {args.k}"
    print(f"top_k on cpu, {shape} (median of {args.repeat} calls)")
    for name, ms in times.items():
        print(f"  {name:22s} {ms:9.3f} ms")
    base = times["top_k (selection)"]
    print(f"  sort + slice / selection: {times['top_k (sort + slice)'] / base:.1f}x")
    print(f"  sort / selection:         {times['sort'] / base:.1f}x")


if __name__ == "__main__":
    main()
