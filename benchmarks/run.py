"""xlir's cpu target against XLA:CPU, IREE and numpy, on the bench corpus or
the broad one.

Side by side in one process on one machine, because the recorded baselines
(bench/xla_cpu_baselines.json) come from another machine.

    python benchmarks/run.py [--corpus original|broad] [--programs a,b]
                             [--repeat N] [--compiles N] [--seed S] [--one-thread]
                             [--compile-only]

`--corpus original` (the default) runs the 18 programs of
`../shared/corpus/bench` on the same seeded random inputs:
`interpreter_bench.make_inputs` (shapes and dtypes from the signature,
integer inputs in the ranges the programs expect), with weights and biases
scaled as the corpus draws them (`WEIGHT_ARGUMENTS`); the reference outputs
are the interpreter's (`target="interpreter"`), compared within the corpus
tolerances (tests/corpus.py) with atol scaled to each output's magnitude
(`output_scale`). `--corpus broad` runs `benchmarks/broad/bench`
(`python benchmarks/broad_corpus.py` makes it) on its stored inputs,
against JAX's stored outputs (`broad_tolerance`, tests/e2e/jax_corpus_check.py,
atol scaled as for the original corpus); a system whose outputs differ
from JAX's but match the interpreter's (run then, on the same inputs) is
counted correct and the difference noted below the table, since XLA
rewrites some programs inexactly.
Columns:

* `xlir`: median call of `xlir.compile(text, target="cpu")`, writing into
  preallocated outputs (`out=`). A mismatch or a failed compile is flagged
  in the row, printed in full below the table, and leaves the program out
  of the means.
* `xla`: the same StableHLO text compiled by XLA:CPU through jaxlib
  (`Client.compile_and_load`), called on device-resident inputs. Skipped
  without jax (`pip install -e '.[bench]'`).
* `iree`: the same text compiled by IREE (`iree-base-compiler`, the `iree`
  extra) for llvm-cpu as its CPU deployment guide recommends
  (`IREE_FLAGS`: the host's CPU, -O2, data tiling), run by its local-task
  driver on device-resident inputs. Its failures are listed with their
  first line. Skipped without IREE.
* `numpy` (original corpus only): the hand-written version in
  numpy_programs.py, checked against the interpreter on the small
  version's corpus inputs (corpus tolerances as they are) and on these
  inputs (as xlir is).
* `x/best`, `x/xla`, `x/iree`: xlir's time over the best peer's (XLA or
  IREE, whichever is faster and correct), XLA's and IREE's (below 1: xlir
  is faster); below the table their geometric means over the programs
  every system ran correctly, and the programs above 1.25x the best peer.
* `cold`: xlir's compile with its compilation cache off (`XLIR_CACHE=0`:
  nothing looked up or written, as XLA and IREE keep no cache here);
  `cached`: xlir's compile from a cache one untimed compile filled (a
  fresh folder); `xla cmp`, `iree cmp`: XLA's and IREE's compiles of the
  text. The compile times are wall times (`--compile-only` adds CPU
  times), each the median of `--compiles` (5) compiles, the
  compilers taken in turn, so a slow spell of the shared machine hits all
  rather than one row of one (single compiles moved 1.5x between runs).
  One throwaway compile of a tiny program first pays each compiler's
  one-time start-up. Below the table: the medians over the programs of the
  cold times, their ratios, and the largest xlir/XLA ratio of one program.

What a compile time covers (`timed_compile`), the same for each compiler:
the call from StableHLO text to something runnable (xlir's loaded
executable, XLA's loaded executable, IREE's VM module bytes; JAX's tracing
and lowering are not in it, the text is given, and JAX's persistent cache
is not on this path), plus collecting the garbage it left: xlir pauses
Python's cycle collector while it compiles, and unpaid, its garbage would
be collected (and timed) in whatever ran next, perhaps another compiler's
compile. Garbage from before is collected first and the objects alive
then are frozen (`gc.freeze`), untimed, so that the collection costs what
the compile left rather than a scan of every object in the process (JAX's,
and the many xlir keeps after its first compile). Each compiler
uses the threads it uses by default (xlir's code generation workers, one
per core; XLA's compile thread pool; IREE's compiler), and CPU time counts
them all; IREE's compiler runs as a child process, so its process start is
in its times.

`--compile-only` makes no inputs and runs nothing: per program, the median
of `--compiles` cold compiles by each compiler in turn, as CPU time of this
process and its children (all threads, so a compiler's worker threads count
and a busy machine's waiting does not) and as wall time, and xlir's cached
compile (CPU). Below: per peer, the medians of the CPU and wall times and
of xlir's ratio to the peer, and the programs above `COMPILE_OUTLIER` times
the peer's (CPU). On a shared machine the CPU time is the steadier figure;
where the cores are free, the wall time is what a user waits.

Then (original corpus) the machine: memory bandwidth (a numpy triad
`a = b + s*c` on 64 MiB float32 arrays, done in cache-sized blocks so the
`s*c` temporary stays in cache; STREAM's byte count, 3 x 64 MiB per pass)
and numpy's float32 2048^3 matmul GFLOP/s. Against those: the bandwidth xlir
reaches on the elementwise chains (argument plus result bytes per call) and
xlir's GFLOP/s on matmul_512.

Threads: by default each system uses what it finds (xlir one thread per
core online in its parallel loops, XLA:CPU its intra-op pool, IREE's
local-task driver one worker per core: `--task_topology_group_count`,
numpy's BLAS its own); the header says how many. `--one-thread` runs all on
one: the process runs on one CPU (`sched_setaffinity`, before XLA
starts: XLA:CPU sizes its intra-op pool by the CPUs the process may use,
and its flags `--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1`, which it is given too, left dense_gelu's
dot on two threads and a third: 24 ms of CPU in 13 ms), xlir with
`CompileOptions(threads=1)`, IREE with its local-sync driver (on the
calling thread), numpy with `OPENBLAS_NUM_THREADS=1`; compiles keep their
threads but share the one CPU (their wall times are one CPU's). On a
shared or oversubscribed machine threaded BLAS can slow down many times
over; set OPENBLAS_NUM_THREADS=1 there.
OpenBLAS's threads spin for about 2^28 cycles (0.1 s) after each call
before they sleep, which would hold a core through the next system's call
(xlir's, the one after numpy in each round) and leave its threads one core;
`OPENBLAS_THREAD_TIMEOUT=4` (unless set) puts them to sleep at once.
Timings are the median of `--repeat` calls after two warm-up calls, taken
in rounds that call each system once, so that a slow spell of a shared
machine hits all of them; the header prints the load average.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.metadata
import math
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ONE_THREAD = "--one-thread" in sys.argv
"""Read before numpy and XLA start, which fix their thread counts then."""
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")  # read when numpy loads
os.environ.setdefault("XLIR_VERIFY_EACH", "0")
"""Compiles as users run them: tests.corpus imports tests/conftest.py, which
turns on the test suite's verification after every pass (einsum_row_dot's
cold compile 43 -> 80 ms CPU), unless the environment says otherwise."""
if ONE_THREAD:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # XLA's pool: below
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.corpus

from interpreter_bench import BENCH, make_inputs  # noqa: E402
from numpy_programs import NUMPY_PROGRAMS  # noqa: E402
from xlir.targets.target import CompileOptions  # noqa: E402
from xlir.tools.compare import compare  # noqa: E402

import xlir  # noqa: E402
from tests.corpus import SMALL, TOLERANCES, assert_matches, load_case  # noqa: E402
from tests.e2e.jax_corpus_check import broad_tolerance  # noqa: E402
from xlir.element_dtypes import from_void  # noqa: E402

try:
    import jax
    from jax._src.lib import xla_client
    from jax.extend.backend import get_backend
except ImportError:
    jax = None

try:
    import iree.compiler as iree_compiler
    import iree.runtime as iree_runtime
except ImportError:
    iree_compiler = iree_runtime = None

BROAD_BENCH = Path(__file__).resolve().parent / "broad" / "bench"
"""The broad corpus's bench programs with their data (benchmarks/broad_corpus.py)."""

IREE_FLAGS = (
    "--iree-llvmcpu-target-cpu=host",
    "--iree-opt-level=O2",
    "--iree-opt-data-tiling",
)
"""IREE's CPU deployment guide's configuration."""

IREE_QUIET = ("--iree-global-opt-enable-warn-on-uninitialized-values=false",)
"""Off: a warning IREE prints for JAX's select_and_scatter (max-pool
gradients), which would break up the table; it changes no code."""

SLOWER_THAN_BEST = 1.25
"""A program where xlir takes longer than this times the best peer is listed."""

COMPILE_OUTLIER = 3.0
"""A program whose cold compile takes longer than this times a peer's is
listed (`--compile-only`)."""

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


def as_tuple(results: object) -> tuple[np.ndarray, ...]:
    if isinstance(results, tuple | list):
        return tuple(as_host(r) for r in results)
    return (as_host(results),)


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


def as_host(result: object) -> np.ndarray:
    """A peer's output as a numpy array (IREE's device arrays copied out)."""
    to_host = getattr(result, "to_host", None)
    return np.asarray(to_host() if to_host is not None else result)


class XlaCpu:
    """XLA:CPU through jaxlib, compiling StableHLO text directly."""

    name = "xla"

    def __init__(self) -> None:
        assert jax is not None
        self.backend = get_backend("cpu")
        self.device = self.backend.devices()[0]
        self.devices = xla_client.DeviceList((self.device,))

    def threads(self) -> str:
        if ONE_THREAD:
            return "1 (the process on one CPU; XLA_FLAGS: no multi-threaded Eigen)"
        return f"its intra-op pool (one thread per core: {os.cpu_count()})"

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


class Iree:
    """IREE's llvm-cpu compiler (`IREE_FLAGS`) and its runtime: local-task
    with one worker per core, or local-sync (the calling thread) with
    --one-thread."""

    name = "iree"

    def __init__(self) -> None:
        assert iree_runtime is not None
        self.workers = 1 if ONE_THREAD else os.cpu_count() or 1
        if not ONE_THREAD:
            iree_runtime.flags.parse_flags(
                f"--task_topology_group_count={self.workers}"
            )
        self.config = iree_runtime.Config("local-sync" if ONE_THREAD else "local-task")

    def threads(self) -> str:
        if ONE_THREAD:
            return "1 (local-sync driver: the calling thread)"
        return f"{self.workers} (local-task driver, --task_topology_group_count)"

    def compile(self, text: str) -> bytes:
        assert iree_compiler is not None
        return iree_compiler.compile_str(
            text,
            target_backends=["llvm-cpu"],
            input_type="stablehlo",
            extra_args=[*IREE_FLAGS, *IREE_QUIET],
        )

    def caller(self, vmfb: bytes, arrays: Sequence[np.ndarray]) -> Callable[[], object]:
        """A call of @main on device-resident copies of `arrays`; IREE's
        Python calls return when the results are ready."""
        assert iree_runtime is not None
        context = iree_runtime.SystemContext(config=self.config)
        module = iree_runtime.VmModule.copy_buffer(context.instance, vmfb)
        context.add_vm_module(module)
        function = context.modules[module.name]["main"]
        arguments = [iree_runtime.asdevicearray(self.config.device, a) for a in arrays]
        return lambda: function(*arguments)


Peer = XlaCpu | Iree


@dataclass
class Case:
    """One bench program: its text, inputs, the reference outputs and how
    outputs are compared with them."""

    name: str
    text: str
    arrays: list[np.ndarray]
    expected: tuple[np.ndarray, ...]
    mismatch: Callable[[object], str]
    """Why outputs differ from `expected` beyond the tolerance, or ""."""
    small_name: str | None = None
    """The original corpus's small name (which has a numpy version)."""
    spec_mismatch: Callable[[object], str] | None = None
    """Broad corpus: why outputs differ from the interpreter's on the same
    inputs, or "" — asked only of outputs that differ from JAX's, since
    XLA may rewrite a program inexactly (int8_dense: `x / s` as
    `x * (1 / s)`, so a quantized value rounds the other way)."""


def original_case(path: Path, small_name: str, seed: int) -> Case:
    """Seeded random inputs, the interpreter's outputs as the reference."""
    text = path.read_text()
    interpreter = xlir.compile(text, target="interpreter")
    arrays = bench_inputs(path, small_name, interpreter.signature, seed)
    expected = as_tuple(interpreter(*arrays))
    return Case(
        path.stem,
        text,
        arrays,
        expected,
        lambda got: mismatch(small_name, got, expected, scaled=True),
        small_name,
    )


def broad_case(path: Path) -> Case:
    """The stored inputs, JAX's stored outputs as the reference; float
    outputs compared as the original corpus's (`output_scale`)."""
    text = path.read_text()
    signature = xlir.compile(text, target="interpreter").signature
    data = np.load(path.with_suffix(".npz"))
    count = {p: sum(k.startswith(p) for k in data.files) for p in ("arg", "out")}
    arrays = [
        from_void(data[f"arg{i}"], spec.dtype)
        for i, spec in zip(range(count["arg"]), signature.arguments, strict=True)
    ]
    expected = tuple(
        from_void(data[f"out{i}"], spec.dtype)
        for i, spec in zip(range(count["out"]), signature.results, strict=True)
    )

    def differs(got: object, reference: tuple[np.ndarray, ...] = expected) -> str:
        results = [
            as_host(r) for r in (got if isinstance(got, tuple | list) else [got])
        ]
        if len(results) != len(reference):
            return f"{len(results)} outputs, expected {len(reference)}"
        for index, (result, want) in enumerate(zip(results, reference, strict=True)):
            if want.dtype == np.bool_ and result.dtype != np.bool_:
                result = result.astype(np.bool_)  # IREE's i1 comes out as bytes
            if want.dtype.kind == "f":
                scale = want.dtype.type(output_scale(want.astype(np.float32)))
                result, want = result / scale, want / scale
            tolerance = broad_tolerance(path.stem, want.dtype)
            ok, verdict = compare(result, want, tolerance)
            if not ok:
                return f"out{index}: {verdict}"
        return ""

    @functools.cache
    def interpreted() -> tuple[np.ndarray, ...]:
        return as_tuple(xlir.compile(text, target="interpreter")(*arrays))

    return Case(
        path.stem,
        text,
        arrays,
        expected,
        differs,
        spec_mismatch=lambda got: differs(got, interpreted()),
    )


def check(row: Row, case: Case, system: str, outputs: object) -> bool:
    """Whether `system`'s outputs match the reference; a mismatch, or an
    agreement with the interpreter where JAX's output differs, noted."""
    problem = case.mismatch(outputs)
    if not problem:
        return True
    if case.spec_mismatch is not None and not case.spec_mismatch(outputs):
        row.problems.append(
            f"{system} agrees with the interpreter; JAX's output differs: {problem}"
        )
        return True
    row.problems.append(f"{system} MISMATCH: {problem}")
    return False


@dataclass
class Row:
    name: str
    xlir_ms: float | None = None
    numpy_ms: float | None = None
    peer_ms: dict[str, float] = field(default_factory=dict)
    """Run time of each peer that compiled and matched."""
    cold_ms: float | None = None
    cached_ms: float | None = None
    compile_ms: dict[str, float] = field(default_factory=dict)
    """Each peer's compile time."""
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

    def best_peer_ms(self) -> float | None:
        return min(self.peer_ms.values(), default=None)


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


def first_line(error: Exception) -> str:
    """The error's first line, or its first diagnostic (`error: ...`) where
    it has one (IREE's compiler error starts with its command's failure)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    diagnostics = [line for line in lines if "error:" in line]
    return f"{type(error).__name__}: {(diagnostics or lines or [''])[0]}"


def run_program(
    case: Case,
    args: argparse.Namespace,
    peers: Sequence[Peer],
    cache_root: str,
) -> Row:
    row = Row(case.name)
    options = CompileOptions(threads=1) if ONE_THREAD else None
    xlir_signature = xlir.compile(case.text, target="interpreter").signature
    row.streamed_bytes = sum(
        s.nbytes for s in (*xlir_signature.arguments, *xlir_signature.results)
    )
    if case.name == MATMUL:
        (m, k), (_, n) = (a.shape for a in xlir_signature.arguments)
        row.flops = 2 * m * n * k
    arrays = case.arrays
    calls: dict[str, Callable[[], object]] = {}
    if case.small_name is not None:
        numpy_program = NUMPY_PROGRAMS[case.small_name]
        if problem := check_numpy_on_corpus(case.small_name):
            row.problems.append(f"numpy MISMATCH on the corpus inputs: {problem}")
        if problem := case.mismatch(numpy_program(*arrays)):
            row.problems.append(f"numpy MISMATCH on the bench inputs: {problem}")
        calls["numpy"] = lambda: numpy_program(*arrays)

    compilers: dict[str, Callable[[], object]] = {
        "xlir": functools.partial(cold_compile, case.text, options)
    }
    for peer in peers:
        compilers[peer.name] = functools.partial(peer.compile, case.text)
    cold: dict[str, list[float]] = {name: [] for name in compilers}
    try:
        _, _, milliseconds = timed_compile(compilers["xlir"])
        cold["xlir"].append(milliseconds)
        executable, _, row.cached_ms = cached_compile(case.text, options, cache_root)
        row.xlir_ok = check(row, case, "XLIR-CPU", executable(*arrays))
        outputs = [
            np.empty(r.shape, dtype=r.dtype) for r in executable.signature.results
        ]
        calls["xlir"] = lambda: executable(*arrays, out=outputs)
    except Exception as error:
        row.problems.append(f"XLIR-CPU FAILED: {first_line(error)}")

    for peer in peers:
        try:
            compiled, _, milliseconds = timed_compile(compilers[peer.name])
            cold[peer.name].append(milliseconds)
            call = peer.caller(compiled, arrays)
            if check(row, case, peer.name.upper(), call()):
                calls[peer.name] = call
        except Exception as error:
            row.problems.append(f"{peer.name.upper()} FAILED: {first_line(error)}")
    for name, milliseconds in interleaved_medians_ms(calls, args.repeat).items():
        if name == "xlir":
            row.xlir_ms = milliseconds
        elif name == "numpy":
            row.numpy_ms = milliseconds
        else:
            row.peer_ms[name] = milliseconds
    for _ in range(args.compiles - 1):  # in turn, as the calls are timed
        for name, compiler in compilers.items():
            if cold[name]:  # it compiled the first time
                cold[name].append(timed_compile(compiler)[2])
    for name, times in cold.items():
        if not times:
            continue
        if name == "xlir":
            row.cold_ms = statistics.median(times)
        else:
            row.compile_ms[name] = statistics.median(times)
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


NAME_WIDTH = 28
HEADER = (
    f"{'program':<{NAME_WIDTH}} {'xlir ms':>9} {'xla ms':>9} {'iree ms':>9} "
    f"{'numpy ms':>9} {'x/best':>7} {'x/xla':>6} {'x/iree':>6} {'cold ms':>8} "
    f"{'cached':>7} {'xla cmp':>8} {'iree cmp':>8} {'c/xla':>6}  check"
)


def print_row(row: Row) -> None:
    xla, iree = row.peer_ms.get("xla"), row.peer_ms.get("iree")
    print(
        f"{row.name:<{NAME_WIDTH}} {figure(row.xlir_ms, 9)} {figure(xla, 9)} "
        f"{figure(iree, 9)} {figure(row.numpy_ms, 9)} "
        f"{figure(ratio(row.xlir_ms, row.best_peer_ms()), 7, 2)} "
        f"{figure(ratio(row.xlir_ms, xla), 6, 2)} {figure(ratio(row.xlir_ms, iree), 6, 2)} "
        f"{figure(row.cold_ms, 8, 1)} {figure(row.cached_ms, 7, 1)} "
        f"{figure(row.compile_ms.get('xla'), 8, 1)} "
        f"{figure(row.compile_ms.get('iree'), 8, 1)} "
        f"{figure(ratio(row.cold_ms, row.compile_ms.get('xla')), 6, 2)}  {row.status}",
        flush=True,
    )


def print_speed(rows: Sequence[Row], peers: Sequence[Peer]) -> None:
    """Geometric means of xlir's time over each peer's and over the best
    one's, and the programs where xlir is slowest against the best."""
    correct = [r for r in rows if r.xlir_ok and r.xlir_ms is not None]
    for label in ["numpy", *(p.name for p in peers)]:
        ratios = [
            ratio(r.xlir_ms, r.numpy_ms if label == "numpy" else r.peer_ms.get(label))
            for r in correct
        ]
        present = [x for x in ratios if x is not None]
        if present:
            print(
                f"geometric mean xlir/{label}: {geometric_mean(present):.2f} "
                f"over {len(present)} program(s)"
            )
    if not peers:
        return
    everyone = [r for r in correct if len(r.peer_ms) == len(peers)]
    best = [ratio(r.xlir_ms, r.best_peer_ms()) or 0.0 for r in everyone]
    if best:
        print(
            f"geometric mean xlir/best({', '.join(p.name for p in peers)}): "
            f"{geometric_mean(best):.2f} over the {len(best)} program(s) all ran"
        )
    behind = sorted(
        (
            (ratio(r.xlir_ms, r.best_peer_ms()) or 0.0, r.name)
            for r in correct
            if r.peer_ms
        ),
        reverse=True,
    )
    slow = [f"{name} {x:.2f}x" for x, name in behind if x > SLOWER_THAN_BEST]
    print(
        f"slower than {SLOWER_THAN_BEST}x the best peer: "
        + (", ".join(slow) if slow else "none")
    )


def print_compile_times(rows: Sequence[Row], peers: Sequence[Peer]) -> None:
    """The medians over the programs of the cold compile times against each
    peer's (over the programs both compiled), the largest ratio to XLA's of
    one program, and the slowest cached compile."""
    compiled = [r for r in rows if r.cold_ms is not None]
    if not compiled:
        return
    cold = [r.cold_ms for r in compiled if r.cold_ms is not None]
    print(
        f"cold compile, median over {len(cold)} programs: xlir {statistics.median(cold):.1f} ms"
    )
    for peer in peers:
        both = [r for r in compiled if peer.name in r.compile_ms]
        if not both:
            continue
        mine = statistics.median(r.cold_ms for r in both if r.cold_ms is not None)
        theirs = statistics.median(r.compile_ms[peer.name] for r in both)
        print(
            f"  over the {len(both)} {peer.name} compiled: xlir {mine:.1f} ms, "
            f"{peer.name} {theirs:.1f} ms ({mine / theirs:.2f}x)"
        )
    against_xla = [
        (ratio(r.cold_ms, r.compile_ms["xla"]) or 0.0, r.name)
        for r in compiled
        if "xla" in r.compile_ms
    ]
    if against_xla:
        worst, name = max(against_xla)
        print(f"  largest xlir/xla cold compile: {worst:.2f}x ({name})")
    cached = [r.cached_ms for r in compiled if r.cached_ms is not None]
    print(f"cached compile: at most {max(cached):.1f} ms")


@dataclass
class CompileRow:
    """One program's compile times (`--compile-only`): each compiler's
    median CPU and wall time of a cold compile, and the CPU time of xlir's
    cached one."""

    name: str
    cpu_ms: dict[str, float] = field(default_factory=dict)
    wall_ms: dict[str, float] = field(default_factory=dict)
    cached_ms: float | None = None
    failures: list[str] = field(default_factory=list)


def cpu_seconds() -> float:
    """The CPU time of this process (all its threads: xlir's code generation
    workers, XLA's compile threads) and of its finished children (IREE's
    compiler runs as one)."""
    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def timed_compile(call: Callable[[], object]) -> tuple[object, float, float]:
    """`call`'s result, and its CPU time (`cpu_seconds`) and wall time in
    milliseconds, with the collection of the garbage it left: garbage from
    before is collected first and what lives is frozen (`gc.freeze`), both
    untimed, so that no compiler pays for another's garbage (xlir pauses
    Python's cycle collector while it compiles), and the collection scans
    what the call made, not every object of the process (thawed after)."""
    gc.collect()
    gc.freeze()
    try:
        cpu, wall = cpu_seconds(), time.perf_counter()
        value = call()
        gc.collect()
        return value, (cpu_seconds() - cpu) * 1e3, (time.perf_counter() - wall) * 1e3
    finally:
        gc.unfreeze()


def cold_compile(text: str, options: CompileOptions | None) -> object:
    """xlir's cpu compile of `text` with its compilation cache off
    (`XLIR_CACHE=0`): nothing is looked up or written, as in XLA's and
    IREE's compiles here."""
    previous = os.environ.get("XLIR_CACHE")
    os.environ["XLIR_CACHE"] = "0"
    try:
        return xlir.compile(text, target="cpu", options=options)
    finally:
        if previous is None:
            del os.environ["XLIR_CACHE"]
        else:
            os.environ["XLIR_CACHE"] = previous


def cached_compile(
    text: str, options: CompileOptions | None, cache_root: str
) -> tuple[object, float, float]:
    """xlir's compile of `text` from its cache (`timed_compile`'s figures):
    a fresh cache folder under `cache_root` is filled by one compile, not
    timed, then the compile that reads it is."""
    os.environ["XLIR_CACHE_DIR"] = tempfile.mkdtemp(dir=cache_root)
    xlir.compile(text, target="cpu", options=options)
    return timed_compile(lambda: xlir.compile(text, target="cpu", options=options))


def compile_program(
    path: Path, compiles: int, peers: Sequence[Peer], cache_root: str
) -> CompileRow:
    """`compiles` cold compiles by each compiler, taken in turn, then xlir's
    compile from its cache (`cached_compile`)."""
    row = CompileRow(path.stem)
    text = path.read_text()
    options = CompileOptions(threads=1) if ONE_THREAD else None
    compilers: dict[str, Callable[[], object]] = {
        "xlir": functools.partial(cold_compile, text, options)
    }
    for peer in peers:
        compilers[peer.name] = functools.partial(peer.compile, text)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in compilers}
    for _ in range(compiles):
        for name, compiler in list(compilers.items()):
            try:
                times[name].append(timed_compile(compiler)[1:])
            except Exception as error:
                row.failures.append(f"{name.upper()} FAILED: {first_line(error)}")
                del compilers[name]
    for name, samples in times.items():
        if samples:
            row.cpu_ms[name] = statistics.median(cpu for cpu, _ in samples)
            row.wall_ms[name] = statistics.median(wall for _, wall in samples)
    if "xlir" in compilers:
        row.cached_ms = cached_compile(text, options, cache_root)[1]
    return row


COMPILE_HEADER = (
    f"{'program':<{NAME_WIDTH}} {'xlir cpu':>9} {'xla cpu':>8} {'iree cpu':>9} "
    f"{'c/xla':>6} {'xlir wall':>9} {'xla wall':>8} {'iree wall':>9} {'cached':>7}"
)


COMPILERS = (("xlir", 9), ("xla", 8), ("iree", 9))
"""The compilers of the compile table, with their columns' widths."""


def print_compile_row(row: CompileRow) -> None:
    cells = [
        f"{row.name:<{NAME_WIDTH}}",
        *(figure(row.cpu_ms.get(name), width, 1) for name, width in COMPILERS),
        figure(ratio(row.cpu_ms.get("xlir"), row.cpu_ms.get("xla")), 6, 2),
        *(figure(row.wall_ms.get(name), width, 1) for name, width in COMPILERS),
        figure(row.cached_ms, 7, 1),
    ]
    print(" ".join(cells), flush=True)


def print_compile_summary(rows: Sequence[CompileRow], peers: Sequence[str]) -> None:
    """Per peer (by name), over the programs both compiled: the medians of
    the CPU times and of the per-program ratios, the same of the wall times,
    and the programs above `COMPILE_OUTLIER` times the peer's (CPU); then
    the slowest cached compile."""
    for peer in peers:
        both = [r for r in rows if "xlir" in r.cpu_ms and peer in r.cpu_ms]
        if not both:
            continue
        ratios = sorted(
            ((r.cpu_ms["xlir"] / r.cpu_ms[peer], r.name) for r in both),
            reverse=True,
        )
        print(
            f"cold compile CPU over the {len(both)} programs {peer} compiled: "
            f"median xlir {statistics.median(r.cpu_ms['xlir'] for r in both):.1f} ms, "
            f"{peer} {statistics.median(r.cpu_ms[peer] for r in both):.1f} ms; "
            f"median ratio {statistics.median(x for x, _ in ratios):.2f}x"
        )
        print(
            f"  wall: median xlir {statistics.median(r.wall_ms['xlir'] for r in both):.1f} ms, "
            f"{peer} {statistics.median(r.wall_ms[peer] for r in both):.1f} ms; "
            "median ratio "
            f"{statistics.median(r.wall_ms['xlir'] / r.wall_ms[peer] for r in both):.2f}x"
        )
        above = [f"{name} {x:.2f}x" for x, name in ratios if x > COMPILE_OUTLIER]
        print(
            f"  above {COMPILE_OUTLIER:g}x {peer}'s: "
            + (", ".join(above) if above else "none")
        )
    cached = [r.cached_ms for r in rows if r.cached_ms is not None]
    if cached:
        print(f"cached compile (CPU): at most {max(cached):.1f} ms")


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


def original_programs() -> list[tuple[Path, str]]:
    """The bench programs of ../shared/corpus with their small names (the
    small program whose name starts the bench file's: gelu for gelu_1m)."""
    small_names = sorted(
        {p.name.split(".")[0] for p in SMALL.glob("*.mlir")}, key=len, reverse=True
    )
    return [
        (path, next(s for s in small_names if path.stem.startswith(s)))
        for path in sorted(BENCH.glob("*.mlir"))
        if not path.name.endswith(".export.mlir")
    ]


def selected(names: Sequence[str], wanted: str | None) -> set[str]:
    """The names asked for (all without `wanted`); an unknown one is an error."""
    if not wanted:
        return set(names)
    asked = set(wanted.split(","))
    if unknown := asked - set(names):
        raise SystemExit(
            f"unknown program(s) {', '.join(sorted(unknown))}; known: {', '.join(names)}"
        )
    return asked


def program_paths(corpus: str, wanted: str | None) -> list[tuple[Path, str | None]]:
    """The programs asked for (bench or small names for the original corpus),
    each with its original small name (None in the broad corpus)."""
    if corpus == "original":
        programs = original_programs()
        names = sorted({n for p, s in programs for n in (p.stem, s)})
        asked = selected(names, wanted)
        return [
            (path, small_name)
            for path, small_name in programs
            if path.stem in asked or small_name in asked
        ]
    if not BROAD_BENCH.exists():
        raise SystemExit(
            f"{BROAD_BENCH} is absent: make it with python benchmarks/broad_corpus.py"
        )
    paths = sorted(BROAD_BENCH.glob("*.mlir"))
    asked = selected([p.stem for p in paths], wanted)
    return [(path, None) for path in paths if path.stem in asked]


def cases(corpus: str, wanted: str | None, seed: int) -> Iterator[Case]:
    """The programs asked for, made one at a time (the broad corpus's data
    is large)."""
    for path, small_name in program_paths(corpus, wanted):
        if small_name is None:
            yield broad_case(path)
        else:
            yield original_case(path, small_name, seed)


def make_peers() -> tuple[list[Peer], list[str]]:
    """The peers that are installed, and a note for each that is not."""
    peers: list[Peer] = []
    notes = []
    if jax is not None:
        peers.append(XlaCpu())
    else:
        notes.append("jax is not importable: the XLA columns are skipped")
    if iree_runtime is not None:
        peers.append(Iree())
    else:
        notes.append(
            "IREE is not importable (pip install -e '.[iree]'): its columns are skipped"
        )
    return peers, notes


def print_notes(peers: Sequence[Peer], notes: Sequence[str], repeat: int) -> None:
    versions = f"numpy {np.__version__}"
    if jax is not None:
        versions += f", jax {jax.__version__}"
    if iree_compiler is not None:
        versions += f", iree {importlib.metadata.version('iree-base-compiler')}"
    cpu = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            "unknown cpu",
        )
        if Path("/proc/cpuinfo").exists()
        else "unknown cpu"
    )
    print(f"# {cpu}, {os.cpu_count()} cpu(s); {versions}; median of {repeat} calls")
    print(
        f"# load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        "# threads: xlir "
        + (
            "1 (CompileOptions(threads=1))"
            if ONE_THREAD
            else f"one per core online ({os.cpu_count()})"
        )
        + "".join(f"; {p.name} {p.threads()}" for p in peers)
    )
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    if threads is None:
        print(
            f"# note: OPENBLAS_NUM_THREADS is unset: numpy's BLAS may use all {os.cpu_count()} cpus"
        )
    else:
        print(f"# OPENBLAS_NUM_THREADS={threads}")
    print(f"# OPENBLAS_THREAD_TIMEOUT={os.environ['OPENBLAS_THREAD_TIMEOUT']}")
    if os.environ.get("XLIR_CACHE") == "0":
        print("# note: XLIR_CACHE=0: the cached compile is a second cold compile")
    for note in notes:
        print(f"# note: {note}")


def compile_only(args: argparse.Namespace, peers: Sequence[Peer], cache: str) -> None:
    """The compile table: no inputs are made, nothing runs or is checked."""
    print(COMPILE_HEADER)
    print("-" * len(COMPILE_HEADER))
    rows = []
    for path, _ in program_paths(args.corpus, args.programs):
        rows.append(compile_program(path, args.compiles, peers, cache))
        print_compile_row(rows[-1])
    print("-" * len(COMPILE_HEADER))
    print(f"# load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print_compile_summary(rows, [p.name for p in peers])
    for row in rows:
        for failure in row.failures:
            print(f"\n!!! {row.name}: {failure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus",
        choices=("original", "broad"),
        default="original",
        help="../shared/corpus/bench (default) or benchmarks/broad/bench",
    )
    parser.add_argument("--programs", help="comma-separated bench or small names")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument(
        "--compiles", type=int, default=5, help="cold compiles of each program"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--one-thread",
        action="store_true",
        help="xlir, XLA, IREE and numpy on one thread each",
    )
    parser.add_argument(
        "--compile-only",
        action="store_true",
        help="time cold and cached compiles only (CPU and wall), no runs",
    )
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="xlir-bench-cache-")
    os.environ["XLIR_CACHE_DIR"] = cache
    rows: list[Row] = []
    try:
        peers, notes = make_peers()
        print_notes(peers, notes, args.repeat)
        xlir.compile(WARMUP, target="cpu")
        for peer in peers:
            peer.compile(WARMUP)
        if args.compile_only:
            compile_only(args, peers, cache)
            return
        print(HEADER)
        print("-" * len(HEADER))
        for case in cases(args.corpus, args.programs, args.seed):
            rows.append(run_program(case, args, peers, cache))
            print_row(rows[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print("-" * len(HEADER))
    print(f"# load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print_speed(rows, peers)
    print_compile_times([r for r in rows if r.xlir_ok], peers)
    if args.corpus == "original":
        print_machine(rows, args.repeat)
    for row in rows:
        for problem in row.problems:
            print(f"\n!!! {row.name}: {problem}")
    failing = [r.name for r in rows if r.xlir_ms is None or not r.xlir_ok]
    if failing:
        print(
            f"\n!!! xlir-cpu failed or mismatched on {len(failing)} program(s): {', '.join(failing)}"
        )
        raise SystemExit(1)


if __name__ == "__main__":
    main()
