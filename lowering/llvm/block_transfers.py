"""Plain copies and fills as `llvm.memcpy`, `llvm.memmove` and `llvm.memset`.

A `loop.parallel` whose body only moves elements, `B[j + d] = A[i + c]` or
`B[j + d] = constant` with nothing else around but index arithmetic, writes
runs of elements that are contiguous in both buffers: its innermost
dimension, and the dimensions outside it for as long as the ones inside
cover whole rows of both buffers. Each run becomes one call. LLVM's loop
idiom recognition makes the same calls, but only after its loop passes have
taken every dimension through induction-variable simplification and
strength reduction: 8 of the 10 ms LLVM spent on a pad kernel of five 4-d
nests (a convolution's padding), besides the ops lowering and translation
built for them.

A copy between two distinct `noalias` arguments is a `memcpy`; any other
copy a `memmove`, which is what the nest means where the buffers might
overlap (every element read before any is written). A fill is a `memset`
where every byte of the value is the same (zeros, mostly); other fills stay
loops.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xlir.analysis.loop_utils import bounds_of, static_trip_count
from xlir.dialects.loop.loops import ParallelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.lowering.llvm.bounds_checks import check_access
from xlir.lowering.llvm.function import FunctionBuilder, is_noalias

from xlir.element_types import byte_width

INDEX_ARITHMETIC = (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.ConstantOp)
"""The ops a plain copy's or fill's body may compute its indices with."""

_FLOAT_FORMATS = {16: "<e", 32: "<f", 64: "<d"}


@dataclass(frozen=True)
class BlockTransfer:
    """A nest that copies (`load` set) or fills (`fill_byte` set) runs of
    `elements` contiguous elements; the dimensions in `merged` are done by
    one call each time the others' loops come round."""

    store: StoreOp
    load: LoadOp | None
    fill_byte: int | None
    index_ops: tuple[Operation, ...]
    merged: frozenset[int]
    elements: int


def block_transfer(
    op: ParallelOp, single: frozenset[int], split: frozenset[int] = frozenset()
) -> BlockTransfer | None:
    """`op` as runs of contiguous elements, if its body is a plain copy or a
    fill of equal bytes (`single`: its dimensions that run once, no loop;
    `split`: those the nest runs only part of, a threaded chunk's first,
    whose runs end at the part's end, not the buffer's)."""
    block = op.body.block
    body = [o for o in block.ops if o is not block.last_op]
    stores = [o for o in body if type(o) is StoreOp]
    loads = [o for o in body if type(o) is LoadOp]
    if len(stores) != 1 or len(loads) > 1:
        return None
    store = stores[0]
    load = loads[0] if loads else None
    index_ops = tuple(o for o in body if o is not store and o is not load)
    if not all(_is_index_arithmetic(o) for o in index_ops):
        return None
    if isinstance(store.value.type, VectorType):
        return None
    fill_byte = None
    if load is None:
        fill_byte = _fill_byte(store.value, op)
        if fill_byte is None:
            return None
    elif store.value is not load.result or not load.result.has_one_use():
        return None
    buffer = store.buffer.type
    assert isinstance(buffer, MemRefType)
    if not byte_width(buffer.element_type):
        return None
    accesses = [store] if load is None else [store, load]
    merged, elements = _merged_dims(op, single, split, accesses)
    if not merged:
        return None
    return BlockTransfer(store, load, fill_byte, index_ops, frozenset(merged), elements)


def lower_block_transfer(b: FunctionBuilder, transfer: BlockTransfer) -> None:
    """One call for the run that starts where the merged dimensions' induction
    variables are bound now (their lower bounds)."""
    for op in transfer.index_ops:
        b.run(op)
    store, load = transfer.store, transfer.load
    buffer = store.buffer.type
    assert isinstance(buffer, MemRefType)
    size = transfer.elements * (byte_width(buffer.element_type) or 0)
    if b.module.bounds_check:
        for access in (store, load) if load is not None else (store,):
            check_access(b, access, access.buffer, access.indices, transfer.elements)
    destination = b.element_pointer(store.buffer, store.indices, store)
    if load is None:
        assert transfer.fill_byte is not None
        b.fill_bytes(destination, transfer.fill_byte, size)
        return
    source = b.element_pointer(load.buffer, load.indices, load)
    disjoint = (
        b.get(store.buffer) is not b.get(load.buffer)
        and is_noalias(b.get(store.buffer))
        and is_noalias(b.get(load.buffer))
    )
    b.copy_bytes(destination, source, size, may_overlap=not disjoint)


def _is_index_arithmetic(op: Operation) -> bool:
    return isinstance(op, INDEX_ARITHMETIC) and all(
        isinstance(r.type, IndexType) for r in op.results
    )


def _fill_byte(value: SSAValue, nest: ParallelOp) -> int | None:
    """The byte every byte of a constant `value` defined outside `nest` is,
    if they are all the same."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp) or nest.is_ancestor(owner):
        return None
    attribute, type_ = owner.value, value.type
    if isinstance(attribute, IntegerAttr) and isinstance(type_, IntegerType):
        width = (type_.width.data + 7) // 8
        data = (attribute.value.data % (1 << (8 * width))).to_bytes(width, "little")
    elif isinstance(attribute, FloatAttr) and isinstance(type_, AnyFloat):
        form = _FLOAT_FORMATS.get(type_.bitwidth)
        if form is None or type_.name == "bf16":
            return None
        data = struct.pack(form, attribute.value.data)
    else:
        return None
    return data[0] if len(set(data)) == 1 else None


def _merged_dims(
    op: ParallelOp,
    single: frozenset[int],
    split: frozenset[int],
    accesses: Sequence[LoadOp | StoreOp],
) -> tuple[list[int], int]:
    """The innermost looped dimensions whose iterations are one contiguous run
    in every access, and the run's length in elements; none from a `split`
    dimension outwards."""
    bounds = bounds_of(op)
    ivs = op.induction_vars
    merged: list[int] = []
    runs: list[tuple[SSAValue, int]] = []
    elements = 1
    for dim in reversed([d for d in range(len(ivs)) if d not in single]):
        trip = static_trip_count(*bounds[dim])
        if dim in split or bounds[dim][2] != 1 or not trip:
            break
        runs = [*runs, (ivs[dim], trip)]
        if not all(_contiguous(access, op, runs) for access in accesses):
            break
        merged.append(dim)
        elements *= trip
    return merged, elements


def _contiguous(
    access: LoadOp | StoreOp, nest: ParallelOp, runs: Sequence[tuple[SSAValue, int]]
) -> bool:
    """Whether the access's last `len(runs)` indices are the runs' induction
    variables (innermost first, with their trip counts) plus offsets that
    none of them changes, the inner ones spanning whole rows, and no other
    index changes with them. (An inner run as long as its row, in bounds,
    starts at the row's start.)"""
    type_ = access.buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    indices = list(access.indices)
    if len(runs) > len(indices):
        return False
    moving = {iv for iv, _ in runs}
    for position, (iv, trip) in enumerate(runs):
        if not _is_offset(indices[len(indices) - 1 - position], iv, moving, nest):
            return False
        inner = position < len(runs) - 1
        if inner and trip != shape[len(shape) - 1 - position]:
            return False
    leading = indices[: len(indices) - len(runs)]
    return not any(_depends(index, moving, nest) for index in leading)


def _is_offset(
    index: SSAValue, iv: SSAValue, moving: set[SSAValue], nest: ParallelOp
) -> bool:
    """Whether `index` is `iv` plus or minus terms no value of `moving`
    changes."""
    if index is iv:
        return True
    owner = index.owner
    if isinstance(owner, arith.AddiOp):
        return any(
            not _depends(other, moving, nest) and _is_offset(this, iv, moving, nest)
            for this, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs))
        )
    return (
        isinstance(owner, arith.SubiOp)
        and not _depends(owner.rhs, moving, nest)
        and _is_offset(owner.lhs, iv, moving, nest)
    )


def _depends(value: SSAValue, moving: set[SSAValue], nest: ParallelOp) -> bool:
    """Whether `value` changes with any value of `moving` (computed in the
    nest's body from them)."""
    if value in moving:
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent_block() is not nest.body.block:
        return False
    return any(_depends(o, moving, nest) for o in owner.operands)
