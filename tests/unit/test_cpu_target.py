"""The `cpu` target's API: the persistent compilation cache (hits, damaged
entries and another program's entries rebuilt, the off switch), caller-provided outputs, concurrent calls,
memory stats and argument errors, and what LLVM makes of a vectorizable
loop."""

from __future__ import annotations

import operator
import threading

import numpy as np
import pytest
import xlir.targets.cpu as cpu
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.hlo.process_grid import run_ranks
from xlir.lowering.llvm import llvmlite_module
from xlir.targets.collective_steps import running_as
from xlir.targets.cpu import host_machine

import xlir
from tests.conftest import CORPUS
from tests.corpus import load_case
from xlir.communicator import Communicator
from xlir.diagnostics import XlirError

SOFTMAX = (CORPUS / "small" / "softmax_rows.mlir").read_text()


def _reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLIR_CACHE", raising=False)
    return tmp_path


def _entries(cache_dir) -> list:
    """The compiled programs in the cache (not the measured vector width the
    cpu target keeps beside them)."""
    return [p for p in cache_dir.iterdir() if not p.name.startswith("vector-bits-")]


def _input(executable) -> np.ndarray:
    (spec,) = executable.signature.arguments
    return np.random.default_rng(0).standard_normal(spec.shape).astype(np.float32)


def test_second_compile_is_a_cache_hit(cache_dir, monkeypatch) -> None:
    first = xlir.compile(SOFTMAX, target="cpu")
    assert len(_entries(cache_dir)) == 1

    def no_backend(*_: object, **__: object) -> None:
        raise AssertionError("a cache hit runs no backend")

    monkeypatch.setattr(cpu.CpuCompiler, "run_backend", no_backend)
    second = xlir.compile(SOFTMAX, target="cpu")
    assert second.as_text() == first.as_text() != "", "the entry keeps the IR"
    x = _input(first)
    np.testing.assert_array_equal(first(x), second(x))
    np.testing.assert_allclose(second(x), _reference(x), rtol=1e-5, atol=1e-6)
    assert second.memory_stats() == first.memory_stats()


def test_cache_entry_of_several_parts(cache_dir, monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CODEGEN_THREADS", "3")
    text = (CORPUS / "small" / "mlp_fwd.mlir").read_text()
    first = xlir.compile(text, target="cpu")
    assert len(first.objects) == 4, "three parts of kernels and one of launch code"
    monkeypatch.setattr(cpu.CpuCompiler, "run_backend", None)
    second = xlir.compile(text, target="cpu")
    assert second.objects == first.objects
    assert second.as_text() == first.as_text()
    arguments, _ = load_case(CORPUS / "small" / "mlp_fwd.mlir")
    np.testing.assert_array_equal(second(*arguments), first(*arguments))


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_damaged_entry_is_rebuilt(cache_dir, damage) -> None:
    xlir.compile(SOFTMAX, target="cpu")
    (entry,) = _entries(cache_dir)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])
    else:
        entry.write_bytes(b"not a cache entry")
    executable = xlir.compile(SOFTMAX, target="cpu")
    assert executable.llvm_ir, "the damaged entry was not used"
    x = _input(executable)
    np.testing.assert_allclose(executable(x), _reference(x), rtol=1e-5, atol=1e-6)
    assert entry.read_bytes() == data, "the entry was rebuilt"


SUM_AND_GATHER = """
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>) {
    %s = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<4xf32>
    return %s, %g : tensor<2xf32>, tensor<4xf32>
  }
}
"""


def test_program_with_collectives_is_a_cache_hit(cache_dir, monkeypatch) -> None:
    """The entry keeps the collective steps and the grid: the hit runs on
    two ranks (threads of this process) as the compile did."""
    xlir.compile(SUM_AND_GATHER, target="cpu", num_partitions=2)
    assert len(_entries(cache_dir)) == 1
    monkeypatch.setattr(cpu.CpuCompiler, "run_backend", None)
    hit = xlir.compile(SUM_AND_GATHER, target="cpu", num_partitions=2)
    assert hit.grid == Grid(1, 2)
    inputs = [np.array([1, 2], np.float32), np.array([10, 20], np.float32)]

    def rank(communicator: Communicator) -> list[np.ndarray]:
        with running_as(communicator):
            return list(hit(inputs[communicator.rank]))

    for summed, gathered in run_ranks(Grid(1, 2), rank):
        np.testing.assert_array_equal(summed, [11, 22])
        np.testing.assert_array_equal(gathered, [1, 2, 10, 20])


def test_a_grid_given_at_compile_time_is_part_of_the_key(cache_dir) -> None:
    """A text that states no grid, compiled for two partitions, is cached
    for two: compiled for one device it is compiled for one (where its
    groups of two do not fit), never the two-device entry."""
    bare = SUM_AND_GATHER.replace(
        " attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}", ""
    )
    assert bare != SUM_AND_GATHER
    assert xlir.compile(bare, target="cpu", num_partitions=2).grid == Grid(1, 2)
    with pytest.raises(XlirError, match="does not fit the process grid"):
        xlir.compile(bare, target="cpu")
    assert len(_entries(cache_dir)) == 1
    assert xlir.compile(bare, target="cpu", num_partitions=2).grid == Grid(1, 2)


ADD_ONE = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.add %x, %one : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

DOUBLE = ADD_ONE.replace("add %x, %one", "multiply %x, %x")


def test_entry_of_another_program_is_not_run(cache_dir) -> None:
    """Each program's entry swapped for the other's (both valid, same
    signature): each compile still runs its own program, and rebuilds its
    entry."""
    xlir.compile(ADD_ONE, target="cpu")
    (add_entry,) = _entries(cache_dir)
    xlir.compile(DOUBLE, target="cpu")
    (double_entry,) = set(_entries(cache_dir)) - {add_entry}
    add_data, double_data = add_entry.read_bytes(), double_entry.read_bytes()
    add_entry.write_bytes(double_data)
    double_entry.write_bytes(add_data)
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    np.testing.assert_array_equal(xlir.compile(ADD_ONE, target="cpu")(x), x + 1)
    np.testing.assert_array_equal(xlir.compile(DOUBLE, target="cpu")(x), x * x)
    assert add_entry.read_bytes() == add_data, "the entry was rebuilt"
    assert double_entry.read_bytes() == double_data, "the entry was rebuilt"


def test_cache_off_switch(cache_dir, monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    xlir.compile(SOFTMAX, target="cpu")
    assert not list(cache_dir.iterdir())


def test_pipeline_is_part_of_the_key(cache_dir) -> None:
    xlir.compile(SOFTMAX, target="cpu")
    xlir.compile(SOFTMAX, target="cpu", pipeline="inline,fuse,assign-buffers")
    assert len(_entries(cache_dir)) == 2


def test_fast_math_is_part_of_the_key_and_stays_accurate(
    cache_dir, monkeypatch
) -> None:
    exact = xlir.compile(SOFTMAX, target="cpu")
    monkeypatch.setenv("XLIR_FAST_MATH", "1")
    fast = xlir.compile(SOFTMAX, target="cpu")
    assert len(_entries(cache_dir)) == 2
    assert fast.as_text() != exact.as_text(), "the row sums are split into partial sums"
    x = _input(fast)
    np.testing.assert_allclose(fast(x), _reference(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fast(x), exact(x), rtol=1e-5, atol=1e-7)


def test_outputs_into_caller_arrays_and_from_threads(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    executable = xlir.compile(SOFTMAX, target="cpu")
    x = _input(executable)
    out = np.empty(executable.signature.results[0].shape, np.float32)
    assert executable(x, out=[out]) is out
    np.testing.assert_allclose(out, _reference(x), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="out: result0 must be"):
        executable(x, out=[np.empty((1,), np.float32)])
    with pytest.raises(ValueError, match="out: result0 shares memory with argument"):
        executable(x, out=[x])
    with pytest.raises(ValueError, match="out: result0 shares memory with argument"):
        executable(x, out=[x.view()])
    inputs = [x * (i + 1) for i in range(8)]
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        for _ in range(20):
            results[i] = executable(inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i in range(8):
        np.testing.assert_allclose(
            results[i], _reference(inputs[i]), rtol=1e-5, atol=1e-6
        )


TWO_OUTPUTS = """
func.func public @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %y = stablehlo.add %x, %x : tensor<4x8xf32>
  %z = stablehlo.multiply %x, %x : tensor<4x8xf32>
  return %y, %z : tensor<4x8xf32>, tensor<4x8xf32>
}
"""


def test_arguments_as_they_come(monkeypatch) -> None:
    """Arrays that are not C-contiguous, read-only, of another type than
    ndarray or empty are passed right; outputs must be writable arrays of
    their own, also of each other."""
    monkeypatch.setenv("XLIR_CACHE", "0")
    executable = xlir.compile(SOFTMAX, target="cpu")
    x = _input(executable)
    want = _reference(x)
    readonly = x.copy()
    readonly.flags.writeable = False
    strided = np.repeat(x, 2, axis=1)[:, ::2]
    for argument in (x, readonly, np.asfortranarray(x), strided, x.tolist()):
        np.testing.assert_allclose(executable(argument), want, rtol=1e-5, atol=1e-6)
    out = np.empty_like(x)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out: result0 must be a writable"):
        executable(x, out=[out])

    pair = xlir.compile(TWO_OUTPUTS, target="cpu")
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    frozen = x.copy()
    frozen.flags.writeable = False
    y, z = np.empty_like(x), np.empty_like(x)
    got = pair(frozen, out=[y, z])
    assert got[0] is y and got[1] is z
    np.testing.assert_array_equal(y, x + x)
    np.testing.assert_array_equal(z, x * x)
    both = np.empty((8, 8), np.float32)
    with pytest.raises(ValueError, match="out: result1 shares memory with out result0"):
        pair(x, out=[both[:4], both[:4]])
    pair(x, out=[both[:4], both[4:]])  # adjacent, not overlapping
    np.testing.assert_array_equal(both, np.concatenate([x + x, x * x]))

    empty = xlir.compile(
        "func.func @main(%x: tensor<0x3xf32>) -> tensor<0x3xf32> {\n"
        "  %y = stablehlo.negate %x : tensor<0x3xf32>\n"
        "  return %y : tensor<0x3xf32>\n}\n",
        target="cpu",
    )
    assert empty(np.zeros((0, 3), np.float32)).shape == (0, 3)


def test_stats_and_argument_errors(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    executable = xlir.compile(SOFTMAX, target="cpu")
    stats = executable.memory_stats()
    assert stats.generated_code_size_in_bytes > 0
    assert stats.temp_size_in_bytes >= 0
    assert 'define void @"main"' in executable.as_text()
    with pytest.raises(ValueError, match="argument arg0: expected shape"):
        executable(np.zeros((3,), np.float32))


VIEWS_AROUND_A_DOT = """
func.func public @main(%a: tensor<4x6xf32>, %b: tensor<24xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %r = stablehlo.reshape %b : (tensor<24xf32>) -> tensor<6x4xf32>
  %0 = stablehlo.dot_general %a, %r, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<4x4xf32>) -> tensor<16xf32>
  return %1, %0 : tensor<16xf32>, tensor<4x4xf32>
}
"""


def test_views_of_parameters_and_outputs_around_a_dot() -> None:
    """A reshaped parameter read by a dot and a dot's result returned
    reshaped: the plan puts the views in their sources' memory, seen with
    another shape (the parameter's reshape was once a copy kernel that
    indexed the parameter with the wrong rank)."""
    executable = xlir.compile(VIEWS_AROUND_A_DOT, target="cpu")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 6)).astype(np.float32)
    b = rng.standard_normal(24).astype(np.float32)
    flat, square = executable(a, b)
    want = a @ b.reshape(6, 4)
    np.testing.assert_allclose(square, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(flat, square.reshape(16))


SCALE_LOOP = """
define void @scale(ptr noalias %x, ptr noalias %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %in = getelementptr inbounds float, ptr %x, i64 %i
  %a = load float, ptr %in
  %b = fmul float %a, 2.0
  %out = getelementptr inbounds float, ptr %y, i64 %i
  store float %b, ptr %out
  %next = add i64 %i, 1
  %more = icmp slt i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
"""


def test_llvm_vectorizes_a_loop_once() -> None:
    """LLVM's loop vectorizer makes one vector body of one vector load and
    store per trip: no interleaved copies (`LOOP_INTERLEAVING`), no
    vectorized epilogue, no unrolling (llvmlite_module.py says why)."""
    machine = host_machine.host_target_machine()
    optimized = str(llvmlite_module.optimize(SCALE_LOOP, machine))
    vector_loads = [line for line in optimized.splitlines() if "load <" in line]
    vector_stores = [line for line in optimized.splitlines() if "store <" in line]
    assert len(vector_loads) == 1, optimized
    assert len(vector_stores) == 1, optimized
    assert optimized.count("fmul <") == 1, optimized


def test_pipelines_built_once_per_options_and_info(monkeypatch) -> None:
    """The pass objects of a pipeline are made once and serve every compile
    with the same options and target info (each call a list of its own);
    other options, or an info that changed (the host's features), get their
    own."""
    from xlir.passes.hlo.int_dot_quads import IntDotQuadsPass
    from xlir.passes.hlo.sort_routines import SortRoutinesPass
    from xlir.targets.cpu import vector_width
    from xlir.targets.cpu.target import CpuTarget
    from xlir.targets.target import CompileOptions

    target, options = CpuTarget(), CompileOptions()
    for build in (target.hlo_pipeline, target.loop_pipeline):
        first, second = build(options), build(options)
        assert first is not second
        assert all(map(operator.is_, first, second))
        first.clear()
        assert build(options) == second
    unsorted = target.hlo_pipeline(CompileOptions(sort_routines=False))
    assert not any(isinstance(p, SortRoutinesPass) for p in unsorted)
    monkeypatch.setattr(vector_width, "host_features", dict)  # no byte dots
    assert not any(isinstance(p, IntDotQuadsPass) for p in target.hlo_pipeline(options))
