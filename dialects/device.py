"""The `device` dialect: the host side of a compiled program, StreamExecutor in IR.

A host function is a `func.func` whose arguments and results are the
program's parameters and outputs as `memref`s in device memory (XLA's
executables take and return device buffers; the runtime's TransferManager moves
numpy arrays in and out). Its body allocates device memory (the temp arena and
the outputs), launches `loop.kernel`s on streams, orders streams with events,
and frees the arena. Host control flow is xDSL's `scf` (`scf.while`, `scf.if`,
`scf.index_switch`) and host arithmetic `arith`; a predicate computed on the
device comes to the host with `device.read_scalar`.

Device buffers are plain `memref`s, not a buffer type of their own: on a CPU,
host and device memory are one, so every op here lowers to plain code
(`device.alloc` to an aligned malloc, `device.launch` to a call, stream and
event ops to nothing); on a GPU a memref's pointer is a device pointer and the
ops map one to one onto the driver (cuMemAlloc, cuMemcpy*Async, cuLaunchKernel,
cuEventRecord, cuStreamWaitEvent, cuStreamSynchronize). Which side a buffer
lives on is said by the op that uses it: only `device.copy` touches host
memory, and its direction says which operand that is.

    func.func @main(%x: memref<64xf32>) -> memref<64xf32> {
      %s = device.default_stream
      %y = device.alloc : memref<64xf32>
      device.launch @fusion_0(%x, %y) on %s : memref<64xf32>, memref<64xf32>
      device.synchronize %s
      func.return %y : memref<64xf32>
    }

The constructors make their ops with `Operation.__init__` directly, as the
loop dialect's do (see `xlir.dialects.loop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryFreeEffect,
    OpTrait,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import verify_indices
from xlir.dialects.stablehlo.control_flow import TokenType
from xlir.dialects.symbols import lookup_symbol


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """`!device.stream`: an ordered queue of copies and launches."""

    name = "device.stream"


@irdl_attr_definition
class EventType(ParametrizedAttribute, TypeAttribute):
    """`!device.event`: a point in a stream that another stream can wait on."""

    name = "device.event"


class CopyDirection(StrEnum):
    HOST_TO_DEVICE = "host_to_device"
    DEVICE_TO_HOST = "device_to_host"
    DEVICE_TO_DEVICE = "device_to_device"


@irdl_attr_definition
class CopyDirectionAttr(EnumAttribute[CopyDirection], SpacedOpaqueSyntaxAttribute):
    """`#device<direction host_to_device>` in the generic form."""

    name = "device.direction"


def _static_identity(type: MemRefType) -> bool:
    return DYNAMIC_INDEX not in type.get_shape() and isinstance(type.layout, NoneAttr)


# Streams and events.


class LaunchableKernel(OpTrait):
    """A target's own kernel op (a lowered `loop.kernel`, named by its
    `sym_name`) that `device.launch` may name: `accel.kernel`, a plug-in's
    kernel op, and `llvm.func` (dialects/llvm.py)."""


@irdl_op_definition
class DefaultStreamOp(IRDLOperation):
    """The stream the executable was called on (XLA's ExecuteOnStream).

    `%s = device.default_stream`"""

    name = "device.default_stream"
    stream = result_def(StreamType)
    assembly_format = "attr-dict"

    def __init__(self):
        Operation.__init__(self, result_types=[StreamType()])


@irdl_op_definition
class StreamCreateOp(IRDLOperation):
    """A new stream, for work that may overlap the default stream's.

    `%s = device.stream_create`"""

    name = "device.stream_create"
    stream = result_def(StreamType)
    assembly_format = "attr-dict"

    def __init__(self):
        Operation.__init__(self, result_types=[StreamType()])


@irdl_op_definition
class StreamDestroyOp(IRDLOperation):
    """Release a stream from `device.stream_create` once its work is done.

    `device.stream_destroy %s`"""

    name = "device.stream_destroy"
    stream = operand_def(StreamType)
    assembly_format = "$stream attr-dict"

    def __init__(self, stream: SSAValue):
        Operation.__init__(self, operands=[stream])


@irdl_op_definition
class EventCreateOp(IRDLOperation):
    """A new event. `%e = device.event_create`"""

    name = "device.event_create"
    event = result_def(EventType)
    assembly_format = "attr-dict"

    def __init__(self):
        Operation.__init__(self, result_types=[EventType()])


@irdl_op_definition
class EventDestroyOp(IRDLOperation):
    """Release an event. `device.event_destroy %e`"""

    name = "device.event_destroy"
    event = operand_def(EventType)
    assembly_format = "$event attr-dict"

    def __init__(self, event: SSAValue):
        Operation.__init__(self, operands=[event])


@irdl_op_definition
class RecordOp(IRDLOperation):
    """Mark the event done when the stream reaches this point.

    `device.record %e on %s`"""

    name = "device.record"
    event = operand_def(EventType)
    stream = operand_def(StreamType)
    assembly_format = "$event `on` $stream attr-dict"

    def __init__(self, event: SSAValue, stream: SSAValue):
        Operation.__init__(self, operands=[event, stream])


@irdl_op_definition
class WaitOp(IRDLOperation):
    """Hold the stream's later work until the event is done (the host does
    not wait).

    `device.wait %e on %s`"""

    name = "device.wait"
    event = operand_def(EventType)
    stream = operand_def(StreamType)
    assembly_format = "$event `on` $stream attr-dict"

    def __init__(self, event: SSAValue, stream: SSAValue):
        Operation.__init__(self, operands=[event, stream])


@irdl_op_definition
class SynchronizeOp(IRDLOperation):
    """Block the host until the stream's work is done.

    `device.synchronize %s`"""

    name = "device.synchronize"
    stream = operand_def(StreamType)
    assembly_format = "$stream attr-dict"

    def __init__(self, stream: SSAValue):
        Operation.__init__(self, operands=[stream])


# Memory.


@irdl_op_definition
class AllocOp(IRDLOperation):
    """Device memory for a buffer of static shape, aligned to at least 64
    bytes (what the buffer plan's offsets assume).

    `%arena = device.alloc : memref<8192xi8>`"""

    name = "device.alloc"
    buffer = result_def(MemRefType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($buffer)"

    def __init__(self, buffer_type: MemRefType):
        Operation.__init__(self, result_types=[buffer_type])

    def verify_(self) -> None:
        assert isinstance(self.buffer.type, MemRefType)
        if not _static_identity(self.buffer.type):
            raise VerifyException(
                f"'{self.name}' op buffer type {self.buffer.type} must have a static "
                "shape and the row-major identity layout"
            )


@irdl_op_definition
class FreeOp(IRDLOperation):
    """Release memory from `device.alloc`.

    `device.free %arena : memref<8192xi8>`"""

    name = "device.free"
    buffer = operand_def(MemRefType)
    traits = traits_def(MemoryFreeEffect())
    assembly_format = "$buffer attr-dict `:` type($buffer)"

    def __init__(self, buffer: SSAValue):
        Operation.__init__(self, operands=[buffer])


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copy a whole buffer, in stream order; the direction says which side is
    host memory.

    `device.copy host_to_device %src, %dst on %s : memref<64xf32>, memref<64xf32>`

    Both buffers have the same shape and element type."""

    name = "device.copy"
    direction = prop_def(CopyDirectionAttr)
    source = operand_def(MemRefType)
    target = operand_def(MemRefType)
    stream = operand_def(StreamType)
    assembly_format = (
        "$direction $source `,` $target `on` $stream attr-dict `:` "
        "type($source) `,` type($target)"
    )

    def __init__(
        self,
        direction: CopyDirection,
        source: SSAValue,
        target: SSAValue,
        stream: SSAValue,
    ):
        Operation.__init__(
            self,
            operands=[source, target, stream],
            properties={"direction": CopyDirectionAttr(direction)},
        )

    def verify_(self) -> None:
        source, target = self.source.type, self.target.type
        assert isinstance(source, MemRefType) and isinstance(target, MemRefType)
        if (source.get_shape(), source.element_type) != (
            target.get_shape(),
            target.element_type,
        ):
            raise VerifyException(
                f"'{self.name}' op source {source} and target {target} must have the "
                "same shape and element type"
            )


@irdl_op_definition
class ReadScalarOp(IRDLOperation):
    """One element of a device buffer, on the host: waits for the stream's
    work, then reads (a `stablehlo.while` predicate computed by a kernel).

    `%p = device.read_scalar %pred[] on %s : memref<i1>`"""

    name = "device.read_scalar"
    T: ClassVar = VarConstraint("T", AnyAttr())
    buffer = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    stream = operand_def(StreamType)
    result = result_def(T)
    assembly_format = (
        "$buffer `[` $indices `]` `on` $stream attr-dict `:` type($buffer)"
    )

    def __init__(self, buffer: SSAValue, indices: Sequence[SSAValue], stream: SSAValue):
        assert isinstance(buffer.type, MemRefType)
        Operation.__init__(
            self,
            operands=[buffer, *indices, stream],
            result_types=[buffer.type.element_type],
        )

    def verify_(self) -> None:
        verify_indices(self, self.buffer, self.indices)


# Kernels.


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Run a `loop.kernel` (or a target's lowering of it, an op with the
    `LaunchableKernel` trait: the `llvm.func` between `loop-to-llvm` and
    `device-to-llvm`, an `accel.kernel`) on a stream with these arguments. How its
    `loop.parallel` iterations map onto threads and blocks is the target's
    choice, made from the kernel itself.

    `device.launch @fusion_0(%x, %y) on %s : memref<64xf32>, memref<64xf32>`"""

    name = "device.launch"
    kernel = prop_def(SymbolRefAttr)
    args = var_operand_def()
    stream = operand_def(StreamType)
    assembly_format = "$kernel `(` $args `)` `on` $stream attr-dict (`:` type($args)^)?"

    def __init__(self, kernel: str, args: Sequence[SSAValue], stream: SSAValue):
        Operation.__init__(
            self, operands=[*args, stream], properties={"kernel": SymbolRefAttr(kernel)}
        )

    def verify_(self) -> None:
        found = lookup_symbol(self, self.kernel)
        if found is not None and found.has_trait(LaunchableKernel):
            return  # a kernel a target lowered to its own dialect
        if not isinstance(found, KernelOp):
            what = "not defined" if found is None else f"a '{found.name}'"
            raise VerifyException(
                f"'{self.name}' op {self.kernel} is {what}, not a 'loop.kernel'"
            )
        expected = list(found.argument_types)
        given = list(self.args.types)
        if given != expected:
            raise VerifyException(
                f"'{self.name}' op argument types ({', '.join(map(str, given))}) "
                f"must equal the parameter types of {self.kernel} "
                f"({', '.join(map(str, expected))})"
            )


# Collectives.


def _same_bits(tensor_element: Attribute, buffer_element: Attribute) -> bool:
    """Whether a buffer's element holds a tensor's (buffers are signless)."""
    if isinstance(tensor_element, IntegerType) and isinstance(
        buffer_element, IntegerType
    ):
        return tensor_element.width == buffer_element.width
    return tensor_element == buffer_element


@irdl_op_definition
class CollectiveOp(IRDLOperation):
    """Exchange buffers with the other devices of the program's grid, in
    stream order: the HLO op in the region (a collective such as
    `stablehlo.all_reduce`, `replica_id` / `partition_id`, or a `send` or
    `recv`, whose tokens are empty buffers) on the input
    buffers, writing the output buffers; `args` holds the inputs then the
    outputs. The region's block takes the inputs as tensors and returns the
    op's results (`stablehlo.return`): the runtime reads from it what to
    exchange with whom, so every target's runtime runs the op with the one
    meaning the evaluator gives it, through its communicator.

    `device.collective(%x, %y) on %s : memref<8xf32>, memref<8xf32> {...}`"""

    name = "device.collective"
    args = var_operand_def(MemRefType)
    stream = operand_def(StreamType)
    body = region_def("single_block")
    assembly_format = "`(` $args `)` `on` $stream attr-dict `:` type($args) $body"

    def __init__(self, args: Sequence[SSAValue], stream: SSAValue, body: Region):
        Operation.__init__(self, operands=[*args, stream], regions=[body])

    @property
    def inputs(self) -> Sequence[SSAValue]:
        return self.args[: len(self.body.block.args)]

    @property
    def outputs(self) -> Sequence[SSAValue]:
        return self.args[len(self.body.block.args) :]

    @property
    def exchange(self) -> Operation:
        """The HLO op that says what to exchange (the region's first op)."""
        op = self.body.block.first_op
        assert op is not None
        return op

    def verify_(self) -> None:
        block = self.body.block
        returned = block.last_op
        if returned is None or returned is block.first_op or not returned.operands:
            raise VerifyException(
                f"'{self.name}' op region must hold one HLO op and return its results"
            )
        tensors = [*block.arg_types, *returned.operand_types]
        buffers = list(self.args.types)
        if len(tensors) != len(buffers):
            raise VerifyException(
                f"'{self.name}' op has {len(buffers)} buffer(s), but its region "
                f"takes {len(block.args)} input(s) and returns "
                f"{len(returned.operands)} result(s)"
            )
        for index, (tensor, buffer) in enumerate(zip(tensors, buffers, strict=True)):
            assert isinstance(buffer, MemRefType)
            if isinstance(tensor, TokenType):  # orders a send or recv: no data
                holds = buffer.get_shape() == (0,)
            else:
                holds = (
                    isinstance(tensor, TensorType)
                    and tensor.get_shape() == buffer.get_shape()
                    and _same_bits(tensor.get_element_type(), buffer.get_element_type())
                )
            if not holds:
                raise VerifyException(
                    f"'{self.name}' op buffer #{index} of type {buffer} does not "
                    f"hold the region's value of type {tensor}"
                )


DEVICE_OPS: list[type[IRDLOperation]] = [
    DefaultStreamOp,
    StreamCreateOp,
    StreamDestroyOp,
    EventCreateOp,
    EventDestroyOp,
    RecordOp,
    WaitOp,
    SynchronizeOp,
    AllocOp,
    FreeOp,
    CopyOp,
    ReadScalarOp,
    LaunchOp,
    CollectiveOp,
]

Device = Dialect("device", [*DEVICE_OPS], [StreamType, EventType, CopyDirectionAttr])
"""The device dialect."""
