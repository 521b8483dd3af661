"""XA-1 behind the runtime interfaces: the platform's executor allocates in DRAM
by section 8.1's rules, copies arrays in their DRAM format, loads an object and
launches its kernels on a stream by the calling convention."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.device import LAUNCH_OVERHEAD
from xlir.targets.accel.runtime import AccelPlatform, AccelStreamExecutor

from xlir.diagnostics import XlirError

EXAMPLES = Path(__file__).parent.parent / "accel"


def executor() -> AccelStreamExecutor:
    platform = AccelPlatform(dram_size=1 << 22)
    assert platform.devices() == ["accel:0"]
    result = platform.executor(0)
    assert isinstance(result, AccelStreamExecutor)
    return result


def test_allocations_are_aligned_above_64k_and_reused() -> None:
    ex = executor()
    a, b = ex.allocate(10), ex.allocate(100)
    assert a.handle >= 0x10000 and a.handle % 64 == 0 and b.handle % 64 == 0
    assert b.handle >= a.handle + 64
    ex.deallocate(a)
    assert ex.allocate(64).handle == a.handle
    with pytest.raises(XlirError, match="freed twice"):
        ex.deallocate(a)


def test_launch_example_a_through_a_stream() -> None:
    ex = executor()
    manager = ex.platform.transfer_manager()
    rng = np.random.default_rng(6)
    x, y = (rng.standard_normal(4096, np.float32) for _ in range(2))
    buffers = [
        manager.to_device(ex, x),
        manager.to_device(ex, y),
        ex.allocate(4 * 4096),
    ]
    image = assemble((EXAMPLES / "vadd4096.s").read_text()).to_bytes()
    kernel = ex.load_kernel(image, "vadd4096")
    stream = ex.create_stream()
    ex.launch(stream, kernel, (1,), buffers)
    ex.launch(stream, kernel, (1,), buffers)
    assert stream.pending == 2
    stream.synchronize()
    out = np.empty(4096, np.float32)
    ex.copy_device_to_host(out, buffers[2])
    assert out.tobytes() == (x + y).tobytes()
    assert kernel.program.cycles == 2 * (LAUNCH_OVERHEAD + 3910)


def test_errors() -> None:
    ex = executor()
    with pytest.raises(XlirError, match="does not support f64"):
        ex.platform.transfer_manager().to_device(ex, np.zeros(4))
    image = assemble(
        ".kernel k, 1\n li t0, 64 ; dma.ld zero, zero, t0, 0 ; vld v0, 0(zero)"
    )
    kernel = ex.load_kernel(image, "k")
    with pytest.raises(XlirError, match="takes 1 arguments, got 0"):
        ex.launch(ex.create_stream(), kernel, (1,), [])
    stream = ex.create_stream()
    ex.launch(stream, kernel, (1,), [0])
    with pytest.raises(XlirError, match="DMA_HAZARD in kernel 'k' at pc 0x8"):
        stream.synchronize()
    with pytest.raises(XlirError, match=r"no loop\.kernel @nope \(it has: k\)"):
        ex.load_kernel(image, "nope")


def test_a_grid_of_blocks_is_one_launch() -> None:
    """One core: the kernel runs once whatever the grid, doing every
    block's iterations (the program time counts one launch)."""
    ex = executor()
    image = assemble(".kernel k, 1\n sw a0, 0(zero)\n halt")
    kernel = ex.load_kernel(image, "k")
    stream = ex.create_stream()
    ex.launch(stream, kernel, (4, 2), [7])
    stream.synchronize()
    assert len(kernel.program.profiles) == 1


def test_device_to_device_copies_and_parts_of_allocations() -> None:
    ex = executor()
    manager = ex.platform.transfer_manager()
    x = np.arange(16, dtype=np.float32)
    source = manager.to_device(ex, x)
    target = ex.allocate(x.nbytes)
    ex.copy_device_to_device(target, source)
    back = np.empty_like(x)
    ex.copy_device_to_host(back, target)
    assert back.tobytes() == x.tobytes()
    part = ex.sub_buffer(source, 16, 32)
    assert part.handle == source.handle + 16
    middle = np.empty(8, np.float32)
    ex.copy_device_to_host(middle, part)
    assert middle.tobytes() == x[4:12].tobytes()
    with pytest.raises(XlirError, match="sizes must be equal"):
        ex.copy_device_to_device(part, source)
    ex.deallocate(source)
    with pytest.raises(XlirError, match="has been freed"):
        ex.copy_device_to_device(target, part)
