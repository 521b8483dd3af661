"""xlir's cpu target against numpy and XLA:CPU on the bench corpus.

Side by side in one process on one machine, because the recorded baselines
(bench/xla_cpu_baselines.json) come from another machine.

    python benchmarks/run.py [--programs gelu_1m,matmul_512] [--repeat N] [--seed S]

For every bench program (`bench/*.mlir`) all three run on the same seeded
random inputs: `interpreter_bench.make_inputs` (shapes and dtypes from the
signature, integer inputs in the ranges the programs expect), with weights
and biases scaled as the corpus draws them (`WEIGHT_ARGUMENTS`). Columns:

* `xlir ms`: median call of `xlir.compile(text, target="cpu")`, writing into
  preallocated outputs (`out=`). Its outputs are checked against the
  interpreter (`target="interpreter"`) on the same inputs, within the corpus
  tolerances (tests/corpus.py) with atol scaled to each output's magnitude
  (`output_scale`); a mismatch or a failed compile is flagged in the row and
  printed in full below the table, and the program is left out of the means.
* `numpy ms`: the hand-written version in numpy_programs.py, checked against
  the interpreter on the small version's corpus inputs (corpus tolerances as
  they are) and on these inputs (as xlir is).
* `xla ms`: the same StableHLO text compiled by XLA:CPU through jaxlib
  (`Client.compile_and_load`), called on device-resident inputs; its outputs
  are checked as xlir's are. The XLA columns are skipped when jax is not
  installed (`pip install -e '.[bench]'`).
* `x/numpy`, `x/xla`: xlir's time over the others' (below 1: xlir is faster),
  then the geometric means of both.
* `cold ms`: xlir compile into an empty cache (`XLIR_CACHE_DIR` is a fresh
  temporary folder each time); `cached ms`: the second compile of the same
  text; `xla cmp ms`: XLA's compile of the text. Both compile times are the
  median of `--compiles` (5) compiles, xlir's and XLA's taken in turn, so
  a slow spell of the shared machine hits both rather than one row of one
  (single compiles moved 1.5x between runs). One throwaway compile of a
  tiny program first pays each compiler's one-time start-up. Below the
  table: the medians over the programs of both cold times, and their
  ratio.

Then the machine: memory bandwidth (a numpy triad `a = b + s*c` on 64 MiB
float32 arrays, done in cache-sized blocks so the `s*c` temporary stays in
cache; STREAM's byte count, 3 x 64 MiB per pass) and numpy's float32
2048^3 matmul GFLOP/s. Against those: the bandwidth xlir reaches on the
elementwise chains (argument plus result bytes per call) and xlir's
GFLOP/s on matmul_512.

Nothing is pinned: numpy's BLAS and XLA use the threads they find. On a
shared or oversubscribed machine, threaded BLAS can slow down many times
over; set OPENBLAS_NUM_THREADS=1 there. Timings are the median of `--repeat`
calls after two warm-up calls, taken in rounds that call numpy, xlir and
XLA once each, so that a slow spell of a shared machine hits all three.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.corpus

from interpreter_bench import BENCH, make_inputs
from numpy_programs import NUMPY_PROGRAMS

import xlir
from tests.corpus import SMALL, TOLERANCES, assert_matches, load_case

try:
    import jax
    from jax._src.lib import xla_client
    from jax.extend.backend import get_backend
except ImportError:
    jax = None

STREAMING = ("gelu_1m", "fma_xyz_1m", "chain10_1m")
"""The elementwise chains: memory-bound, measured against the triad."""

MATMUL = "matmul_512"
"""Measured against numpy's sgemm."""

WEIGHT_ARGUMENTS = {
    "mlp_fwd": (1, 3, 5),
    "train_step_mlp": (0, 2, 4),
    "conv2d_nhwc": (1,),
    "while_loops": (1,),
}
"""Arguments drawn as the corpus draws weights: scaled by 1/sqrt(fan_in) (the
product of all dimensions but the last), which keeps activations of order 1.
Unscaled, train_step_mlp's logits saturate its softmax and while_loops
iterates a map that amplifies rounding, so that no two float32
implementations agree within any tolerance."""

BIAS_ARGUMENTS = {"mlp_fwd": (2, 4, 6), "train_step_mlp": (1, 3, 5)}
"""Scaled by 0.01, as the corpus draws biases."""

TRIAD_ARRAY_BYTES = 64 * 2**20
TRIAD_BLOCK = 2**17
"""Elements per block of the triad (512 KiB per array, within L2)."""

SGEMM_SIZE = 2048

WARMUP = """func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = stablehlo.add %x, %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
"""
"""A tiny program compiled once before timing compiles."""


def median_ms(call: Callable[[], object], repeat: int, warmup: int = 2) -> float:
    return interleaved_medians_ms({"call": call}, repeat, warmup)["call"]


def interleaved_medians_ms(
    calls: dict[str, Callable[[], object]], repeat: int, warmup: int = 2
) -> dict[str, float]:
    """The median time of each call over `repeat` rounds, each round calling
    every one once in turn: on a shared machine whose speed drifts, all sides
    then meet the same conditions, where timing one side after the other
    would give one of them a slow spell the others miss."""
    for _ in range(warmup):
        for call in calls.values():
            call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) * 1e3 for name, t in times.items()}


def timed_ms(call: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    value = call()
    return value, (time.perf_counter() - start) * 1e3


def as_tuple(results: object) -> tuple[np.ndarray, ...]:
    if isinstance(results, tuple | list):
        return tuple(np.asarray(r) for r in results)
    return (np.asarray(results),)


def output_scale(want: np.ndarray) -> float:
    """A power of two at or above the RMS of a float output, at least 1.

    The corpus tolerances are for outputs of order 1 (the small inputs are
    normalised to keep them so). At bench sizes, on unscaled inputs, a
    contraction's outputs grow with the square root of its length, and so
    do the rounding differences of any float32 order of summation; dividing
    got and want by this scale keeps rtol and scales atol with the output."""
    finite = want[np.isfinite(want)].astype(np.float64)
    rms = float(np.sqrt(np.mean(finite * finite))) if finite.size else 0.0
    return 2.0 ** math.ceil(math.log2(max(rms, 1.0)))


def mismatch(
    small_name: str,
    got: object,
    expected: Sequence[np.ndarray],
    scaled: bool = False,
) -> str:
    """Why `got` differs from `expected` beyond the program's tolerances
    (`assert_matches`), or "" where it does not. `scaled`: atol relative to
    each float output's scale (`output_scale`)."""
    results, wants = list(as_tuple(got)), list(expected)
    exact = TOLERANCES[small_name]["exact_outputs"]
    scales = []
    for index, want in enumerate(wants):
        if scaled and want.dtype.kind == "f" and index not in exact:
            scale = want.dtype.type(output_scale(want))
            if scale != 1:
                results[index], wants[index] = results[index] / scale, want / scale
                scales.append(f"out{index} / {scale:g}")
    try:
        assert_matches(small_name, tuple(results), wants)
    except AssertionError as error:
        shown = f"(compared as {', '.join(scales)})\n" if scales else ""
        return shown + (str(error).strip() or "outputs differ")
    return ""


class XlaCpu:
    """XLA:CPU through jaxlib, compiling StableHLO text directly."""

    def __init__(self) -> None:
        assert jax is not None
        self.backend = get_backend("cpu")
        self.device = self.backend.devices()[0]
        self.devices = xla_client.DeviceList((self.device,))

    def compile(self, text: str):
        return self.backend.compile_and_load(
            text, self.devices, xla_client.CompileOptions()
        )

    def caller(self, executable, arrays: Sequence[np.ndarray]) -> Callable[[], list]:
        """A call on device-resident copies of `arrays` that waits for the
        results."""
        arguments = [jax.device_put(a, self.device) for a in arrays]

        def call() -> list:
            results = executable.execute(arguments)
            for result in results:
                result.block_until_ready()
            return results

        return call


@dataclass
class Row:
    name: str
    small_name: str
    xlir_ms: float | None = None
    numpy_ms: float | None = None
    xla_ms: float | None = None
    cold_ms: float | None = None
    cached_ms: float | None = None
    xla_compile_ms: float | None = None
    streamed_bytes: int = 0
    flops: int = 0
    xlir_ok: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.xlir_ms is None:
            return "XLIR FAILED"
        if not self.xlir_ok:
            return "XLIR MISMATCH"
        return "ok" if not self.problems else "ok (notes below)"


def bench_inputs(path: Path, small_name: str, signature, seed: int) -> list[np.ndarray]:
    arrays = make_inputs(path.stem, signature, np.random.default_rng(seed))
    for index in WEIGHT_ARGUMENTS.get(small_name, ()):
        fan_in = math.prod(arrays[index].shape[:-1])
        arrays[index] = arrays[index] * np.float32(1 / math.sqrt(fan_in))
    for index in BIAS_ARGUMENTS.get(small_name, ()):
        arrays[index] = arrays[index] * np.float32(0.01)
    return arrays


def check_numpy_on_corpus(small_name: str) -> str:
    """The numpy version against the interpreter on small/NAME.npz's inputs."""
    path = SMALL / f"{small_name}.mlir"
    arguments, _ = load_case(path)
    reference = as_tuple(
        xlir.compile(path.read_text(), target="interpreter")(*arguments)
    )
    return mismatch(small_name, NUMPY_PROGRAMS[small_name](*arguments), reference)


def run_program(
    path: Path,
    small_name: str,
    args: argparse.Namespace,
    xla: XlaCpu | None,
    cache_root: str,
) -> Row:
    row = Row(path.stem, small_name)
    text = path.read_text()
    interpreter = xlir.compile(text, target="interpreter")
    signature = interpreter.signature
    arrays = bench_inputs(path, small_name, signature, args.seed)
    expected = as_tuple(interpreter(*arrays))
    row.streamed_bytes = sum(
        s.nbytes for s in (*signature.arguments, *signature.results)
    )
    if path.stem == MATMUL:
        (m, k), (_, n) = (a.shape for a in signature.arguments)
        row.flops = 2 * m * n * k

    numpy_program = NUMPY_PROGRAMS[small_name]
    if problem := check_numpy_on_corpus(small_name):
        row.problems.append(f"numpy MISMATCH on the corpus inputs: {problem}")
    if problem := mismatch(small_name, numpy_program(*arrays), expected, scaled=True):
        row.problems.append(f"numpy MISMATCH on the bench inputs: {problem}")
    calls: dict[str, Callable[[], object]] = {
        "numpy_ms": lambda: numpy_program(*arrays)
    }

    def cold_xlir() -> object:
        """A compile into a fresh, empty cache folder."""
        os.environ["XLIR_CACHE_DIR"] = tempfile.mkdtemp(dir=cache_root)
        return xlir.compile(text, target="cpu")

    compilers: dict[str, Callable[[], object]] = {"cold_ms": cold_xlir}
    if xla is not None:
        compilers["xla_compile_ms"] = lambda: xla.compile(text)
    cold: dict[str, list[float]] = {name: [] for name in compilers}
    try:
        executable, milliseconds = timed_ms(compilers["cold_ms"])
        cold["cold_ms"].append(milliseconds)
        executable, row.cached_ms = timed_ms(lambda: xlir.compile(text, target="cpu"))
        if problem := mismatch(small_name, executable(*arrays), expected, scaled=True):
            row.problems.append(f"XLIR-CPU MISMATCH against the interpreter: {problem}")
        else:
            row.xlir_ok = True
        outputs = [np.empty(r.shape, dtype=r.dtype) for r in signature.results]
        calls["xlir_ms"] = lambda: executable(*arrays, out=outputs)
    except Exception as error:
        row.problems.append(f"XLIR-CPU FAILED: {type(error).__name__}: {error}")

    if xla is not None:
        try:
            compiled, milliseconds = timed_ms(compilers["xla_compile_ms"])
            cold["xla_compile_ms"].append(milliseconds)
            call = xla.caller(compiled, arrays)
            if problem := mismatch(small_name, call(), expected, scaled=True):
                row.problems.append(f"XLA differs from the interpreter: {problem}")
            calls["xla_ms"] = call
        except Exception as error:
            row.problems.append(f"XLA FAILED: {type(error).__name__}: {error}")
    for name, milliseconds in interleaved_medians_ms(calls, args.repeat).items():
        setattr(row, name, milliseconds)
    for _ in range(args.compiles - 1):  # in turn, as the calls are timed
        for name, compiler in compilers.items():
            if cold[name]:  # it compiled the first time
                cold[name].append(timed_ms(compiler)[1])
    for name, times in cold.items():
        setattr(row, name, statistics.median(times) if times else None)
    return row


def figure(value: float | None, width: int, digits: int = 3) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def geometric_mean(values: Sequence[float]) -> float | None:
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


HEADER = (
    f"{'program':<24} {'xlir ms':>9} {'numpy ms':>9} {'xla ms':>9} {'x/numpy':>8} "
    f"{'x/xla':>8} {'cold ms':>8} {'cached ms':>9} {'xla cmp ms':>10}  check"
)


def print_row(row: Row) -> None:
    print(
        f"{row.name:<24} {figure(row.xlir_ms, 9)} {figure(row.numpy_ms, 9)} "
        f"{figure(row.xla_ms, 9)} {figure(ratio(row.xlir_ms, row.numpy_ms), 8, 2)} "
        f"{figure(ratio(row.xlir_ms, row.xla_ms), 8, 2)} {figure(row.cold_ms, 8, 1)} "
        f"{figure(row.cached_ms, 9, 1)} {figure(row.xla_compile_ms, 10, 1)}  {row.status}",
        flush=True,
    )


def triad_gbps(repeat: int) -> float:
    count = TRIAD_ARRAY_BYTES // 4
    rng = np.random.default_rng(0)
    b = rng.standard_normal(count, dtype=np.float32)
    c = rng.standard_normal(count, dtype=np.float32)
    a = np.empty_like(b)
    scaled = np.empty(TRIAD_BLOCK, dtype=np.float32)
    s = np.float32(3.0)

    def triad() -> None:
        for start in range(0, count, TRIAD_BLOCK):
            block = slice(start, start + TRIAD_BLOCK)
            np.multiply(c[block], s, out=scaled)
            np.add(b[block], scaled, out=a[block])

    return 3 * TRIAD_ARRAY_BYTES / median_ms(triad, repeat) / 1e6


def sgemm_gflops(repeat: int) -> float:
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((SGEMM_SIZE,) * 2, dtype=np.float32) for _ in range(2))
    c = np.empty_like(a)
    milliseconds = median_ms(lambda: np.matmul(a, b, out=c), repeat, warmup=1)
    return 2 * SGEMM_SIZE**3 / milliseconds / 1e6


def print_compile_times(rows: Sequence[Row]) -> None:
    """The medians over the programs of the cold compile times, and the
    slowest cached compile."""
    cold = [r.cold_ms for r in rows if r.cold_ms is not None]
    xla = [r.xla_compile_ms for r in rows if r.xla_compile_ms is not None]
    cached = [r.cached_ms for r in rows if r.cached_ms is not None]
    if not cold:
        return
    line = f"cold compile, median over programs: xlir {statistics.median(cold):.1f} ms"
    if xla:
        xla_median = statistics.median(xla)
        line += (
            f", XLA {xla_median:.1f} ms ({statistics.median(cold) / xla_median:.2f}x)"
        )
    print(line)
    print(f"cached compile: at most {max(cached):.1f} ms")


def print_machine(rows: Sequence[Row], repeat: int) -> None:
    bandwidth = triad_gbps(repeat)
    gflops = sgemm_gflops(max(3, repeat // 4))
    print(f"\nmemory bandwidth (numpy triad, 3 x 64 MiB f32): {bandwidth:.1f} GB/s")
    print(f"matmul (numpy f32 {SGEMM_SIZE}^3): {gflops:.1f} GFLOP/s")
    for row in rows:
        if row.xlir_ms is None or not row.xlir_ok:
            continue
        if row.name in STREAMING:
            achieved = row.streamed_bytes / row.xlir_ms / 1e6
            print(
                f"  {row.name:<22} xlir {achieved:6.1f} GB/s = "
                f"{achieved / bandwidth:.2f} of the triad "
                f"({row.streamed_bytes / 2**20:.0f} MiB a call: above 1, it stays in cache)"
            )
        elif row.name == MATMUL:
            achieved = row.flops / row.xlir_ms / 1e6
            print(
                f"  {row.name:<22} xlir {achieved:6.1f} GFLOP/s = "
                f"{achieved / gflops:.2f} of numpy's sgemm"
            )


def selected_programs(wanted: str | None) -> list[tuple[Path, str]]:
    """The bench programs asked for (bench or small names), with their small
    names."""
    baselines = json.loads((BENCH / "xla_cpu_baselines.json").read_text())["programs"]
    programs = [
        (path, Path(baselines[path.stem]["small_version"]).name.split(".")[0])
        for path in sorted(BENCH.glob("*.mlir"))
        if not path.name.endswith(".export.mlir")
    ]
    if not wanted:
        return programs
    names = set(wanted.split(","))
    unknown = names - {p.stem for p, _ in programs} - {s for _, s in programs}
    if unknown:
        known = ", ".join(p.stem for p, _ in programs)
        raise SystemExit(
            f"unknown program(s) {', '.join(sorted(unknown))}; known: {known}"
        )
    return [(p, s) for p, s in programs if p.stem in names or s in names]


def print_notes(xla: XlaCpu | None, repeat: int) -> None:
    versions = f"numpy {np.__version__}"
    if jax is not None:
        versions += f", jax {jax.__version__}"
    print(f"# {versions}, {os.cpu_count()} cpu(s), median of {repeat} calls")
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    if threads is None:
        print(
            f"# note: OPENBLAS_NUM_THREADS is unset: numpy's BLAS may use all {os.cpu_count()} cpus"
        )
    else:
        print(f"# OPENBLAS_NUM_THREADS={threads}")
    if os.environ.get("XLIR_CACHE") == "0":
        print("# note: XLIR_CACHE=0: the cached compile is a second cold compile")
    if xla is None:
        print("# note: jax is not importable: the XLA columns are skipped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", help="comma-separated bench or small names")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument(
        "--compiles", type=int, default=5, help="cold compiles of each program"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    programs = selected_programs(args.programs)
    cache = tempfile.mkdtemp(prefix="xlir-bench-cache-")
    os.environ["XLIR_CACHE_DIR"] = cache
    try:
        xla = XlaCpu() if jax is not None else None
        print_notes(xla, args.repeat)
        xlir.compile(WARMUP, target="cpu")
        if xla is not None:
            xla.compile(WARMUP)
        print(HEADER)
        print("-" * len(HEADER))
        rows = []
        for path, small_name in programs:
            rows.append(run_program(path, small_name, args, xla, cache))
            print_row(rows[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print("-" * len(HEADER))
    correct = [r for r in rows if r.xlir_ok and r.xlir_ms is not None]
    for label, other in (("numpy", "numpy_ms"), ("xla", "xla_ms")):
        ratios = [ratio(r.xlir_ms, getattr(r, other)) for r in correct]
        present = [r for r in ratios if r is not None]
        mean = geometric_mean(present)
        if mean is not None:
            print(
                f"geometric mean xlir/{label}: {mean:.2f} over {len(present)} program(s)"
            )
    print_compile_times(correct)
    print_machine(rows, args.repeat)
    problems = [(r.name, p) for r in rows for p in r.problems]
    for name, problem in problems:
        print(f"\n!!! {name}: {problem}")
    failing = [r.name for r in rows if r.xlir_ms is None or not r.xlir_ok]
    if failing:
        print(
            f"\n!!! xlir-cpu failed or mismatched on {len(failing)} program(s): {', '.join(failing)}"
        )
        raise SystemExit(1)


if __name__ == "__main__":
    main()
