"""A collective step of a compiled program, ready to run on buffers.

A `device.collective` step names buffers and holds the HLO op that says what
to exchange. `site_text` writes that op as a module of one function (what a
native entry records for its runtime); `CollectiveStep` makes it ready once
and runs it on numpy views of the step's buffers with the evaluator's own
kernel for the op (evaluator/hlo/collectives.py), through the communicator
it is given: every runtime gives a collective the meaning the evaluator
gives it, and only the communicator (in-process or MPI) differs.
"""

from __future__ import annotations

import ctypes
import math
import threading
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Attribute
from xlir.dialects import device
from xlir.dialects.stablehlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    RecvOp,
    SendOp,
)
from xlir.dialects.stablehlo.control_flow import TokenType
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.evaluator.hlo.collectives import reduction_of
from xlir.evaluator.hlo.engine import ModuleInterpreter
from xlir.evaluator.hlo.process_grid import ProcessContext
from xlir.evaluator.hlo.types import dtype_of, tensor_shape

from xlir.communicator import Communicator, Reduction, groups_of
from xlir.context import make_context
from xlir.parsing import parse_module


class CollectiveStep:
    """One collective step: its HLO op, as a one-op function the evaluator
    runs, and the layouts of its buffers (inputs, then outputs)."""

    def __init__(self, text: str):
        """From the module text `collective_calls.site_text` made."""
        module = parse_module(make_context(), text, "<collective step>")
        function = module.body.block.first_op
        assert isinstance(function, func.FuncOp)
        ftype = function.function_type
        self.layouts = [_layout(t) for t in (*ftype.inputs, *ftype.outputs)]
        self.input_count = len(ftype.inputs)
        self.module = module
        exchange = function.body.block.first_op
        assert exchange is not None
        self.exchange = exchange
        self.uses_channels = isinstance(exchange, SendOp | RecvOp)
        """A send or recv: the program's ranks open their channels first."""
        self.reduction: Reduction | None = None
        self._groups: dict[tuple[Grid, int], list[int]] = {}
        self._threads = threading.local()
        """Per thread, an interpreter (each runs as the rank its caller is: an
        in-process grid's ranks are threads, and wait for each other inside
        the exchange) and the views of the buffers it was last given."""

    def run(self, communicator: Communicator, buffers: Sequence[np.ndarray]) -> None:
        """Exchange on `buffers`, the step's (typed, or raw bytes)."""
        views = [
            buffer.reshape(-1).view(dtype).reshape(shape)
            for buffer, (dtype, shape) in zip(buffers, self.layouts, strict=True)
        ]
        self._exchange(communicator, views)

    def run_at(self, communicator: Communicator, addresses: Sequence[int]) -> None:
        """Exchange on the buffers at these addresses (a native entry's). The
        views are made once per set of addresses: a thread's arena stays put
        from call to call, and a collective's own cost is small."""
        key = tuple(addresses)
        made = getattr(self._threads, "views_at", None)
        if made is None or made[0] != key:
            views = [
                _view_at(address, dtype, shape)
                for address, (dtype, shape) in zip(key, self.layouts, strict=True)
            ]
            made = self._threads.views_at = (key, views)
        self._exchange(communicator, made[1])

    def _exchange(self, communicator: Communicator, views: list[np.ndarray]) -> None:
        inputs, outputs = views[: self.input_count], views[self.input_count :]
        interpreter = getattr(self._threads, "interpreter", None)
        if interpreter is None:
            interpreter = self._threads.interpreter = ModuleInterpreter(self.module)
        if isinstance(self.exchange, AllReduceOp | AllGatherOp):
            self._into_outputs(interpreter, communicator, inputs, outputs)
            return
        interpreter.process = ProcessContext(communicator)
        results = interpreter.call("exchange", inputs)
        for output, result in zip(outputs, results, strict=True):
            output[...] = result

    def _into_outputs(
        self,
        interpreter: ModuleInterpreter,
        communicator: Communicator,
        inputs: Sequence[np.ndarray],
        outputs: Sequence[np.ndarray],
    ) -> None:
        """all_reduce and all_gather straight into their planned buffers:
        the bandwidth-bound collectives of data and model parallelism, spared
        the evaluator's copy of their results (the same reduction, axis and
        groups as its kernels')."""
        key = (communicator.grid, communicator.rank)
        group = self._groups.get(key)
        if group is None:
            groups = groups_of(self.exchange, communicator.grid)
            group = self._groups[key] = next(g for g in groups if key[1] in g)
        values = [  # a result may be planned in an operand's buffer
            value.copy() if any(np.shares_memory(value, o) for o in outputs) else value
            for value in inputs
        ]
        if isinstance(self.exchange, AllGatherOp):
            axis = self.exchange.all_gather_dim.value.data
            for value, out in zip(values, outputs, strict=True):
                communicator.gather_along(value, group, axis, out)
            return
        if self.reduction is None:
            self.reduction = reduction_of(self.exchange, interpreter)
        communicator.all_reduce_many(values, group, self.reduction, outputs)


def _layout(type_: Attribute) -> tuple[np.dtype, tuple[int, ...]]:
    """The dtype and shape of a step's buffer: a token's is empty (it orders
    a send or recv, and holds nothing)."""
    if isinstance(type_, TokenType):
        return np.dtype(np.uint8), (0,)
    return dtype_of(type_), tensor_shape(type_)


def _view_at(address: int, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """The array of `dtype` and `shape` at `address`."""
    size = math.prod(shape) * dtype.itemsize
    if size == 0:
        return np.empty(shape, dtype)
    pointer = ctypes.cast(address, ctypes.POINTER(ctypes.c_uint8))
    return np.ctypeslib.as_array(pointer, (size,)).view(dtype).reshape(shape)


def site_text(op: device.CollectiveOp) -> str:
    """The step's HLO op as a module of one function, `@exchange`, from
    its inputs to its results."""
    region = op.body.clone()
    block = region.block
    returned = block.last_op
    assert returned is not None
    results = list(returned.operands)
    block.insert_op_before(func.ReturnOp(*results), returned)
    block.erase_op(returned)
    function = func.FuncOp(
        "exchange",
        FunctionType.from_lists(block.arg_types, [v.type for v in results]),
        region,
    )
    return str(ModuleOp([function]))
