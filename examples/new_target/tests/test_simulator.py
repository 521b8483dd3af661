"""The simulator's diagnostics: a launch that does not fit the kernel, a
word outside its buffer, a kernel that cannot be split between blocks."""

import numpy as np
import pytest
from xlir.targets.registry import get_platform
from xlir_qdsp.simulator import Program

from xlir.diagnostics import XlirError

KERNELS = """.kernel copy, buffer, buffer
    ploop r0, 0, 4, 1
    lane r1
    iadd r1, r0, r1
    ld r2, r1, 0
    st r2, r1, 1
    endloop
    ret
.kernel shifted, buffer
    li r0, 2
    ld r1, r0, 0
    ploop r2, 0, 4, 1
    lane r3
    st r1, r3, 0
    endloop
    ret
"""


def _buffers(*arrays: np.ndarray) -> list:
    executor = get_platform("qdsp").executor(0)
    buffers = [executor.allocate(a.nbytes) for a in arrays]
    for buffer, array in zip(buffers, arrays, strict=True):
        executor.copy_host_to_device(buffer, array)
    return buffers


def test_a_launch_runs_the_kernel() -> None:
    x, y = _buffers(np.arange(4, dtype=np.float32), np.zeros(4, np.float32))
    Program(KERNELS).kernel("copy").run((2,), [x, y])
    np.testing.assert_array_equal(y.handle.view(np.float32), [0, 1, 2, 3])


def test_arguments_that_do_not_fit_are_a_diagnostic() -> None:
    (x,) = _buffers(np.zeros(4, np.float32))
    with pytest.raises(XlirError, match=r"@copy takes \['buffer', 'buffer'\]"):
        Program(KERNELS).kernel("copy").run((1,), [x, np.float32(1)])


def test_a_word_outside_the_buffer_is_a_diagnostic() -> None:
    x, y = _buffers(np.zeros(2, np.float32), np.zeros(4, np.float32))
    with pytest.raises(XlirError, match=r"@copy: ld of word \[0 1 2 3\] of 2"):
        Program(KERNELS).kernel("copy").run((1,), [x, y])


def test_memory_outside_the_ploop_is_not_split() -> None:
    (x,) = _buffers(np.arange(4, dtype=np.float32))
    kernel = Program(KERNELS).kernel("shifted")
    with pytest.raises(XlirError, match="cannot be split between blocks"):
        kernel.run((2,), [x])
    kernel.run((1,), [x])
    np.testing.assert_array_equal(x.handle.view(np.float32), [2, 2, 2, 2])
