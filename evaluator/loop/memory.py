"""Buffers: loads and stores (gathers and scatters over the lanes of a
vectorized loop, bounds-checked; a vector load or store moves its lanes along
the last index), views of byte arenas, reshapes, globals, allocations and
copies (`loop`, `memref` and `device` memory ops).

Views and reshapes are numpy views, so buffers alias as they do on a
device: an in-place buffer plan really writes over its operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xlir.dialects.device import AllocOp, CopyOp, FreeOp, ReadScalarOp
from xlir.dialects.loop.globals import GetGlobalOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp, ViewOp
from xlir.evaluator.hlo.types import Unsupported
from xlir.evaluator.loop.engine import Env, Scope, Step, impl
from xlir.evaluator.loop.values import (
    loader,
    memref_type,
    new_buffer,
    storage_dtype,
    storer,
)
from xlir.evaluator.loop.vector import lane_offsets, lanes_of

from xlir.diagnostics import XlirError


def _outside(index: Sequence[Any], shape: Sequence[int]) -> bool:
    """Whether some lane's index lies outside the buffer (min/max per dimension)."""
    for position, n in zip(index, shape, strict=True):
        if type(position) is np.ndarray:
            if position.size and (position.min() < 0 or position.max() >= n):
                return True
        elif position < 0 or position >= n:
            return True
    return False


def _out_of_bounds(
    op: Operation, scope: Scope, index: Sequence[Any], buffer_type: MemRefType
) -> XlirError:
    """A diagnostic naming the first lane's index that lies outside."""
    shape = buffer_type.get_shape()
    lanes = np.broadcast_arrays(*[np.asarray(i) for i in index])
    bad = np.zeros(lanes[0].shape if lanes else (), bool)
    for lane, n in zip(lanes, shape, strict=True):
        bad |= (lane < 0) | (lane >= n)
    first = tuple(np.argwhere(bad)[0]) if bad.ndim else ()
    found = ", ".join(str(int(lane[first])) for lane in lanes)
    return scope.fail(op, f"index [{found}] is out of bounds of {buffer_type}")


def _indexer(scope: Scope, slots: Sequence[int], value_type: Any):
    """env -> the access's index tuple, its last index spread over the lanes
    when the access moves a vector."""
    lanes = lanes_of(value_type)
    if lanes is None:
        return lambda env: tuple([env[i] for i in slots])
    offsets = lane_offsets(lanes, scope)
    *leading, last = slots

    def index(env: Env) -> tuple[Any, ...]:
        return (*[env[i] for i in leading], env[last] + offsets)

    return index


def _masked(index: tuple[Any, ...], mask: Any) -> tuple[Any, ...]:
    """Indices with inactive lanes moved to 0, so that they load in bounds."""
    return tuple(np.where(mask, i, 0) for i in index)


@impl(LoadOp, memref.LoadOp, ReadScalarOp)
def _load(op: Operation, scope: Scope) -> Step:
    buffer_type = memref_type(op.operands[0].type)
    shape = tuple(buffer_type.get_shape())
    buf = scope.slot(op.operands[0])
    count = len(shape)
    indexer = _indexer(
        scope, scope.slots_of(op.operands[1 : 1 + count]), op.results[0].type
    )
    out = scope.slot(op.results[0])
    convert = loader(buffer_type)

    def load(env: Env) -> None:
        index = indexer(env)
        if env[0] is not None:
            index = _masked(index, env[0])
        if _outside(index, shape):
            raise _out_of_bounds(op, scope, index, buffer_type)
        value = env[buf][index]
        env[out] = value if convert is None else convert(value)

    return load


@impl(StoreOp, memref.StoreOp)
def _store(op: Operation, scope: Scope) -> Step:
    buffer_type = memref_type(op.operands[1].type)
    shape = tuple(buffer_type.get_shape())
    value_slot, buf = scope.slots_of(op.operands[:2])
    indexer = _indexer(scope, scope.slots_of(op.operands[2:]), op.operands[0].type)
    convert = storer(buffer_type)

    def store(env: Env) -> None:
        index = indexer(env)
        value = convert(env[value_slot])
        buffer = env[buf]
        mask = env[0]
        if mask is not None:
            *lanes, value, mask = np.broadcast_arrays(*index, value, mask)
            index = tuple(lane[mask] for lane in lanes)
            value = value[mask]
        if _outside(index, shape):
            raise _out_of_bounds(op, scope, index, buffer_type)
        try:
            buffer[index] = value
        except ValueError:
            if not buffer.flags.writeable:
                raise scope.fail(op, "writes a read-only buffer (a global)") from None
            # More lanes than elements written: the last lane wins, as one of
            # the racing iterations would on a device.
            *lanes, value = np.broadcast_arrays(*index, value)
            if lanes:
                buffer[tuple(lanes)] = value
            elif value.size:  # a rank-0 buffer
                buffer[()] = value.reshape(-1)[-1]

    return store


def _unary(op: Operation, scope: Scope, fn: Any) -> Step:
    src = scope.slot(op.operands[0])
    out = scope.slot(op.results[0])

    def step(env: Env) -> None:
        env[out] = fn(env[src])

    return step


@impl(ViewOp)
def _view(op: Operation, scope: Scope) -> Step:
    result = memref_type(op.results[0].type)
    offset = op.byte_offset  # pyright: ignore[reportAttributeAccessIssue]
    dtype = storage_dtype(result)
    shape = tuple(result.get_shape())
    end = offset + dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    return _unary(op, scope, lambda arena: arena[offset:end].view(dtype).reshape(shape))


@impl(ReshapeOp, memref.CastOp)
def _reshape(op: Operation, scope: Scope) -> Step:
    result = memref_type(op.results[0].type)
    shape = tuple(result.get_shape())
    dtype = storage_dtype(result)
    return _unary(op, scope, lambda b: b.reshape(-1).view(dtype).reshape(shape))


@impl(GetGlobalOp)
def _get_global(op: Operation, scope: Scope) -> Step:
    name = op.properties["name"].root_reference.data  # pyright: ignore[reportAttributeAccessIssue]
    if name not in scope.program.globals:
        raise Unsupported(f"@{name} is not a loop.global of this module")
    value = scope.program.globals[name]
    out = scope.slot(op.results[0])

    def get_global(env: Env) -> None:
        env[out] = value

    return get_global


@impl(AllocOp, memref.AllocOp, memref.AllocaOp)
def _alloc(op: Operation, scope: Scope) -> Step:
    if op.operands:
        raise Unsupported("allocations of dynamic size are not supported")
    type_ = memref_type(op.results[0].type)
    out = scope.slot(op.results[0])

    def alloc(env: Env) -> None:
        env[out] = new_buffer(type_)

    return alloc


@impl(FreeOp, memref.DeallocOp)
def _free(op: Operation, scope: Scope) -> None:
    """Memory is the garbage collector's; a freed arena is not reused."""
    return None


@impl(CopyOp, memref.CopyOp)
def _copy(op: Operation, scope: Scope) -> Step:
    src, dst = scope.slots_of(op.operands[:2])

    def copy(env: Env) -> None:
        np.copyto(env[dst], env[src])

    return copy
