"""The host side of a compiled program as data: the manifest beside an
ahead-of-time PTX or cubin (docs/nvptx.md), so that the program runs from
the files alone with Python, numpy and ctypes (scripts/gpu_check.py).

The manifest is the host function's schedule, walked once: every buffer
(the inputs first, in argument order, then each allocation and each
constant, whose bytes it holds in base64), the kernels with their launches
and parameters, and the steps in order: "launch", "copy" (device to
device), and the host's control flow, "while" and "if" on a scalar the
device computed (`device.read_scalar`). Streams, events, synchronization
and frees are left out: a runner runs the steps in order on one stream,
which is one valid schedule of them, and frees every buffer at the end.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xlir.dialects import device
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp
from xlir.targets.base import buffer_bytes
from xlir.targets.device_schedule import constant_array
from xlir.targets.nvptx.ptx import KernelInfo
from xlir.targets.signatures import loop_signature

from xlir.diagnostics import XlirError, format_at_op
from xlir.element_dtypes import array_dtype

FORMAT = "xlir-nvptx-manifest"
VERSION = 1

IGNORED = (
    device.DefaultStreamOp,
    device.StreamCreateOp,
    device.StreamDestroyOp,
    device.EventCreateOp,
    device.EventDestroyOp,
    device.RecordOp,
    device.WaitOp,
    device.SynchronizeOp,
    device.FreeOp,
)
"""Host ops that order work or free memory: nothing for an in-order runner."""

Reference = dict[str, int]
"""{"buffer": id, "offset": bytes}."""


def _dtype_name(type_: Any, op: Operation, sources: dict[str, str]) -> str:
    element = type_.element_type if isinstance(type_, MemRefType) else type_
    dtype = array_dtype(element)
    if dtype is None:
        raise XlirError(format_at_op(op, f"{element} has no numpy dtype", sources))
    return np.dtype(dtype).name


class _Schedule:
    """One walk of a host function (module docstring)."""

    def __init__(self, module: ModuleOp, sources: dict[str, str]):
        self.sources = sources
        self.globals = {
            o.sym_name.data: o for o in module.ops if isinstance(o, GlobalOp)
        }
        self.buffers: list[dict[str, Any]] = []
        self.constants: dict[str, Reference] = {}
        self.values: dict[SSAValue, Any] = {}

    def new_buffer(self, size: int, data: bytes | None = None) -> Reference:
        entry: dict[str, Any] = {"id": len(self.buffers), "bytes": size}
        if data is not None:
            entry["data"] = base64.b64encode(data).decode()
        self.buffers.append(entry)
        return {"buffer": entry["id"], "offset": 0}

    def fail(self, op: Operation, message: str) -> XlirError:
        return XlirError(
            format_at_op(
                op, f"the nvptx manifest cannot express this: {message}", self.sources
            )
        )

    def block(self, block: Block) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = []
        for op in block.ops:
            if isinstance(op, scf.YieldOp | scf.ConditionOp | func.ReturnOp):
                break
            steps += self.op(op)
        return steps

    def op(self, op: Operation) -> list[dict[str, Any]]:
        values = self.values
        match op:
            case _ if isinstance(op, IGNORED):
                return []
            case device.AllocOp():
                values[op.buffer] = self.new_buffer(self.size(op.buffer, op))
            case ViewOp():
                source = values[op.source]
                values[op.result] = {
                    "buffer": source["buffer"],
                    "offset": source["offset"] + op.byte_offset,
                }
            case ReshapeOp():
                values[op.result] = values[op.source]
            case GetGlobalOp():
                values[op.result] = self.constant(
                    op.global_name.root_reference.data, op
                )
            case arith.ConstantOp():
                value = op.value
                if not isinstance(value, IntegerAttr | FloatAttr):
                    raise self.fail(op, f"a host constant {value} is not a scalar")
                values[op.result] = value.value.data
            case arith.IndexCastOp():
                values[op.result] = values[op.input]
            case device.CopyOp():
                if op.direction.data != device.CopyDirection.DEVICE_TO_DEVICE:
                    raise self.fail(
                        op, "a host function's buffers are all device memory"
                    )
                return [
                    {
                        "op": "copy",
                        "src": values[op.source],
                        "dst": values[op.target],
                        "bytes": self.size(op.target, op),
                    }
                ]
            case device.LaunchOp():
                return [self.launch(op)]
            case device.ReadScalarOp():
                values[op.result] = self.scalar(op)
            case scf.WhileOp():
                return [self.loop(op)]
            case scf.IfOp():
                if op.results:
                    raise self.fail(op, "an scf.if with results")
                return [
                    {
                        "op": "if",
                        "test": self.test(op.cond, op),
                        "then": self.block(op.true_region.block),
                        "else": self.block(op.false_region.block)
                        if op.false_region.blocks
                        else [],
                    }
                ]
            case _:
                raise self.fail(op, f"'{op.name}' in the host schedule")
        return []

    def size(self, value: SSAValue, op: Operation) -> int:
        return buffer_bytes(value.type, op, self.sources)

    def constant(self, name: str, op: Operation) -> Reference:
        found = self.constants.get(name)
        if found is None:
            data = constant_array(self.globals[name]).tobytes()
            found = self.new_buffer(self.size(op.results[0], op), data)
            self.constants[name] = found
        return found

    def launch(self, op: device.LaunchOp) -> dict[str, Any]:
        arguments: list[Any] = []
        for value in op.args:
            found = self.values[value]
            if isinstance(value.type, MemRefType):
                arguments.append(found)
            elif isinstance(found, dict):
                raise self.fail(op, "a kernel argument read from the device")
            else:
                arguments.append({"value": found})
        return {
            "op": "launch",
            "kernel": op.kernel.root_reference.data,
            "args": arguments,
        }

    def scalar(self, op: device.ReadScalarOp) -> dict[str, Any]:
        """Where the scalar lies: its buffer, offset and dtype."""
        type_ = op.buffer.type
        assert isinstance(type_, MemRefType)
        indices = [self.values[i] for i in op.indices]
        if any(not isinstance(i, int) for i in indices):
            raise self.fail(op, "a scalar read at an index the device computed")
        shape = type_.get_shape()
        flat = int(np.ravel_multi_index(indices, shape)) if shape else 0
        dtype = _dtype_name(type_, op, self.sources)
        source = self.values[op.buffer]
        return {
            "buffer": source["buffer"],
            "offset": source["offset"] + flat * np.dtype(dtype).itemsize,
            "dtype": dtype,
        }

    def test(self, value: SSAValue, op: Operation) -> dict[str, Any]:
        found = self.values.get(value)
        if not isinstance(found, dict) or "dtype" not in found:
            raise self.fail(op, "a condition that is not a scalar read from the device")
        return found

    def loop(self, op: scf.WhileOp) -> dict[str, Any]:
        if op.arguments or op.results:
            raise self.fail(op, "an scf.while that carries values")
        before = op.before_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        steps = self.block(before)
        return {
            "op": "while",
            "cond": steps,
            "test": self.test(condition.condition, op),
            "body": self.block(op.after_region.block),
        }


def manifest(
    module: ModuleOp,
    kernels: list[KernelInfo],
    sm: int,
    image: str,
    function: str = "main",
    sources: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The manifest of `function`'s host schedule in a mapped loop-level
    module whose PTX (or cubin) file is `image` (module docstring)."""
    sources = sources or {}
    signature = loop_signature(module, function)
    host = next(
        o
        for o in module.ops
        if isinstance(o, func.FuncOp) and o.sym_name.data == function
    )
    schedule = _Schedule(module, sources)
    block = host.body.block
    inputs = []
    for arg, spec in zip(block.args, signature.arguments, strict=True):
        reference = schedule.new_buffer(spec.nbytes)
        schedule.values[arg] = reference
        inputs.append(_tensor(spec, reference))
    steps = schedule.block(block)
    returned = block.last_op
    assert isinstance(returned, func.ReturnOp)
    outputs = [
        _tensor(spec, schedule.values[value])
        for spec, value in zip(signature.results, returned.operands, strict=True)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "sm": sm,
        "image": image,
        "kernels": [
            {
                "name": k.name,
                "grid": [k.blocks, 1, 1],
                "block": [k.threads, 1, 1],
                "shared_bytes": k.shared_bytes,
                "params": list(k.params),
            }
            for k in kernels
        ],
        "buffers": schedule.buffers,
        "inputs": inputs,
        "outputs": outputs,
        "steps": steps,
    }


def _tensor(spec: Any, reference: Reference) -> dict[str, Any]:
    return {
        "name": spec.name,
        "shape": list(spec.shape),
        "dtype": np.dtype(spec.dtype).name,
        **reference,
    }
