"""Vector values: `vector.broadcast`, `vector.insert` (of a scalar, at a
constant lane), `vector.shuffle` (of two vectors of one rank), and the lane offsets of vector loads and stores.

A value of type `vector<N x T>` holds its N lanes on an axis in front of the
enclosing parallels' grid (`Scope.rank` axes when the body runs vectorized),
so that it broadcasts against the grid's values as they do against each
other, and elementwise ops need no change.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation
from xlir.evaluator.hlo.types import Unsupported
from xlir.evaluator.loop.engine import Env, Scope, Step, impl


def lanes_of(type_: Attribute) -> int | None:
    """N for a `vector<N x T>`, None for a scalar type."""
    if not isinstance(type_, VectorType):
        return None
    shape = type_.get_shape()
    if len(shape) != 1:
        raise Unsupported(f"vectors of rank {len(shape)} are not supported")
    return shape[0]


def lane_offsets(lanes: int, scope: Scope) -> np.ndarray:
    """0 .. lanes - 1 on the lane axis, in front of the grid's axes."""
    rank = scope.rank if scope.vector else 0
    return np.arange(lanes, dtype=np.int64).reshape((lanes,) + (1,) * rank)


def _spread(value: Any, lanes: int, rank: int) -> Any:
    """A grid value with the lane axis put in front (of size `lanes`)."""
    array = np.asarray(value)
    array = array.reshape((1,) * (rank - array.ndim) + array.shape)
    return np.broadcast_to(array[None], (lanes, *array.shape))


@impl(vector.BroadcastOp)
def _broadcast(op: Operation, scope: Scope) -> Step:
    if isinstance(op.operands[0].type, VectorType):
        raise Unsupported("only scalars are broadcast")
    lanes = lanes_of(op.results[0].type)
    assert lanes is not None
    rank = scope.rank if scope.vector else 0
    source = scope.slot(op.operands[0])
    out = scope.slot(op.results[0])

    def broadcast(env: Env) -> None:
        env[out] = _spread(env[source], lanes, rank)

    return broadcast


@impl(vector.InsertOp)
def _insert(op: Operation, scope: Scope) -> Step:
    assert isinstance(op, vector.InsertOp)
    if isinstance(op.source.type, VectorType) or op.dynamic_position:
        raise Unsupported("only scalars are inserted, at a constant lane")
    (position,) = op.static_position.get_values()
    lanes = lanes_of(op.result.type)
    assert lanes is not None
    rank = scope.rank if scope.vector else 0
    source, dest = scope.slot(op.source), scope.slot(op.dest)
    out = scope.slot(op.result)

    def insert(env: Env) -> None:
        value = np.asarray(env[source])
        value = value.reshape((1,) * (rank - value.ndim) + value.shape)
        into = np.asarray(env[dest])
        shape = np.broadcast_shapes(into.shape[1:], value.shape)
        result = np.array(np.broadcast_to(into, (lanes, *shape)))
        result[position] = value
        env[out] = result

    return insert


@impl(vector.ShuffleOp)
def _shuffle(op: Operation, scope: Scope) -> Step:
    assert isinstance(op, vector.ShuffleOp)
    lanes_of(op.v1.type)  # rank 1, or Unsupported
    mask = np.asarray(op.mask.get_values(), dtype=np.int64)
    first, second = scope.slot(op.v1), scope.slot(op.v2)
    out = scope.slot(op.result)

    def shuffle(env: Env) -> None:
        a, b = np.asarray(env[first]), np.asarray(env[second])
        shape = np.broadcast_shapes(a.shape[1:], b.shape[1:])
        a = np.broadcast_to(a, (a.shape[0], *shape))
        b = np.broadcast_to(b, (b.shape[0], *shape))
        env[out] = np.concatenate([a, b])[mask]

    return shuffle
