"""Which buffers of a kernel may be the same memory, from the module's
launches.

A kernel's buffer arguments are distinct memory unless a launch passes one
buffer twice, overlapping views of one arena, or a buffer and a reshape of
it. The host schedule names each buffer once (lowering/host_schedule.py), so
in practice only in-place results planned in their operand's memory share,
and those are passed once. Two users: `jam` (an epilogue may keep its
accumulators in an output that no input can be) and `loop-to-llvm` (an
argument that never overlaps another is `noalias` for LLVM, whose vectorizer
then needs no run-time overlap checks and can hoist loads out of loops).

Parameters of the program are taken to be distinct memory, as XLA takes
them: the CPU executable refuses outputs that overlap an argument.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import SSAValue
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp

from xlir.element_types import byte_width
from xlir.walk import walk


def may_overlap(a: SSAValue, b: SSAValue) -> bool:
    """Whether two host buffers may share bytes: they lie in one buffer
    (seen through reshapes and views) and their byte ranges there meet
    (other distinct values are distinct allocations, arguments or
    globals)."""
    root_a, start_a, end_a = _extent(a)
    root_b, start_b, end_b = _extent(b)
    return root_a is root_b and start_a < end_b and start_b < end_a


def offset_in_allocation(buffer: SSAValue) -> int:
    """The byte offset of `buffer` in the allocation, argument or global it
    lies in (through views and reshapes)."""
    return _extent(buffer)[1]


def _extent(buffer: SSAValue) -> tuple[SSAValue, int, int]:
    """The buffer that `buffer` lies in, through reshapes and views, and its
    byte range there (at least one byte, so that an empty buffer passed
    twice still counts as one memory)."""
    value, start = buffer, 0
    while True:
        owner = value.owner
        if isinstance(owner, ViewOp):
            start += owner.byte_offset
        elif not isinstance(owner, ReshapeOp):
            return value, start, start + max(_byte_size(buffer), 1)
        value = owner.source


def _byte_size(buffer: SSAValue) -> int:
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return prod(type_.get_shape()) * (byte_width(type_.element_type) or 8)


def overlapping_pairs(buffers: Sequence[SSAValue]) -> list[tuple[int, int]]:
    """The pairs of positions (i < j) of buffers whose bytes may meet: by
    the buffer each lies in, a sweep over their ranges in order of start
    that keeps the ranges not yet ended (a launch passes hundreds of views of
    one arena, too many to take every pair)."""
    by_root: dict[SSAValue, list[tuple[int, int, int]]] = defaultdict(list)
    for position, buffer in enumerate(buffers):
        root, start, end = _extent(buffer)
        by_root[root].append((start, end, position))
    pairs: list[tuple[int, int]] = []
    for ranges in by_root.values():
        ranges.sort()
        unended: list[tuple[int, int]] = []  # (end, position)
        for start, end, position in ranges:
            unended = [(e, p) for e, p in unended if e > start]
            pairs += [(min(p, position), max(p, position)) for _, p in unended]
            unended.append((end, position))
    return pairs


def overlaps_between(
    first: Sequence[SSAValue], second: Sequence[SSAValue]
) -> list[tuple[int, int]]:
    """The pairs (n, m) of positions of buffers in `first` and in `second`
    (the arguments of two launches; values of other types are skipped) that
    may overlap."""
    positions = [
        (side, n)
        for side, values in enumerate((first, second))
        for n, value in enumerate(values)
        if isinstance(value.type, MemRefType)
    ]
    values = [(first, second)[side][n] for side, n in positions]
    found: list[tuple[int, int]] = []
    for i, j in overlapping_pairs(values):
        (side_i, n), (side_j, m) = positions[i], positions[j]
        if side_i != side_j:  # i < j: the first's come first
            found.append((n, m))
    return found


def launches_by_kernel(module: ModuleOp) -> dict[str, list[LaunchOp]]:
    """Every launch of the module, by kernel name: one walk of the host code.
    The kernels, which hold most of the ops, are not walked: a launch is
    host code (it runs on a stream), which no kernel holds."""
    found: dict[str, list[LaunchOp]] = defaultdict(list)
    for top in module.body.block.ops:
        if isinstance(top, KernelOp):
            continue
        for op in walk(top):
            if isinstance(op, LaunchOp):
                found[op.kernel.string_value()].append(op)
    return found


def arguments_may_alias(
    kernel: KernelOp, a: int, b: int, launches: list[LaunchOp]
) -> bool:
    """Whether arguments `a` and `b` of the kernel may be one memory: unless
    the kernel is launched and no launch passes them overlapping buffers."""
    return not launches or any(
        may_overlap(launch.args[a], launch.args[b]) for launch in launches
    )


def distinct_arguments(kernel: KernelOp, launches: list[LaunchOp]) -> list[bool]:
    """Per argument: whether it is a buffer that no launch overlaps with
    another buffer argument of the kernel (none is, of a kernel with several
    buffer arguments that is never launched)."""
    buffers = [
        n
        for n, type_ in enumerate(kernel.argument_types)
        if isinstance(type_, MemRefType)
    ]
    shared = set(buffers) if not launches and len(buffers) > 1 else set()
    for launch in launches:
        pairs = overlapping_pairs([launch.args[n] for n in buffers])
        shared.update(buffers[i] for pair in pairs for i in pair)
    buffer_set = set(buffers)
    return [
        n in buffer_set and n not in shared for n in range(len(kernel.argument_types))
    ]
