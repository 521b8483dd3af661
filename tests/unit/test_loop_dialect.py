"""The loop and device dialects from Python: the builders `hlo-to-loop` will
use, the mixed static/dynamic bounds, and programs built in Python printing
the text the lit tests pin down."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    f32,
    i8,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xlir.dialects.device import AllocOp, DefaultStreamOp, LaunchOp, SynchronizeOp
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp, ViewOp

from xlir.context import make_context
from xlir.diagnostics import XlirError, verify_module
from xlir.parsing import parse_module

HOST_SCHEDULE = Path(__file__).parent.parent / "lit/device/host_schedule.mlir"
ROW = MemRefType(f32, [64, 128])
VECTOR = MemRefType(f32, [64])


def _parse(text: str) -> ModuleOp:
    module = parse_module(make_context(), text, "test.mlir")
    verify_module(module)
    return module


def _first(module: ModuleOp, kind: type):
    return next(op for op in module.walk() if isinstance(op, kind))


def test_parsed_bounds_mix_integers_and_values() -> None:
    module = _parse(
        """
        loop.kernel @k(%n: index, %s: index) {
          loop.parallel (%i, %j) = (0, %s) to (%n, 16) step (2, %s) {
          }
          loop.return
        }
        """
    )
    kernel = _first(module, KernelOp)
    n, s = kernel.body.block.args
    loop = _first(module, ParallelOp)
    assert loop.lower_bounds == [0, s]
    assert loop.upper_bounds == [n, 16]
    assert loop.steps == [2, s]
    assert list(loop.dynamic_lower) == [s]
    assert len(loop.induction_vars) == 2
    assert isinstance(loop.block.last_op, YieldOp)


def test_parsed_for_reads_back_its_bounds_and_carried_values() -> None:
    module = _parse(
        """
        loop.kernel @k(%n: index, %x: f32) {
          %r = loop.for %k = %n to 10 step 1 iter_args(%a = %x) -> (f32) {
            loop.yield %a : f32
          }
          loop.return
        }
        """
    )
    n, x = _first(module, KernelOp).body.block.args
    loop = _first(module, ForOp)
    assert (loop.lower, loop.upper, loop.step) == (n, 10, 1)
    assert list(loop.iter_args) == [x]
    assert [a.type for a in loop.carried] == [f32]
    assert loop.induction_var.type == IndexType()


def test_builders_make_the_softmax_row_max_kernel() -> None:
    """fusion_1 of tests/lit/device/host_schedule.mlir, built in Python."""
    kernel = KernelOp("fusion_1", [ROW, VECTOR])
    x, out = kernel.body.block.args
    neg_inf = arith.ConstantOp(FloatAttr(float("-inf"), f32))
    rows = ParallelOp([0], [64], [1])
    (i,) = rows.induction_vars
    reduce = ForOp(
        0, 128, 1, [neg_inf.result], Region(Block(arg_types=[IndexType(), f32]))
    )
    j, acc = reduce.block.args
    load = LoadOp(x, [i, j])
    maximum = arith.MaximumfOp(acc, load.result)
    reduce.block.add_ops([load, maximum, YieldOp(maximum.result)])
    rows.block.insert_ops_before(
        [reduce, StoreOp(reduce.results_[0], out, [i])], rows.block.last_op
    )
    kernel.body.block.insert_ops_before([neg_inf, rows], kernel.body.block.last_op)
    verify_module(ModuleOp([kernel]))
    kernel.detach()
    contract = _parse(HOST_SCHEDULE.read_text())
    expected = next(
        op
        for op in contract.ops
        if isinstance(op, KernelOp) and op.sym_name.data == "fusion_1"
    )
    expected.detach()
    assert kernel.is_structurally_equivalent(expected)


def test_default_bodies_verify() -> None:
    x = arith.ConstantOp(FloatAttr(0.0, f32))
    loop = ForOp(0, 4, 1, [x.result])
    assert loop.yield_op().arguments[0] is loop.carried[0]
    kernel = KernelOp("k", [IndexType()])
    kernel.body.block.insert_ops_before(
        [x, loop, ParallelOp([], [], [])], kernel.body.block.last_op
    )
    verify_module(ModuleOp([kernel]))


def test_host_function_launches_a_kernel() -> None:
    kernel = KernelOp("k", [VECTOR])
    host = FuncOp("main", ([], [VECTOR]))
    stream = DefaultStreamOp()
    alloc = AllocOp(VECTOR)
    host.body.block.add_ops(
        [
            stream,
            alloc,
            LaunchOp("k", [alloc.buffer], stream.stream),
            SynchronizeOp(stream.stream),
            ReturnOp(alloc.buffer),
        ]
    )
    module = ModuleOp([kernel, host])
    verify_module(module)
    assert "device.launch @k(%1) on %0 : memref<64xf32>" in str(module)


def test_launch_of_a_wrongly_typed_kernel_is_a_diagnostic() -> None:
    kernel = KernelOp("k", [ROW])
    host = FuncOp("main", ([], []))
    stream = DefaultStreamOp()
    alloc = AllocOp(VECTOR)
    host.body.block.add_ops(
        [stream, alloc, LaunchOp("k", [alloc.buffer], stream.stream), ReturnOp()]
    )
    with pytest.raises(XlirError, match="must equal the parameter types of @k"):
        verify_module(ModuleOp([kernel, host]))


def test_global_buffer_type_follows_its_value() -> None:
    value = DenseIntOrFPElementsAttr.from_list(
        TensorType(f32, [2, 2]), [1.0, 2.0, 3.0, 4.0]
    )
    constant = GlobalOp("c", value)
    assert constant.buffer_type == MemRefType(f32, [2, 2])
    kernel = KernelOp("k", [])
    kernel.body.block.insert_op_before(
        GetGlobalOp("c", constant.buffer_type), kernel.body.block.last_op
    )
    module = ModuleOp([constant, kernel])
    verify_module(module)
    assert (
        "loop.global @c : memref<2x2xf32> = dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>"
        in str(module)
    )


def test_view_offsets() -> None:
    arena = FuncOp("f", ([MemRefType(i8, [512])], []))
    view = ViewOp(arena.body.block.args[0], 256, VECTOR)
    arena.body.block.add_ops([view, ReturnOp()])
    verify_module(ModuleOp([arena]))
    assert view.byte_offset == 256
