"""The simulator: a launch on any grid computes the whole result; the
diagnostics for a launch that does not fit the kernel and a word outside its
buffer."""

import numpy as np
import pytest
from xlir.targets.registry import get_platform
from xlir_qdsp.target import assemble

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

KERNELS = """.kernel copy, buffer, buffer
    loop r0, 0, 1, 4, 4
    ld r2, r0, 0
    st r2, r0, 1
    endloop
.kernel sum, buffer, buffer
    lf r0, 0.0
    loop r1, r0, 0, 1, 3, 1
    ld r2, r1, 0
    fadd r3, r0, r2
    endloop r3
    loop r1, 0, 1, 4, 4
    st r0, r1, 1
    endloop
.kernel tail, buffer
    loop r0, 0, 2, 3, 4
    st r0, r0, 0
    endloop
"""


SWAP = """loop.kernel @swap(%x: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = loop.load %x[%c0] : memref<2xf32>
  %b = loop.load %x[%c1] : memref<2xf32>
  %r:2 = loop.for %i = 0 to 3 step 1 iter_args(%p = %a, %q = %b) -> (f32, f32) {
    loop.yield %q, %p : f32, f32
  }
  loop.store %r#0, %x[%c0] : memref<2xf32>
  loop.store %r#1, %x[%c1] : memref<2xf32>
  loop.return
}
"""


def _buffers(*arrays: np.ndarray) -> list:
    executor = get_platform("qdsp").executor(0)
    buffers = [executor.allocate(a.nbytes) for a in arrays]
    for buffer, array in zip(buffers, arrays, strict=True):
        executor.copy_host_to_device(buffer, array)
    return buffers


def test_a_launch_runs_the_kernel() -> None:
    x, y = _buffers(np.arange(4, dtype=np.float32), np.zeros(4, np.float32))
    assemble(KERNELS)["copy"].run((2,), [x, y])
    np.testing.assert_array_equal(y.handle.view(np.float32), [0, 1, 2, 3])


def test_arguments_that_do_not_fit_are_a_diagnostic() -> None:
    """The `.kernel` line says which arguments are buffers; a launch checks."""
    executor = get_platform("qdsp").executor(0)
    (x,) = _buffers(np.zeros(4, np.float32))
    copy, stream = assemble(KERNELS)["copy"], executor.create_stream()
    with pytest.raises(XlirError, match="argument 1 is a scalar; expected a device"):
        executor.launch(stream, copy, (1,), [x, np.float32(1)])


def test_a_word_outside_the_buffer_is_a_diagnostic() -> None:
    x, y = _buffers(np.zeros(2, np.float32), np.zeros(4, np.float32))
    with pytest.raises(XlirError, match=r"@copy: ld of word \[0 1 2 3\] of 2"):
        assemble(KERNELS)["copy"].run((1,), [x, y])


def test_a_loop_carries_its_register_from_trip_to_trip() -> None:
    x, y = _buffers(np.array([1, 2, 3, 4], np.float32), np.zeros(4, np.float32))
    assemble(KERNELS)["sum"].run((4,), [x, y])
    np.testing.assert_array_equal(y.handle.view(np.float32), [6, 6, 6, 6])


def test_four_lanes_past_the_end_repeat_the_last_iteration() -> None:
    """Lanes run iterations 0, 1, 2 and 2 again of `loop r0, 0, 2, 3, 4`:
    index = 0 + 2 * iteration, so words 0, 2 and 4 hold their index."""
    (x,) = _buffers(np.full(6, -1, np.int32))
    assemble(KERNELS)["tail"].run((1,), [x])
    np.testing.assert_array_equal(x.handle.view(np.int32), [0, -1, 2, -1, 4, -1])


def test_an_unknown_kernel_is_a_diagnostic() -> None:
    executor = get_platform("qdsp").executor(0)
    with pytest.raises(XlirError, match=r"no kernel @missing \(kernels: @copy"):
        executor.load_kernel(assemble(KERNELS), "missing")


def test_carried_values_may_swap_from_trip_to_trip() -> None:
    """Each trip swaps the loop's two carried values: `endloop` gives the
    carried registers their next values all at once (three trips: swapped)."""
    platform = get_platform("qdsp")
    image = platform.compiler().compile_kernels(
        parse_module(make_context(), SWAP, "swap.mlir")
    )
    (x,) = _buffers(np.array([1, 2], np.float32))
    platform.executor(0).load_kernel(image, "swap").run((1,), [x])
    np.testing.assert_array_equal(x.handle.view(np.float32), [2, 1])
