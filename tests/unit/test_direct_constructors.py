"""The loop and device dialects' constructors make their ops with
`Operation.__init__` directly; each op is the one xDSL's generic
construction (`IRDLOperation.__init__` through `irdl_op_init`) makes of
the same operand groups, result types, properties and regions: the same
operands, result types, properties and attributes in the same order,
segment sizes included, and regions of the same blocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    VectorType,
    f32,
    i8,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, operations
from xlir.dialects import device
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp, ViewOp
from xlir.dialects.syntax import i64_array

from xlir import quick_op_init

BUFFER = MemRefType(f32, [4, 8])
ARENA = MemRefType(i8, [256])
INDEX = IndexType()
_values = Block(arg_types=[BUFFER, INDEX, INDEX, f32, ARENA, device.StreamType()])
buffer, i, j, x, arena, stream = _values.args


def _generic(cls: type[IRDLOperation], **arguments: Any) -> Operation:
    """The op xDSL's own `irdl_op_init` makes of these arguments."""
    op = cls.__new__(cls)
    operations.irdl_op_init = quick_op_init._irdl_op_init
    try:
        IRDLOperation.__init__(op, **arguments)
    finally:
        operations.irdl_op_init = quick_op_init.quick_op_init
    return op


def _shape(region: Region) -> list[tuple[tuple, list[tuple]]]:
    """Each block's argument types and each op's name and operands (the
    block arguments by position)."""
    shape = []
    for block in region.blocks:
        args: list[SSAValue] = list(block.args)
        ops = [(op.name, [args.index(v) for v in op.operands]) for op in block.ops]
        shape.append((tuple(block.arg_types), ops))
    return shape


def _parallel_body() -> Region:
    return Region(Block([YieldOp()], arg_types=[INDEX, INDEX]))


def _for_body() -> Region:
    block = Block(arg_types=[INDEX, f32])
    block.add_op(YieldOp(block.args[1]))
    return Region(block)


def _bounds(lower, upper, step) -> dict[str, Any]:
    return {
        "static_lower": i64_array(lower),
        "static_upper": i64_array(upper),
        "static_step": i64_array(step),
    }


def _generic_kernel(arg_attrs: ArrayAttr | None) -> Operation:
    return _generic(
        KernelOp,
        properties={
            "sym_name": StringAttr("k"),
            "function_type": FunctionType.from_lists([BUFFER], []),
            "arg_attrs": arg_attrs,
        },
        regions=[Region(Block([ReturnOp()], arg_types=[BUFFER]))],
    )


D = DYNAMIC_INDEX
NOALIAS = ArrayAttr([DictionaryAttr({"llvm.noalias": UnitAttr()})])
VALUE = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [2]), [1.0, 2.0])

CASES: dict[str, tuple[Callable[[], Operation], Callable[[], Operation]]] = {
    "parallel, static": (
        lambda: ParallelOp([0, 0], [4, 8], [1, 1]),
        lambda: _generic(
            ParallelOp,
            operands=[[], [], []],
            properties=_bounds([0, 0], [4, 8], [1, 1]),
            regions=[_parallel_body()],
        ),
    ),
    "parallel, dynamic": (
        lambda: ParallelOp([0, i], [j, 8], [1, i]),
        lambda: _generic(
            ParallelOp,
            operands=[[i], [j], [i]],
            properties=_bounds([0, D], [D, 8], [1, D]),
            regions=[_parallel_body()],
        ),
    ),
    "for, carried": (
        lambda: ForOp(0, j, 1, [x]),
        lambda: _generic(
            ForOp,
            operands=[[], [j], [], [x]],
            result_types=[[f32]],
            properties=_bounds([0], [D], [1]),
            regions=[_for_body()],
        ),
    ),
    "for, nothing carried": (
        lambda: ForOp(i, 8, 2),
        lambda: _generic(
            ForOp,
            operands=[[i], [], [], []],
            result_types=[[]],
            properties=_bounds([D], [8], [2]),
            regions=[Region(Block([YieldOp()], arg_types=[INDEX]))],
        ),
    ),
    "yield": (lambda: YieldOp(x, i), lambda: _generic(YieldOp, operands=[[x, i]])),
    "load": (
        lambda: LoadOp(buffer, [i, j]),
        lambda: _generic(LoadOp, operands=[buffer, [i, j]], result_types=[f32]),
    ),
    "load, vector": (
        lambda: LoadOp(buffer, [i, j], VectorType(f32, [4])),
        lambda: _generic(
            LoadOp, operands=[buffer, [i, j]], result_types=[VectorType(f32, [4])]
        ),
    ),
    "store": (
        lambda: StoreOp(x, buffer, [i, j]),
        lambda: _generic(StoreOp, operands=[x, buffer, [i, j]]),
    ),
    "view": (
        lambda: ViewOp(arena, 64, BUFFER),
        lambda: _generic(
            ViewOp,
            operands=[arena],
            properties={"offset": IntegerAttr(64, 64)},
            result_types=[BUFFER],
        ),
    ),
    "reshape": (
        lambda: ReshapeOp(buffer, MemRefType(f32, [32])),
        lambda: _generic(
            ReshapeOp, operands=[buffer], result_types=[MemRefType(f32, [32])]
        ),
    ),
    "kernel": (lambda: KernelOp("k", [BUFFER]), lambda: _generic_kernel(None)),
    "kernel, argument attributes": (
        lambda: KernelOp("k", [BUFFER], arg_attrs=NOALIAS),
        lambda: _generic_kernel(NOALIAS),
    ),
    "return": (ReturnOp, lambda: _generic(ReturnOp)),
    "global": (
        lambda: GlobalOp("cst", VALUE),
        lambda: _generic(
            GlobalOp, properties={"sym_name": StringAttr("cst"), "value": VALUE}
        ),
    ),
    "get_global": (
        lambda: GetGlobalOp("cst", MemRefType(f32, [2])),
        lambda: _generic(
            GetGlobalOp,
            properties={"name": SymbolRefAttr("cst")},
            result_types=[MemRefType(f32, [2])],
        ),
    ),
    "default_stream": (
        device.DefaultStreamOp,
        lambda: _generic(device.DefaultStreamOp, result_types=[device.StreamType()]),
    ),
    "synchronize": (
        lambda: device.SynchronizeOp(stream),
        lambda: _generic(device.SynchronizeOp, operands=[stream]),
    ),
    "free": (
        lambda: device.FreeOp(buffer),
        lambda: _generic(device.FreeOp, operands=[buffer]),
    ),
    "alloc": (
        lambda: device.AllocOp(BUFFER),
        lambda: _generic(device.AllocOp, result_types=[BUFFER]),
    ),
    "copy": (
        lambda: device.CopyOp(
            device.CopyDirection.HOST_TO_DEVICE, buffer, buffer, stream
        ),
        lambda: _generic(
            device.CopyOp,
            operands=[buffer, buffer, stream],
            properties={
                "direction": device.CopyDirectionAttr(
                    device.CopyDirection.HOST_TO_DEVICE
                )
            },
        ),
    ),
    "read_scalar": (
        lambda: device.ReadScalarOp(buffer, [i, j], stream),
        lambda: _generic(
            device.ReadScalarOp, operands=[buffer, [i, j], stream], result_types=[f32]
        ),
    ),
    "launch": (
        lambda: device.LaunchOp("k", [buffer, arena], stream),
        lambda: _generic(
            device.LaunchOp,
            operands=[[buffer, arena], stream],
            properties={"kernel": SymbolRefAttr("k")},
        ),
    ),
    "collective": (
        lambda: device.CollectiveOp([buffer], stream, Region(Block())),
        lambda: _generic(
            device.CollectiveOp, operands=[[buffer], stream], regions=[Region(Block())]
        ),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_the_constructor_makes_xdsls_op(name: str) -> None:
    direct, generic = (make() for make in CASES[name])
    assert type(direct) is type(generic)
    assert list(direct.operands) == list(generic.operands)
    assert list(direct.result_types) == list(generic.result_types)
    assert list(direct.properties.items()) == list(generic.properties.items())
    assert list(direct.attributes.items()) == list(generic.attributes.items())
    assert [_shape(r) for r in direct.regions] == [_shape(r) for r in generic.regions]
