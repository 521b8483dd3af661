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
from math import prod

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import SSAValue
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import ReshapeOp, ViewOp, element_bytes


def may_overlap(a: SSAValue, b: SSAValue) -> bool:
    """Whether two host buffers may share bytes: the same value, one seen
    through reshapes, or views of one buffer whose byte ranges meet (other
    distinct values are distinct allocations, arguments or globals)."""
    if a is b:
        return True
    first, second = a.owner, b.owner
    if isinstance(first, ReshapeOp):
        return may_overlap(first.source, b)
    if isinstance(second, ReshapeOp):
        return may_overlap(a, second.source)
    if isinstance(first, ViewOp) and isinstance(second, ViewOp):
        if first.source is not second.source:
            return may_overlap(first.source, second.source)
        starts = first.offset.value.data, second.offset.value.data
        ends = [s + _byte_size(v) for s, v in zip(starts, (a, b), strict=True)]
        return starts[0] < ends[1] and starts[1] < ends[0]
    if isinstance(first, ViewOp):
        return may_overlap(first.source, b)
    if isinstance(second, ViewOp):
        return may_overlap(a, second.source)
    return False


def _byte_size(buffer: SSAValue) -> int:
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return prod(type_.get_shape()) * (element_bytes(type_.element_type) or 8)


def launches_by_kernel(module: ModuleOp) -> dict[str, list[LaunchOp]]:
    """Every launch of the module, by kernel name (one walk)."""
    found: dict[str, list[LaunchOp]] = defaultdict(list)
    for op in module.walk():
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
    another buffer argument of the kernel."""
    buffers = [
        n
        for n, type_ in enumerate(kernel.argument_types)
        if isinstance(type_, MemRefType)
    ]
    return [
        n in buffers
        and not any(
            arguments_may_alias(kernel, n, other, launches)
            for other in buffers
            if other != n
        )
        for n in range(len(kernel.argument_types))
    ]
