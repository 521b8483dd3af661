"""The legality and profitability rules of fusion, each named.

A rule looks at one producer and the fusion (group) of its consumers and
returns None (no objection) or the reason it refuses, a sentence for the
`explain=true` remarks. `JOIN_RULES` are asked, in order, whenever a producer
would be computed inside a consumer's fusion; the rules about sharing
(duplication, multi-output, cycles) and about contractions are asked by
`grouping` where those decisions are made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xlir.dialects.hlo import FusionKind
from xlir.dialects.stablehlo.reduction import ReduceOp
from xlir.dialects.stablehlo.types import shape
from xlir.passes.hlo.fusion.explain import location
from xlir.passes.hlo.fusion.op_classes import (
    CONTRACTIONS,
    DIVISIONS,
    DYNAMIC_UPDATE_SLICE,
    ELEMENTWISE_CHEAP,
    ELEMENTWISE_EXPENSIVE,
    is_expensive,
    reuse_factor,
)

if TYPE_CHECKING:
    from xlir.passes.hlo.fusion.grouping import Group

Use = tuple[Operation, int]
"""A consumer op and the index of the operand it reads the producer through."""


def contraction_operand(
    producer: Operation, group: Group | None, uses: Sequence[Use]
) -> str | None:
    """A dot or convolution reads each operand element many times and runs as
    a library-style kernel over materialized operands (XLA:CPU fuses only
    small matrix-vector dots)."""
    for user, _ in uses:
        if user.name in CONTRACTIONS:
            return (
                f"'{user.name}' reads each element of its operands many times; a "
                "contraction fuses only with its elementwise consumers (output fusion)"
            )
    return None


def expensive_reuse(
    producer: Operation, group: Group, uses: Sequence[Use]
) -> str | None:
    """An expensive op fused under an op that reads its elements repeatedly
    (a broadcast, overlapping windows, a gather) would be recomputed per read:
    XLA's "fusion is not profitable"."""
    if not is_expensive(producer):
        return None
    for user, index in uses:
        factor = reuse_factor(user, index)
        if factor > 1:
            return (
                f"'{producer.name}' is expensive and '{user.name}' reads each of its "
                f"elements {factor} times"
            )
        if group.reused.get(user, False):
            return (
                f"'{producer.name}' is expensive and the fusion reads the result of "
                f"'{user.name}' at {location(user)} repeatedly"
            )
    return None


def in_place(producer: Operation, group: Group, uses: Sequence[Use]) -> str | None:
    """`dynamic_update_slice` is computed in place, in its operand's buffer
    (XLA's in-place DUS fusion): that operand must come in as a fusion input,
    and nothing fused with it may read that buffer, since the writes could
    overwrite elements still to be read."""
    for user, index in uses:
        if user.name == DYNAMIC_UPDATE_SLICE and index == 0:
            return (
                f"'{DYNAMIC_UPDATE_SLICE}' at {location(user)} updates its operand in "
                "place; the operand must be a fusion input, not computed in the fusion"
            )
    for value in producer.operands:
        writer = group.in_place_buffers.get(value)
        if writer is not None:
            return (
                f"'{producer.name}' reads the buffer that '{DYNAMIC_UPDATE_SLICE}' at "
                f"{location(writer)} overwrites in place"
            )
    return None


def max_ops(limit: int) -> Callable[[Operation, Group, Sequence[Use]], str | None]:
    """Caps a fusion's size, which bounds the code of its loop body."""

    def rule(producer: Operation, group: Group, uses: Sequence[Use]) -> str | None:
        if producer in group.members or len(group.members) < limit:
            return None
        return f"the fusion already has {len(group.members)} ops (max-ops={limit})"

    return rule


def join_rules(
    limit: int,
) -> list[tuple[str, Callable[[Operation, Group, Sequence[Use]], str | None]]]:
    return [
        ("contraction-operand", contraction_operand),
        ("expensive-reuse", expensive_reuse),
        ("in-place", in_place),
        ("max-ops", max_ops(limit)),
    ]


def output_fusion(
    contraction: Operation, group: Group, uses: Sequence[Use]
) -> str | None:
    """A contraction fuses with one loop fusion of elementwise ops that reads
    its result (dot + bias add + activation): XLA's output fusion. The
    fusion's one loop nest must walk the contraction's result element by
    element: a nest of another shape (the gates an LSTM slices out of one
    dot) would compute the sums in an order the dot kernels (register
    tiles, the GEMM routine) do not take, each nest element a few scattered
    sums."""
    if group.kind != FusionKind.LOOP:
        return (
            f"the consumer fusion is of kind {group.kind.value}; a contraction fuses "
            "only with a loop fusion of elementwise ops"
        )
    result = shape(contraction.results[0].type)
    walked = shape(group.root.results[0].type)
    if result != walked:
        return (
            f"the fusion's loop nest walks {_dims(walked)} (its root "
            f"'{group.root.name}'), not the contraction's result {_dims(result)}"
        )
    for user, _ in uses:
        if not is_elementwise(user):
            return (
                f"'{user.name}' is not elementwise; a contraction fuses only with "
                "elementwise consumers"
            )
    return None


def is_elementwise(op: Operation) -> bool:
    return (
        op.name in ELEMENTWISE_CHEAP
        or op.name in ELEMENTWISE_EXPENSIVE
        or op.name in DIVISIONS
    )


def not_fusible(producer: Operation) -> str:
    if producer.regions:
        return (
            f"'{producer.name}' has regions; only the bodies of reductions are "
            "fused, and the pass runs separately inside while and case bodies"
        )
    if producer.name == "stablehlo.constant":
        return (
            "a constant that is neither a scalar nor a splat is read from memory, "
            "as a fusion input"
        )
    return f"'{producer.name}' is not fusible"


def reduce_root(producer: Operation) -> str:
    return (
        f"'{producer.name}' is the root of its own input fusion; a reduction "
        "is not fused into its consumers"
    )


def shared_contraction(count: int) -> str:
    return (
        f"its result has {count} readers, not one fusion; a contraction fuses "
        "only with a single elementwise epilogue"
    )


def no_duplication(producer: Operation, home: Operation | None) -> str:
    where = f", in the fusion at {location(home)}," if home is not None else ""
    return (
        f"'{producer.name}' is not duplicated; it is computed once{where} "
        "and read from there"
    )


def max_duplication(producer: Operation, count: int, limit: int) -> str:
    return (
        f"'{producer.name}' would be duplicated into {count} fusions "
        f"(max-duplication={limit})"
    )


def materialized(producer: Operation) -> str | None:
    """A producer that is materialized anyway (a reader outside any fusion,
    such as a dot, needs its buffer) is read from that buffer rather than
    recomputed, when it reads a full-size operand: recomputing reads at
    least as many bytes and keeps its operands alive longer (the relu
    pre-activation would live into the backward pass). Broadcasts, iotas and
    other producers of few inputs are still duplicated."""
    result = producer.results[0].type
    if not is_elementwise(producer) or not isinstance(result, TensorType):
        return None
    if not any(operand.type == result for operand in producer.operands):
        return None
    return (
        f"'{producer.name}' is materialized for a reader outside any fusion; "
        "this fusion reads that buffer rather than recomputing it from "
        "full-size operands"
    )


def _nest_shapes(root: Operation) -> dict[tuple[int, ...], str]:
    """The index spaces the one loop nest of a fusion rooted at `root` walks,
    each with what it is: the root's result, and for a reduce also its input,
    which the nest walks element by element inside the reduction."""
    shapes = {shape(root.results[0].type): f"its root '{root.name}'"}
    if isinstance(root, ReduceOp):
        shapes.setdefault(shape(root.inputs[0].type), f"the input of '{root.name}'")
    return shapes


def multi_output_shape(producer: Operation, group: Group) -> str | None:
    """A fusion writes all its outputs in one loop nest, so an extra output
    must be shaped like an index space that nest walks (`_nest_shapes`), as
    XLA's ShapesCompatibleForMultiOutputFusion requires; an output of another
    shape would need a nest of its own, recomputing what it shares with the
    others."""
    allowed = _nest_shapes(group.root)
    for result in producer.results:
        if shape(result.type) not in allowed:
            walked = " and ".join(f"{_dims(s)} ({what})" for s, what in allowed.items())
            return (
                f"its result has shape {_dims(shape(result.type))}, but the loop nest "
                f"of the fusion at {location(group.root)} walks only {walked}"
            )
    return None


def _dims(dims: tuple[int, ...]) -> str:
    return "x".join(map(str, dims)) if dims else "scalar"


def cycle(producer: Operation, other: Operation) -> str:
    return (
        f"computing '{producer.name}' in this fusion would create a cycle: the "
        f"fusion needs, through '{other.name}' at {location(other)}, a value "
        "computed from it"
    )


def sibling_shapes() -> str:
    return "the reductions differ in shape or dimensions"
