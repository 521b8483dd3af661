"""The tests every xlir target passes, usable by a target's own test suite
(in the tree or out of it) with one import:

    from xlir.testing.target_conformance import *  # noqa: F403

    TARGETS = ["my-target"]  # default: every registered target
    CORPUS = Path("shared/corpus")  # the JAX corpus (xlir.testing.corpus)
    CORPUS_PROGRAMS = ["gelu", "softmax_rows"]  # default: all of them

* The runtime contract (targets/base.py): allocate and free, copies both
  ways and on streams, parts of allocations, kernels loaded from the
  target's own image of loop-level kernels and launched on grids, events
  ordering two streams, executables that run on a stream, the `device`
  dialect's schedules run through the target's executor, diagnostics (not
  tracebacks) for misuse, and, where the target runs the files it compiles
  ahead of time, such a file loaded and run as its JIT runs the program.
* The corpus: each small program (both flavours) gives JAX's outputs
  within the corpus tolerances, or is listed in the target's known gaps
  (`Target.known_gaps().corpus`), where it must fail: a listed program
  that runs fails, so the list stays true.

`pytest_generate_tests` parametrizes `target_name` over the importing
module's `TARGETS` and `corpus_program` over its `CORPUS`'s programs (those
`CORPUS_PROGRAMS` names, where it says)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xlir
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module
from xlir.targets.aot import AotOptions
from xlir.targets.base import Event, Platform
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.registry import get_platform, get_target, target_names
from xlir.testing.corpus import Corpus, program_name

__all__ = [
    "missing_device",
    "pytest_generate_tests",
    "skip_without_device",
    "test_a_part_of_an_allocation_is_its_memory",
    "test_allocate_copy_both_ways_and_free",
    "test_compiled_files_run_as_they_are",
    "test_device_schedules_run_through_the_executor",
    "test_events_order_work_across_streams",
    "test_executables_run_on_a_stream",
    "test_known_gaps_name_corpus_programs",
    "test_launch_on_a_grid",
    "test_misuse_is_a_diagnostic",
    "test_small_program",
]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The targets and corpus programs of the importing test module."""
    if "target_name" in metafunc.fixturenames:
        names = getattr(metafunc.module, "TARGETS", None) or target_names()
        metafunc.parametrize("target_name", names)
    if "corpus_program" in metafunc.fixturenames:
        programs = _corpus(metafunc.module).programs
        chosen = getattr(metafunc.module, "CORPUS_PROGRAMS", None)
        programs = [p for p in programs if chosen is None or program_name(p) in chosen]
        metafunc.parametrize("corpus_program", programs, ids=[p.name for p in programs])


def missing_device(target: str) -> str | None:
    """Why `target` cannot run a program on this machine: its platform has
    no device (a GPU target where there is no GPU); None where it can. Such
    a target still compiles: the tests that run programs skip it, saying
    this."""
    platform = get_platform(target)
    if platform.device_count() > 0:
        return None
    why = platform.unavailable() or "its platform lists none"
    return f"target '{target}' has no device on this machine: {why}"


def skip_without_device(target: str) -> None:
    why = missing_device(target)
    if why is not None:
        pytest.skip(why)


def _platform(target: str) -> Platform:
    """The target's platform, where it has a device here (else skipped)."""
    skip_without_device(target)
    return get_platform(target)


def _corpus(module: object) -> Corpus:
    return Corpus(Path(getattr(module, "CORPUS")))  # noqa: B009 (the user's)


N = 10

KERNELS = f"""
loop.kernel @scale(%x: memref<{N}xf32>, %y: memref<{N}xf32>, %k: f32) {{
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %v = loop.load %x[%i] : memref<{N}xf32>
    %w = arith.mulf %v, %k : f32
    loop.store %w, %y[%i] : memref<{N}xf32>
  }}
  loop.return
}}
loop.kernel @add_one(%x: memref<{N}xf32>) {{
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %v = loop.load %x[%i] : memref<{N}xf32>
    %one = arith.constant 1.0 : f32
    %w = arith.addf %v, %one : f32
    loop.store %w, %x[%i] : memref<{N}xf32>
  }}
  loop.return
}}
"""

SCHEDULE = (
    KERNELS
    + f"""
func.func @main(%x: memref<{N}xf32>) -> (memref<{N}xf32>, memref<{N}xf32>) {{
  %s = device.default_stream
  %t = device.stream_create
  %e = device.event_create
  %arena = device.alloc : memref<{8 * N}xi8>
  %a = loop.view %arena[0] : memref<{8 * N}xi8> -> memref<{N}xf32>
  %b = device.alloc : memref<{N}xf32>
  %c = device.alloc : memref<{N}xf32>
  device.copy device_to_device %x, %a on %s : memref<{N}xf32>, memref<{N}xf32>
  device.launch @add_one(%a) on %s : memref<{N}xf32>
  device.record %e on %s
  device.wait %e on %t
  %k = arith.constant 3.0 : f32
  device.launch @scale(%a, %b, %k) on %t : memref<{N}xf32>, memref<{N}xf32>, f32
  device.launch @scale(%x, %c, %k) on %s : memref<{N}xf32>, memref<{N}xf32>, f32
  device.synchronize %t
  device.synchronize %s
  device.stream_destroy %t
  device.event_destroy %e
  device.free %arena : memref<{8 * N}xi8>
  func.return %b, %c : memref<{N}xf32>, memref<{N}xf32>
}}
"""
)

ADD = """func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def _kernel(platform: Platform, kernel: str):
    module = parse_module(make_context(), KERNELS, "kernels.mlir")
    image = platform.compiler().compile_kernels(module)
    return platform.executor(0).load_kernel(image, kernel)


def _on_device(platform: Platform, array: np.ndarray):
    executor = platform.executor(0)
    buffer = executor.allocate(array.nbytes)
    executor.copy_host_to_device(buffer, array)
    return buffer


def _read(platform: Platform, buffer, like: np.ndarray) -> np.ndarray:
    host = np.empty_like(like)
    platform.executor(0).copy_device_to_host(host, buffer)
    return host


def test_allocate_copy_both_ways_and_free(target_name: str) -> None:
    platform = _platform(target_name)
    executor = platform.executor(0)
    before = executor.allocated_bytes
    x = np.arange(N, dtype=np.float32)
    a = _on_device(platform, x)
    b = executor.allocate(x.nbytes)
    assert executor.allocated_bytes == before + 2 * x.nbytes
    executor.copy_device_to_device(b, a)
    np.testing.assert_array_equal(_read(platform, b, x), x)
    # on a stream: the copies run in order, done after synchronize
    stream = executor.create_stream()
    y = -x
    out = np.zeros_like(x)
    stream.memcpy_host_to_device(a, y)
    stream.memcpy_device_to_device(b, a)
    stream.memcpy_device_to_host(out, b)
    stream.synchronize()
    np.testing.assert_array_equal(out, y)
    executor.deallocate(a)
    executor.deallocate(b)
    assert executor.allocated_bytes == before


def test_a_part_of_an_allocation_is_its_memory(target_name: str) -> None:
    platform = _platform(target_name)
    executor = platform.executor(0)
    x = np.arange(N, dtype=np.float32)
    whole = _on_device(platform, x)
    part = executor.sub_buffer(whole, 8, 12)  # elements 2, 3, 4
    np.testing.assert_array_equal(_read(platform, part, x[2:5]), x[2:5])
    executor.copy_host_to_device(part, np.zeros(3, np.float32))
    np.testing.assert_array_equal(_read(platform, whole, x)[1:6], [1, 0, 0, 0, 5])
    executor.deallocate(whole)
    assert part.released
    with pytest.raises(XlirError, match="outside a device buffer of 40 bytes"):
        executor.sub_buffer(_on_device(platform, x), 32, 16)


@pytest.mark.parametrize("grid", [(1,), (3,), (4,), (2, 2), (16,)])
def test_launch_on_a_grid(target_name: str, grid: tuple[int, ...]) -> None:
    """Every block count gives the whole result: the blocks share the
    kernel's iterations (more blocks than iterations leave some idle)."""
    platform = _platform(target_name)
    executor = platform.executor(0)
    kernel = _kernel(platform, "scale")
    assert all(n > 0 for n in executor.launch_dimensions(kernel))
    x = np.arange(N, dtype=np.float32)
    a, b = _on_device(platform, x), _on_device(platform, np.zeros_like(x))
    stream = executor.create_stream()
    executor.launch(stream, kernel, grid, [a, b, np.float32(2.5)])
    stream.synchronize()
    np.testing.assert_array_equal(_read(platform, b, x), x * 2.5)


def test_events_order_work_across_streams(target_name: str) -> None:
    """The second stream's launch reads what the first one's wrote: it
    waits on an event recorded after it, and synchronizing the second
    stream alone is enough."""
    platform = _platform(target_name)
    executor = platform.executor(0)
    add_one, scale = _kernel(platform, "add_one"), _kernel(platform, "scale")
    x = np.arange(N, dtype=np.float32)
    a, b = _on_device(platform, x), _on_device(platform, np.zeros_like(x))
    first, second = executor.create_stream(), executor.create_stream()
    grid = executor.launch_dimensions(add_one)
    executor.launch(first, add_one, grid, [a])
    event = first.record_event()
    second.wait_event(event)
    executor.launch(second, scale, grid, [a, b, 2.0])
    second.synchronize()
    assert event.done
    np.testing.assert_array_equal(_read(platform, b, x), (x + 1) * 2)


def test_executables_run_on_a_stream(target_name: str) -> None:
    platform = _platform(target_name)
    executable = xlir.compile(ADD, target=target_name)
    executor = platform.executor(0)
    transfer = platform.transfer_manager()
    x = np.arange(4, dtype=np.float32)
    inputs = [transfer.to_device(executor, x), transfer.to_device(executor, x * 10)]
    stream = executor.create_stream()
    (output,) = executable.execute(inputs, stream)
    stream.synchronize()
    spec = executable.signature.results[0]
    np.testing.assert_array_equal(transfer.from_device(executor, output, spec), x * 11)


def test_device_schedules_run_through_the_executor(target_name: str) -> None:
    """A host function of two streams, an event, the arena and a view, run
    by the generic executor over the target's executor and kernels."""
    platform = _platform(target_name)
    module = parse_module(make_context(), SCHEDULE, "schedule.mlir")
    image = platform.compiler().compile_kernels(module)
    executable = DeviceScheduleExecutable(platform, module, image)
    executor = platform.executor(0)
    before = executor.allocated_bytes
    x = np.arange(N, dtype=np.float32)
    b, c = executable(x)
    np.testing.assert_array_equal(b, (x + 1) * 3)
    np.testing.assert_array_equal(c, x * 3)
    assert executor.allocated_bytes == before  # the arena freed, outputs too


def test_compiled_files_run_as_they_are(target_name: str) -> None:
    """A target that runs the files it compiles ahead of time
    (`Target.program_magic`) writes files that start so, load without
    compiling (`xlir.load_executable`), compute what its JIT computes, and
    are refused with a diagnostic once truncated."""
    magic = get_target(target_name).program_magic
    if magic is None:
        pytest.skip(f"{target_name} runs no compiled files (no program_magic)")
    module = parse_module(make_context(), ADD, "add.mlir")
    compiler = _platform(target_name).compiler()
    data = compiler.compile_ahead_of_time(module, AotOptions()).object_code
    assert data.startswith(magic)
    loaded = xlir.load_executable(data, "add.bin")
    x = np.arange(4, dtype=np.float32)
    jit = xlir.compile(ADD, target=target_name)
    np.testing.assert_array_equal(loaded(x, x * 10), jit(x, x * 10))
    np.testing.assert_array_equal(loaded(x, x * 10), x * 11)
    with pytest.raises(XlirError, match=r"add\.bin"):
        xlir.load_executable(data[:-1], "add.bin")


def test_misuse_is_a_diagnostic(target_name: str) -> None:
    platform = _platform(target_name)
    executor = platform.executor(0)
    kernel = _kernel(platform, "add_one")
    x = np.arange(N, dtype=np.float32)
    stream = executor.create_stream()
    freed = _on_device(platform, x)
    executor.deallocate(freed)
    with pytest.raises(
        XlirError, match="argument 0 is a device buffer that has been freed"
    ):
        executor.launch(stream, kernel, (1,), [freed])
    with pytest.raises(XlirError, match="never recorded"):
        stream.wait_event(Event())
    live = _on_device(platform, x)
    with pytest.raises(
        XlirError, match="36 bytes do not fit a device buffer of 40 bytes"
    ):
        executor.copy_host_to_device(live, x[:9])
    with pytest.raises(XlirError, match="sizes must be equal"):
        stream.memcpy_device_to_host(np.empty(N + 1, np.float32), live)
    with pytest.raises(XlirError, match="has been freed"):
        stream.memcpy_host_to_device(freed, x)
    for grid in [(0,), (), (1, 1, 1, 1), (-2,)]:
        with pytest.raises(XlirError, match="expected one to three positive"):
            executor.launch(stream, kernel, grid, [live])
    with pytest.raises(XlirError, match="expected a device buffer or a scalar"):
        executor.launch(stream, kernel, (1,), ["x"])  # pyright: ignore[reportArgumentType]
    module = parse_module(make_context(), KERNELS, "kernels.mlir")
    image = platform.compiler().compile_kernels(module)
    with pytest.raises(XlirError, match=r"no .*kernel @missing"):
        executor.load_kernel(image, "missing")
    assert stream.pending == 0  # nothing was enqueued by a rejected call
    executor.deallocate(live)


# --- the corpus -----------------------------------------------------------------


def _small_program(corpus: Corpus, path: Path, target: str) -> None:
    """Compiled on every target; run where the target has a device."""
    executable = xlir.compile(path.read_text(), target=target, name=str(path))
    skip_without_device(target)
    arguments, expected = corpus.load_case(path)
    corpus.assert_matches(program_name(path), executable(*arguments), expected)


def test_small_program(
    target_name: str, corpus_program: Path, request: pytest.FixtureRequest
) -> None:
    corpus = _corpus(request.module)
    gap = get_target(target_name).known_gaps().corpus.get(program_name(corpus_program))
    if gap is None:
        _small_program(corpus, corpus_program, target_name)
        return
    with pytest.raises(Exception):  # noqa: B017 (any failure; the list says why)
        _small_program(corpus, corpus_program, target_name)
    pytest.xfail(gap)


def test_known_gaps_name_corpus_programs(
    target_name: str, request: pytest.FixtureRequest
) -> None:
    names = {program_name(p) for p in _corpus(request.module).programs}
    assert set(get_target(target_name).known_gaps().corpus) <= names
