"""The host schedule on the CPU: plain code in the native entry point (the
cpu target's entry ABI).

The entry of host function `@f` is `void f(void **args, void **results,
void *temp)`: the caller passes one pointer per parameter and per result
and the temp arena (the buffer plan's `arena` bytes, allocated once per
executable). Streams and events vanish (the CPU runs kernels in order, each
to completion), `device.launch` is a call, `device.read_scalar` a load and
`device.copy` a `memcpy`, `device.collective` a call into the runtime
(lowering/llvm/collective_calls.py). The arena allocation is `temp` (with
the scratch `scratch-in-arena` put in it), an output's is its result
pointer, and any other allocation is `malloc`/`free`. A
returned buffer that is not its result's memory (a donated parameter, a
buffer returned twice) is copied there before returning.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import MemRefType, i64
from xdsl.ir import Operation, SSAValue
from xlir.dialects import device
from xlir.dialects.loop.memory import ViewOp
from xlir.lowering.llvm.collective_calls import CollectiveCalls
from xlir.lowering.llvm.function import PTR, FunctionBuilder, Unsupported
from xlir.lowering.llvm.launch_timers import LaunchTimers

from xlir.element_types import byte_width
from xlir.walk import walk

ENTRY_TYPE = llvm.LLVMFunctionType([PTR, PTR, PTR])
"""`void entry(void **args, void **results, void *temp)`."""

HOST_OPS = {
    "device.default_stream",
    "device.stream_create",
    "device.stream_destroy",
    "device.event_create",
    "device.event_destroy",
    "device.record",
    "device.wait",
    "device.synchronize",
    "device.alloc",
    "device.free",
    "device.copy",
    "device.read_scalar",
    "device.launch",
    "device.collective",
    "func.return",
}
"""The ops of a host function `HostLowering` lowers itself."""


def byte_count(type_: MemRefType, op: Operation) -> int:
    size = byte_width(type_.element_type)
    if size is None:
        raise Unsupported(op, f"has a buffer {type_} without a byte size")
    return size * prod(type_.get_shape())


class HostLowering:
    """Lowers the device-dialect ops of one host function (see the module
    docstring); `entry` is the new function's block arguments."""

    def __init__(
        self,
        function: func.FuncOp,
        b: FunctionBuilder,
        timers: LaunchTimers | None = None,
        collectives: CollectiveCalls | None = None,
    ):
        self.function = function
        self.timers = timers
        self.collectives = collectives or CollectiveCalls()
        """Numbers the module's collective steps (collective_calls.py)."""
        """Where launches get timers (launch_timers.py); None: plain calls."""
        args_ptr, results_ptr, self.temp = b.region.blocks[0].args
        block = function.body.block
        for index, arg in enumerate(block.args):
            b.bind(arg, self._slot(b, args_ptr, index))
        returned = block.last_op
        assert isinstance(returned, func.ReturnOp)
        self.result_slots: dict[SSAValue, int] = {}
        for index, value in enumerate(returned.arguments):
            self.result_slots.setdefault(value, index)
        self.results_ptr = results_ptr
        self.arenas = {op.source for op in walk(function) if isinstance(op, ViewOp)}
        sizes = [byte_count(a.type, function) for a in self.arenas]  # pyright: ignore[reportArgumentType]
        self.temp_bytes = max(sizes, default=0)
        """The bytes `temp` holds: the arena's, with the scratch that
        `scratch-in-arena` put in it."""

    def wrap(
        self, lower: Callable[[FunctionBuilder, Operation], None]
    ) -> Callable[[FunctionBuilder, Operation], None]:
        """`lower`, with the device ops and the return handled here first."""

        def lower_op(b: FunctionBuilder, op: Operation) -> None:
            if not self.lower(b, op):
                lower(b, op)

        return lower_op

    @staticmethod
    def _slot(b: FunctionBuilder, array: SSAValue, index: int) -> SSAValue:
        address = b.gep(array, (index,), PTR)
        return b.load(address, PTR)

    def lower(self, b: FunctionBuilder, op: Operation) -> bool:
        """Lower `op` if it is a device op or the return; False otherwise."""
        match op:
            case device.AllocOp():
                b.bind(op.buffer, self._alloc(b, op))
            case device.FreeOp():
                if not (op.buffer in self.arenas or op.buffer in self.result_slots):
                    b.module.declare("free", [PTR], llvm.LLVMVoidType())
                    b.call("free", [b.get(op.buffer)])
            case device.LaunchOp() if self.timers is not None:
                self.timers.launch(b, op)
            case device.LaunchOp():
                args = [b.get(a) for a in op.args]
                b.call(op.kernel.root_reference.data, args)
            case device.CollectiveOp():
                self.collectives.call(b, op)
            case device.ReadScalarOp():
                address = b.element_pointer(op.buffer, op.indices, op)
                b.bind(op.result, b.load(address, op.result.type))
            case device.CopyOp():
                size = byte_count(op.source.type, op)  # pyright: ignore[reportArgumentType]
                b.copy_bytes(
                    b.get(op.target), b.get(op.source), size, may_overlap=False
                )
            case func.ReturnOp():
                self._return(b, op)
            case (
                device.DefaultStreamOp()
                | device.StreamCreateOp()
                | device.StreamDestroyOp()
                | device.EventCreateOp()
                | device.EventDestroyOp()
                | device.RecordOp()
                | device.WaitOp()
                | device.SynchronizeOp()
            ):
                pass
            case _:
                return False
        return True

    def _alloc(self, b: FunctionBuilder, op: device.AllocOp) -> SSAValue:
        if op.buffer in self.arenas:
            return self.temp
        if op.buffer in self.result_slots:
            return self._slot(b, self.results_ptr, self.result_slots[op.buffer])
        b.module.declare("malloc", [i64], PTR)
        size = b.const(max(byte_count(op.buffer.type, op), 1))  # pyright: ignore[reportArgumentType]
        return b.call("malloc", [size], PTR)

    def _return(self, b: FunctionBuilder, op: func.ReturnOp) -> None:
        for index, value in enumerate(op.arguments):
            own = isinstance(value.owner, device.AllocOp) and (
                self.result_slots.get(value) == index
            )
            if not own:
                target = self._slot(b, self.results_ptr, index)
                size = byte_count(value.type, op)  # pyright: ignore[reportArgumentType]
                b.copy_bytes(target, b.get(value), size, may_overlap=False)
        b.emit(llvm.ReturnOp())
