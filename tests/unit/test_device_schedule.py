"""The generic executor of the `device` dialect (targets/device_schedule.py)
and the host-memory executor under it (targets/host_memory.py): host control
flow, returned buffers the caller owns, blocks sharing a kernel, and
diagnostics with the op's location."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.host_memory import HostKernel, split_kernel
from xlir.targets.registry import get_platform

import xlir
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

LOWER = "hlo-opt,hlo-to-loop"


def _schedule(text: str, target: str = "interpreter") -> DeviceScheduleExecutable:
    platform = get_platform(target)
    module = parse_module(make_context(), text, "host.mlir")
    image = platform.compiler().compile_kernels(module)
    return DeviceScheduleExecutable(
        platform, module, image, sources={"host.mlir": text}
    )


CASE = """func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%i) ({
    %a = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %m = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %m : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

WHILE = """func.func @main(%x: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%n = %zero, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %limit = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %n, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n1 = stablehlo.add %n, %one : tensor<i32>
    %v1 = stablehlo.add %v, %v : tensor<4xf32>
    stablehlo.return %n1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
}
"""


def test_host_control_flow_runs_on_the_host() -> None:
    """`scf.index_switch` and `scf.while` around launches, their predicates
    read back with `device.read_scalar`, as the HLO interpreter computes."""
    x = np.array([1, -2, 3, 0.5], np.float32)
    lowered = xlir.compile(CASE, pipeline=LOWER)
    assert isinstance(lowered, DeviceScheduleExecutable)
    for index in (0, 1, 7):  # out of range: the last branch
        want = xlir.compile(CASE)(np.int32(index), x)
        np.testing.assert_array_equal(lowered(np.int32(index), x), want)
    count, doubled = xlir.compile(WHILE, pipeline=LOWER)(x)
    assert count == 5
    np.testing.assert_array_equal(doubled, x * 32)


def test_a_returned_argument_is_the_callers_own_buffer() -> None:
    text = """func.func @main(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  return %x, %x : tensor<3xi32>, tensor<3xi32>
}
"""
    executable = xlir.compile(text, pipeline=LOWER)
    executor = executable.platform.executor(0)
    before = executor.allocated_bytes
    x = np.array([4, 5, 6], np.int32)
    first, second = executable(x)
    np.testing.assert_array_equal(first, x)
    np.testing.assert_array_equal(second, x)
    assert executor.allocated_bytes == before


KERNEL = """loop.kernel @twice(%x: memref<8xf32>, %y: memref<8xf32>) {
  loop.parallel (%i) = (0) to (8) step (1) {
    %v = loop.load %x[%i] : memref<8xf32>
    loop.store %v, %y[%i] : memref<8xf32>
  }
  loop.parallel (%i) = (0) to (8) step (1) {
    %v = loop.load %y[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    loop.store %w, %y[%i] : memref<8xf32>
  }
  loop.return
}
loop.kernel @rows(%y: memref<8xf32>) {
  loop.parallel (%i) = (1) to (8) step (3) {
    %c = arith.constant 1.0 : f32
    loop.store %c, %y[%i] : memref<8xf32>
  }
  loop.return
}
"""


def test_blocks_share_the_outer_loop() -> None:
    """Each block runs a contiguous share of the first dimension's
    iterations (1, 4, 7 here), steps kept; shares differ by at most one."""
    module = parse_module(make_context(), KERNEL, "k.mlir")
    kernel = next(op for op in module.ops if op.sym_name.data == "rows")  # pyright: ignore[reportAttributeAccessIssue]
    shares = split_kernel(kernel, 2)  # pyright: ignore[reportArgumentType]
    bounds = [
        (p.lower_bounds[0], p.upper_bounds[0], p.steps[0])  # pyright: ignore[reportAttributeAccessIssue]
        for share in shares
        for p in share.body.block.ops
        if p.name == "loop.parallel"
    ]
    assert bounds == [(1, 4, 3), (4, 8, 3)]


def test_a_kernel_of_two_loops_runs_on_one_block_only() -> None:
    platform = get_platform("interpreter")
    executor = platform.executor(0)
    module = parse_module(make_context(), KERNEL, "k.mlir")
    kernel = executor.load_kernel(platform.compiler().compile_kernels(module), "twice")
    x, y = executor.allocate(32), executor.allocate(32)
    executor.copy_host_to_device(x, np.arange(8, dtype=np.float32))
    stream = executor.create_stream()
    executor.launch(stream, kernel, (1,), [x, y])
    stream.synchronize()
    out = np.empty(8, np.float32)
    executor.copy_device_to_host(out, y)
    np.testing.assert_array_equal(out, np.arange(8) * 2)
    executor.launch(stream, kernel, (2,), [x, y])
    with pytest.raises(XlirError, match="@twice cannot be split between blocks"):
        stream.synchronize()


def test_a_launch_that_does_not_fit_the_kernels_parameters_is_refused() -> None:
    """The loop kernel says its parameters (`buffer_parameters`), so the
    launch checks the arguments' count and kinds before enqueueing."""
    platform = get_platform("interpreter")
    executor = platform.executor(0)
    module = parse_module(make_context(), KERNEL, "k.mlir")
    kernel = executor.load_kernel(platform.compiler().compile_kernels(module), "twice")
    x = executor.allocate(32)
    stream = executor.create_stream()
    for arguments, message in [
        ([x], r"launch of @twice: it takes 2 argument\(s\), not 1"),
        ([x, 2.0], "argument 1 is a scalar; expected a device buffer"),
    ]:
        with pytest.raises(XlirError, match=message):
            executor.launch(stream, kernel, (1,), arguments)
    assert stream.pending == 0


def test_a_whole_program_runs_on_one_block() -> None:
    executable = xlir.compile(CASE)
    executor = executable.platform.executor(0)
    kernel = executor.load_kernel(executable, "main")
    stream = executor.create_stream()
    buffers = [executor.allocate(4), executor.allocate(16), executor.allocate(16)]
    executor.launch(stream, kernel, (2,), buffers)
    with pytest.raises(XlirError, match="whole program, which runs on one block"):
        stream.synchronize()
    with pytest.raises(XlirError, match="has no kernel @other"):
        executor.load_kernel(executable, "other")


@dataclass
class _Fill(HostKernel):
    """A target's own kernel (as a simulator's): fills its buffer."""

    name: str
    value: float

    def run(self, grid: tuple[int, ...], arguments: Sequence[Any]) -> None:
        arguments[0].handle.view(np.float32)[:] = self.value


def test_kernels_by_name_load_on_host_memory() -> None:
    """A mapping of names to a target's own kernels is an image too; a name
    it lacks is a diagnostic listing those it has."""
    executor = get_platform("interpreter").executor(0)
    image = {"one": _Fill("one", 1.0), "two": _Fill("two", 2.0)}
    buffer = executor.allocate(16)
    stream = executor.create_stream()
    executor.launch(stream, executor.load_kernel(image, "two"), (1,), [buffer])
    stream.synchronize()
    out = np.empty(4, np.float32)
    executor.copy_device_to_host(out, buffer)
    np.testing.assert_array_equal(out, [2, 2, 2, 2])
    with pytest.raises(XlirError, match=r"no kernel @three \(kernels: @one, @two\)"):
        executor.load_kernel(image, "three")


def test_schedule_errors_point_at_the_op() -> None:
    text = """loop.kernel @k(%x: memref<4xf32>) {
  loop.return
}
func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
  %s = device.default_stream
  %b = device.alloc : memref<4xf32>
  device.free %b : memref<4xf32>
  device.launch @k(%b) on %s : memref<4xf32>
  func.return %x : memref<4xf32>
}
"""
    with pytest.raises(XlirError) as caught:
        _schedule(text)(np.zeros(4, np.float32))
    assert "host.mlir:8:3: error: launch of @k: argument 0 is a device buffer " in str(
        caught.value
    )
    freeing = text.replace("device.free %b", "device.free %x")
    with pytest.raises(
        XlirError, match=r"host.mlir:7:3: error: device.free of a buffer"
    ):
        _schedule(freeing)(np.zeros(4, np.float32))
    unknown = text.replace(
        "  device.free %b : memref<4xf32>\n",
        "  %m = memref.alloc() : memref<4xf32>\n",
    )
    with pytest.raises(XlirError) as caught:
        _schedule(unknown)
    assert "host.mlir:7:3: error: 'memref.alloc' cannot run on the host" in str(
        caught.value
    )


@pytest.mark.parametrize("target", ["interpreter", "cpu"])
def test_host_executables_run_when_the_stream_does(target: str) -> None:
    """`execute` enqueues one launch: the outputs hold nothing until the
    stream synchronizes (the cpu's native entry included)."""
    executable = xlir.compile(CASE, target=target)
    executor = executable.platform.executor(0)
    transfer = executable.platform.transfer_manager()
    x = np.array([1, 2, 3, 4], np.float32)
    inputs = [
        transfer.to_device(executor, np.array(1, np.int32)),
        transfer.to_device(executor, x),
    ]
    stream = executor.create_stream()
    (output,) = executable.execute(inputs, stream)
    spec = executable.signature.results[0]
    assert stream.pending == 1
    np.testing.assert_array_equal(transfer.from_device(executor, output, spec), 0)
    stream.synchronize()
    np.testing.assert_array_equal(transfer.from_device(executor, output, spec), x * x)


BOOLEAN_LOOP = """func.func @main() -> tensor<2xi1> {
  %t = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%k = %z, %b = %t) : tensor<i32>, tensor<2xi1>
  cond {
    %n = stablehlo.constant dense<1> : tensor<i32>
    %c = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %o = stablehlo.constant dense<1> : tensor<i32>
    %k1 = stablehlo.add %k, %o : tensor<i32>
    %nb = stablehlo.not %b : tensor<2xi1>
    stablehlo.return %k1, %nb : tensor<i32>, tensor<2xi1>
  }
  return %r#1 : tensor<2xi1>
}"""


@pytest.mark.parametrize("target", ["interpreter", "accel", "nvptx-emu"])
def test_boolean_constants_go_to_the_device_as_zero_or_one(target: str) -> None:
    """xDSL stores an i1 `true` as the byte 0xFF; sent as those bits, a
    device's `not` (xor 1) left it true (a random program found it)."""
    out = xlir.compile(BOOLEAN_LOOP, target=target)()
    assert np.asarray(out).tolist() == [False, True]
