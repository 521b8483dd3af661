"""The nvptx-emu target's kernels on hand-written mapped kernels: threads as
loops in native code, threads in lockstep for shuffles, barriers and shared
memory (each block its own shared memory), the grid a launch gives, and
the diagnostics of what it cannot emulate."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.nvptx.emu.kernels import (
    EmulatedKernels,
    LockstepKernel,
    NativeKernel,
)
from xlir.targets.registry import get_platform

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

SCALE = """
loop.kernel @scale(%x: memref<100xf32>, %y: memref<100xf32>) attributes {gpu_launch = array<i64: 4, 32, 0>} {
  %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %n = "gpu.block_dim"() <{dimension = #gpu<dim x>}> : () -> index
  %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
  %f = arith.muli %b, %n : index
  %i = arith.addi %f, %t : index
  %end = arith.constant 100 : index
  %in = arith.cmpi ult, %i, %end : index
  scf.if %in {
    %v = loop.load %x[%i] : memref<100xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
    loop.store %w, %y[%i] : memref<100xf32>
  }
  loop.return
}
"""

# Each thread writes its partner's value (lane ^ 1), and thread 0 of each block
# the sum of its block's values, gathered through shared memory after a barrier.
BLOCK_SUMS = """
loop.kernel @pairs(%x: memref<128xf32>, %y: memref<128xf32>, %s: memref<2xf32>) attributes {gpu_launch = array<i64: 2, 64, 256>} {
  %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
  %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
  %n = arith.constant 64 : index
  %f = arith.muli %b, %n : index
  %i = arith.addi %f, %t : index
  %v = loop.load %x[%i] : memref<128xf32>
  %p = simt.shuffle_xor %v, 1 : i32 : f32
  loop.store %p, %y[%i] : memref<128xf32>
  %shared = simt.shared_memory : memref<64xf32>
  loop.store %v, %shared[%t] : memref<64xf32>
  "gpu.barrier"() : () -> ()
  %zero = arith.constant 0 : index
  %first = arith.cmpi eq, %t, %zero : index
  scf.if %first {
    %init = arith.constant 0.0 : f32
    %sum = loop.for %k = 0 to 64 step 1 iter_args(%acc = %init) -> (f32) {
      %e = loop.load %shared[%k] : memref<64xf32>
      %a = arith.addf %acc, %e : f32
      loop.yield %a : f32
    }
    loop.store %sum, %s[%b] : memref<2xf32>
  }
  loop.return
}
"""


def _kernels(text: str) -> EmulatedKernels:
    return EmulatedKernels(parse_module(make_context(), text, "kernels.mlir"))


def _addresses(*arrays: np.ndarray) -> list[int | float]:
    return [a.ctypes.data for a in arrays]


def test_independent_threads_run_as_native_loops() -> None:
    kernel = _kernels(SCALE).kernel("scale")
    assert isinstance(kernel, NativeKernel)
    x = np.arange(100, dtype=np.float32)
    y = np.zeros_like(x)
    kernel.run_raw((4, 1, 1), (32, 1, 1), 0, _addresses(x, y))
    np.testing.assert_array_equal(y, 2 * x)


def test_a_launch_runs_the_grid_it_is_given() -> None:
    """Fewer blocks than mapped leave elements undone, as on a GPU; more
    blocks are idle behind the bounds guard."""
    kernel = _kernels(SCALE).kernel("scale")
    x = np.arange(100, dtype=np.float32)
    y = np.zeros_like(x)
    kernel.run_raw((2, 1, 1), (32, 1, 1), 0, _addresses(x, y))
    np.testing.assert_array_equal(y[:64], 2 * x[:64])
    assert not y[64:].any()
    kernel.run_raw((9, 1, 1), (32, 1, 1), 0, _addresses(x, y))
    np.testing.assert_array_equal(y, 2 * x)


def test_shuffles_barriers_and_shared_memory_run_in_lockstep() -> None:
    kernel = _kernels(BLOCK_SUMS).kernel("pairs")
    assert isinstance(kernel, LockstepKernel)
    x = np.arange(128, dtype=np.float32)
    y, s = np.zeros_like(x), np.zeros(2, np.float32)
    kernel.run_raw((2, 1, 1), (64, 1, 1), 256, _addresses(x, y, s))
    np.testing.assert_array_equal(y, x[np.arange(128) ^ 1])
    np.testing.assert_array_equal(s, [x[:64].sum(), x[64:].sum()])


def test_a_block_of_other_threads_is_refused() -> None:
    kernel = _kernels(SCALE).kernel("scale")
    x = np.zeros(100, np.float32)
    with pytest.raises(XlirError, match="runs blocks of 32 thread"):
        kernel.run_raw((4, 1, 1), (64, 1, 1), 0, _addresses(x, x))


def test_a_kernel_that_is_not_mapped_is_a_diagnostic() -> None:
    text = SCALE.replace(" attributes {gpu_launch = array<i64: 4, 32, 0>}", "")
    with pytest.raises(
        XlirError, match=r"kernels\.mlir:2:1: error: kernel @scale has no gpu_launch"
    ):
        _kernels(text)


def test_a_barrier_some_threads_miss_is_a_diagnostic() -> None:
    text = BLOCK_SUMS.replace('  "gpu.barrier"() : () -> ()\n', "").replace(
        "    %init = arith.constant 0.0 : f32\n",
        '    "gpu.barrier"() : () -> ()\n    %init = arith.constant 0.0 : f32\n',
    )
    kernel = _kernels(text).kernel("pairs")
    x = np.zeros(128, np.float32)
    with pytest.raises(
        XlirError,
        match=r"kernels\.mlir:\d+:\d+: error: a gpu\.barrier that only some threads",
    ):
        kernel.run_raw((2, 1, 1), (64, 1, 1), 256, _addresses(x, x, x[:2]))


def test_a_block_wise_kernel_runs_on_its_own_grid_only() -> None:
    kernel = _kernels(BLOCK_SUMS).kernel("pairs")
    executor = get_platform("nvptx-emu").executor(0)
    buffers = [executor.allocate(size) for size in (512, 512, 8)]
    with pytest.raises(XlirError, match="runs on its own grid of 2 block"):
        kernel.run((3,), buffers)
    kernel.run((2,), buffers)
