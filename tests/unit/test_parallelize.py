"""`parallelize` and the threaded CPU lowering: a kernel split across 1, 2, 4
or 7 threads computes every output bit for bit as the serial one (the split
only divides the iterations of the outermost parallel dimension, never an
accumulation), also when the trip count leaves a remainder or is below the
thread count, and when several Python threads call the executable at once.
The object code, with the JIT's thread runtime, needs nothing beyond libc,
libm and pthreads."""

from __future__ import annotations

import ctypes
import ctypes.util
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest
from xlir.targets.cpu.gemm_routine import called_variants
from xlir.targets.cpu.gemm_runtime import gemm_object
from xlir.targets.cpu.thread_runtime import runtime_object
from xlir.targets.target import CompileOptions

import xlir
from tests.corpus import SMALL, load_case
from tests.loop_level import loop_level
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

THREADS = [1, 2, 4, 7]

PROGRAMS = [
    "softmax_rows",  # row reductions with an epilogue (64 rows: 7 leaves 1)
    "layernorm",  # mean and variance reductions, then the normalization
    "reductions",
    "conv2d_nhwc",
    "while_loops",  # kernels launched from host loops
    "train_step_mlp",
]

# A first dimension of ceil((7 - 1) / 2) = 3 iterations from a dynamic bound
# (fewer than 4 or 7 threads), a static second one, a scalar and a constant;
# marked by hand, since `parallelize` takes a dynamic first dimension for
# small.
SMALL_TRIP = """
loop.kernel @k(%x: memref<8x5xf32>, %y: memref<8x5xf32>, %n: index, %s: f32) {
  %one = arith.constant 1.5 : f32
  loop.parallel (%i, %j) = (1, 0) to (%n, 5) step (2, 1) MARK {
    %v = loop.load %x[%i, %j] : memref<8x5xf32>
    %w = arith.mulf %v, %s : f32
    %z = arith.addf %w, %one : f32
    loop.store %z, %y[%i, %j] : memref<8x5xf32>
  }
  loop.return
}
func.func public @main(%x: memref<8x5xf32>) -> memref<8x5xf32> {
  %stream = device.default_stream
  %y = device.alloc : memref<8x5xf32>
  %n = arith.constant 7 : index
  %s = arith.constant 3.0 : f32
  device.launch @k(%x, %x, %n, %s) on %stream : memref<8x5xf32>, memref<8x5xf32>, index, f32
  device.copy device_to_device %x, %y on %stream : memref<8x5xf32>, memref<8x5xf32>
  func.return %y : memref<8x5xf32>
}
"""


def _loop_level(text: str, threads: int | None):
    """The program at the loop level; its outermost loops marked for
    `threads` threads whatever their work (None: not marked)."""
    if "loop.kernel" in text:
        module = parse_module(make_context(), text, "program")
    else:
        module = loop_level(text, "program")
    if threads is not None:
        run_pipeline(
            make_context(), module, f"parallelize{{threads={threads} min-work=0}}"
        )
    return module


def _outputs(executable, arguments) -> list[np.ndarray]:
    outputs = executable(*arguments)
    return list(outputs) if isinstance(outputs, tuple) else [outputs]


def _serial(text: str):
    """Compiled by the CPU pipeline without `parallelize`: one thread."""
    one_thread = CompileOptions(threads=1)
    executable = xlir.compile(_loop_level(text, None), target="cpu", options=one_thread)
    assert "xlir.parallel_for" not in executable.as_text()
    return executable


def _assert_identical(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_bit_for_bit(name: str) -> None:
    text = (SMALL / f"{name}.mlir").read_text()
    arguments, _ = load_case(SMALL / f"{name}.mlir")
    want = _outputs(_serial(text), arguments)
    for threads in THREADS:
        executable = xlir.compile(_loop_level(text, threads), target="cpu")
        assert "xlir.parallel_for" in executable.as_text()
        _assert_identical(_outputs(executable, arguments), want)


@pytest.mark.parametrize("threads", [0, *THREADS])
def test_trip_count_below_threads(threads: int) -> None:
    x = np.arange(40, dtype=np.float32).reshape(8, 5)
    want = x.copy()
    want[1:7:2] = want[1:7:2] * np.float32(3.0) + np.float32(1.5)
    marked = SMALL_TRIP.replace("MARK", f"attributes {{threads = {threads} : i64}}")
    executable = xlir.compile(_loop_level(marked, None), target="cpu")
    assert "xlir.parallel_for" in executable.as_text()
    np.testing.assert_array_equal(executable(x.copy()), want)
    serial = _serial(SMALL_TRIP.replace("MARK", ""))
    np.testing.assert_array_equal(serial(x.copy()), want)


def test_interpreter_ignores_the_mark() -> None:
    text = (SMALL / "softmax_rows.mlir").read_text()
    arguments, _ = load_case(SMALL / "softmax_rows.mlir")
    marked = xlir.compile(_loop_level(text, 4), target="interpreter")
    plain = xlir.compile(_loop_level(text, None), target="interpreter")
    _assert_identical(_outputs(marked, arguments), _outputs(plain, arguments))


def test_calls_from_several_python_threads() -> None:
    text = (SMALL / "softmax_rows.mlir").read_text()
    executable = xlir.compile(_loop_level(text, 0), target="cpu")
    serial = _serial(text)
    (spec,) = executable.signature.arguments
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(spec.shape).astype(np.float32) for _ in range(6)]
    results: dict[int, list[np.ndarray]] = {}

    def work(i: int) -> None:
        results[i] = [executable(inputs[i]) for _ in range(15)]

    workers = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for i in range(6):
        want = serial(inputs[i])
        for got in results[i]:
            np.testing.assert_array_equal(got, want)


def _exported(name: str, libraries: list[ctypes.CDLL]) -> bool:
    return any(hasattr(library, name) for library in libraries)


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm (binutils)")
def test_object_needs_only_libc_libm_pthread(tmp_path) -> None:
    text = (SMALL / "train_step_mlp.mlir").read_text()
    executable = xlir.compile(_loop_level(text, 0), target="cpu")
    undefined: set[str] = set()
    defined: set[str] = set()
    # the parts call each other, the thread helpers of the runtime and the
    # GEMM routine (both loaded once per process)
    gemms = {v for code in executable.objects for v in called_variants(code)}
    assert gemms, "train_step_mlp's dots call the GEMM routine"
    linked = (
        *executable.objects,
        runtime_object(),
        *(gemm_object(*variant) for variant in gemms),
    )
    for index, code in enumerate(linked):
        path = tmp_path / f"part{index}.o"
        path.write_bytes(code)
        for option, names in (("-u", undefined), ("--defined-only", defined)):
            listing = subprocess.run(
                ["nm", option, str(path)], capture_output=True, text=True, check=True
            ).stdout
            names |= {line.split()[-1] for line in listing.splitlines() if line.strip()}
    undefined -= defined
    pool = {"pthread_create", "pthread_detach", "pthread_cond_wait", "sysconf"}
    assert pool <= undefined
    libraries = [
        ctypes.CDLL(found)
        for name in ("c", "m", "pthread")
        if (found := ctypes.util.find_library(name)) is not None
    ]
    foreign = sorted(name for name in undefined if not _exported(name, libraries))
    assert not foreign, f"symbols outside libc/libm/pthread: {foreign}"


# Run in a process of its own: its address space is then capped just above
# what it uses, so `pthread_create` cannot map a thread's stack (the cap
# holds for root too). With room for no stack no thread starts and the
# calling thread takes every grain; with room for a few, the pool runs with
# the threads that started.
FAILED_SPAWNS = """
import resource, sys, threading
import numpy as np
import xlir
from xlir.context import make_context
from xlir.parsing import parse_module

stacks = int(sys.argv[1])
text = '''
loop.kernel @k(%x: memref<700xf32>, %y: memref<700xf32>) {
  %s = arith.constant 3.0 : f32
  loop.parallel (%i) = (0) to (700) step (1) attributes {threads = 7 : i64} {
    %v = loop.load %x[%i] : memref<700xf32>
    %w = arith.mulf %v, %s : f32
    loop.store %w, %y[%i] : memref<700xf32>
  }
  loop.return
}
func.func public @main(%x: memref<700xf32>) -> memref<700xf32> {
  %stream = device.default_stream
  %y = device.alloc : memref<700xf32>
  device.launch @k(%x, %y) on %stream : memref<700xf32>, memref<700xf32>
  func.return %y : memref<700xf32>
}
'''
executable = xlir.compile(parse_module(make_context(), text, "k"), target="cpu")
x = np.arange(700, dtype=np.float32)
want = x * np.float32(3.0)
stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
stack = stack if 0 < stack < 1 << 30 else 8 << 20
with open("/proc/self/statm") as statm:
    used = int(statm.read().split()[0]) * resource.getpagesize()
room = used + stacks * (stack + (1 << 16)) + (4 << 20)
resource.setrlimit(resource.RLIMIT_AS, (room, resource.getrlimit(resource.RLIMIT_AS)[1]))
if stacks == 0:
    try:
        threading.Thread(target=lambda: None).start()
        sys.exit("a thread started: the cap does not stop pthread_create here")
    except RuntimeError:
        pass
for _ in range(3):
    np.testing.assert_array_equal(executable(x), want)
print("ok")
"""


@pytest.mark.parametrize("stacks", [0, 3])
def test_threads_that_fail_to_start(stacks: int) -> None:
    result = subprocess.run(
        [sys.executable, "-c", FAILED_SPAWNS, str(stacks)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
