"""StableHLO's shape rules as pure functions on shapes.

Each `infer_*` returns the result shape an op must have, or raises ShapeError
naming the rule and the offending dimensions. Verifiers compare the declared
result against it; passes that build new ops use it to compute result types.
The rules follow the StableHLO specification (openxla/stablehlo docs/spec.md).
"""

from __future__ import annotations

from collections.abc import Sequence

Shape = tuple[int, ...]


class ShapeError(Exception):
    """A violated shape rule; the message names the rule and the dims."""


def _check_dims_in_range(what: str, dims: Sequence[int], rank: int) -> None:
    for d in dims:
        if not 0 <= d < rank:
            raise ShapeError(
                f"{what} {list(dims)} has dimension {d} out of range [0, {rank})"
            )


def _check_unique(what: str, dims: Sequence[int]) -> None:
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{what} {list(dims)} must not repeat a dimension")


def check_broadcast_in_dim(operand: Shape, dims: Sequence[int], result: Shape) -> None:
    if len(dims) != len(operand):
        raise ShapeError(
            f"broadcast_dimensions has {len(dims)} entries but the operand has rank "
            f"{len(operand)}"
        )
    _check_dims_in_range("broadcast_dimensions", dims, len(result))
    _check_unique("broadcast_dimensions", dims)
    for i, d in enumerate(dims):
        if operand[i] != 1 and operand[i] != result[d]:
            raise ShapeError(
                f"operand dimension {i} has size {operand[i]}, which must be 1 or "
                f"equal result dimension {d} of size {result[d]}"
            )


def infer_transpose(operand: Shape, permutation: Sequence[int]) -> Shape:
    if sorted(permutation) != list(range(len(operand))):
        raise ShapeError(
            f"permutation {list(permutation)} is not a permutation of "
            f"[0, {len(operand)})"
        )
    return tuple(operand[p] for p in permutation)


def check_reshape(operand: Shape, result: Shape) -> None:
    if _count(operand) != _count(result):
        raise ShapeError(
            f"operand has {_count(operand)} elements but result has {_count(result)}; "
            "reshape must keep the number of elements"
        )


def _count(shape: Shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def check_reverse(rank: int, dims: Sequence[int]) -> None:
    _check_dims_in_range("dimensions", dims, rank)
    _check_unique("dimensions", dims)


def check_iota(result: Shape, dim: int) -> None:
    if not 0 <= dim < len(result):
        raise ShapeError(f"iota_dimension {dim} is out of range [0, {len(result)})")


def infer_concatenate(inputs: Sequence[Shape], dim: int) -> Shape:
    if not inputs:
        raise ShapeError("concatenate needs at least one input")
    rank = len(inputs[0])
    if not 0 <= dim < rank:
        raise ShapeError(f"dimension {dim} is out of range [0, {rank})")
    total = 0
    for i, s in enumerate(inputs):
        if len(s) != rank:
            raise ShapeError(
                f"input #{i} has rank {len(s)} but input #0 has rank {rank}"
            )
        for d in range(rank):
            if d != dim and s[d] != inputs[0][d]:
                raise ShapeError(
                    f"input #{i} has size {s[d]} in dimension {d} but input #0 has "
                    f"{inputs[0][d]}; inputs may differ only in dimension {dim}"
                )
        total += s[dim]
    return tuple(total if d == dim else inputs[0][d] for d in range(rank))


def infer_slice(
    operand: Shape,
    start: Sequence[int],
    limit: Sequence[int],
    strides: Sequence[int],
) -> Shape:
    rank = len(operand)
    for what, values in (
        ("start_indices", start),
        ("limit_indices", limit),
        ("strides", strides),
    ):
        if len(values) != rank:
            raise ShapeError(
                f"{what} has {len(values)} entries but the operand has rank {rank}"
            )
    result = []
    for d in range(rank):
        if strides[d] <= 0:
            raise ShapeError(f"stride {strides[d]} in dimension {d} must be positive")
        if not 0 <= start[d] <= limit[d] <= operand[d]:
            raise ShapeError(
                f"dimension {d} needs 0 <= start ({start[d]}) <= limit ({limit[d]}) "
                f"<= size ({operand[d]})"
            )
        result.append((limit[d] - start[d] + strides[d] - 1) // strides[d])
    return tuple(result)


def infer_pad(
    operand: Shape, low: Sequence[int], high: Sequence[int], interior: Sequence[int]
) -> Shape:
    rank = len(operand)
    for what, values in (
        ("edge_padding_low", low),
        ("edge_padding_high", high),
        ("interior_padding", interior),
    ):
        if len(values) != rank:
            raise ShapeError(
                f"{what} has {len(values)} entries but the operand has rank {rank}"
            )
    result = []
    for d in range(rank):
        if interior[d] < 0:
            raise ShapeError(
                f"interior padding {interior[d]} in dimension {d} must be >= 0"
            )
        size = operand[d] + low[d] + high[d] + max(operand[d] - 1, 0) * interior[d]
        if size < 0:
            raise ShapeError(f"dimension {d} would have negative size {size}")
        result.append(size)
    return tuple(result)


def check_dynamic_slice(
    operand: Shape, num_indices: int, sizes: Sequence[int]
) -> Shape:
    if num_indices != len(operand):
        raise ShapeError(
            f"{num_indices} start indices given but the operand has rank {len(operand)}"
        )
    if len(sizes) != len(operand):
        raise ShapeError(
            f"slice_sizes has {len(sizes)} entries but the operand has rank {len(operand)}"
        )
    for d, (size, bound) in enumerate(zip(sizes, operand, strict=True)):
        if not 0 <= size <= bound:
            raise ShapeError(
                f"slice size {size} in dimension {d} must be in [0, {bound}]"
            )
    return tuple(sizes)


def check_dynamic_update_slice(operand: Shape, update: Shape, num_indices: int) -> None:
    if num_indices != len(operand):
        raise ShapeError(
            f"{num_indices} start indices given but the operand has rank {len(operand)}"
        )
    if len(update) != len(operand):
        raise ShapeError(
            f"update has rank {len(update)} but the operand has rank {len(operand)}"
        )
    for d, (u, o) in enumerate(zip(update, operand, strict=True)):
        if u > o:
            raise ShapeError(
                f"update size {u} in dimension {d} exceeds the operand size {o}"
            )


def infer_dot_general(
    lhs: Shape,
    rhs: Shape,
    lhs_batch: Sequence[int],
    rhs_batch: Sequence[int],
    lhs_contract: Sequence[int],
    rhs_contract: Sequence[int],
) -> Shape:
    """Result dims: batch dims, then lhs free dims, then rhs free dims."""
    if len(lhs_batch) != len(rhs_batch):
        raise ShapeError(
            f"lhs_batching_dimensions {list(lhs_batch)} and rhs_batching_dimensions "
            f"{list(rhs_batch)} must have the same length"
        )
    if len(lhs_contract) != len(rhs_contract):
        raise ShapeError(
            f"lhs_contracting_dimensions {list(lhs_contract)} and "
            f"rhs_contracting_dimensions {list(rhs_contract)} must have the same length"
        )
    _check_dims_in_range(
        "lhs batching and contracting dimensions", [*lhs_batch, *lhs_contract], len(lhs)
    )
    _check_dims_in_range(
        "rhs batching and contracting dimensions", [*rhs_batch, *rhs_contract], len(rhs)
    )
    _check_unique(
        "lhs batching and contracting dimensions", [*lhs_batch, *lhs_contract]
    )
    _check_unique(
        "rhs batching and contracting dimensions", [*rhs_batch, *rhs_contract]
    )
    for a, b in zip(lhs_batch, rhs_batch, strict=True):
        if lhs[a] != rhs[b]:
            raise ShapeError(
                f"batching dimension sizes differ: lhs dimension {a} has {lhs[a]}, "
                f"rhs dimension {b} has {rhs[b]}"
            )
    for a, b in zip(lhs_contract, rhs_contract, strict=True):
        if lhs[a] != rhs[b]:
            raise ShapeError(
                f"contracting dimension sizes differ: lhs dimension {a} has {lhs[a]}, "
                f"rhs dimension {b} has {rhs[b]}"
            )
    lhs_free = [
        d for d in range(len(lhs)) if d not in lhs_batch and d not in lhs_contract
    ]
    rhs_free = [
        d for d in range(len(rhs)) if d not in rhs_batch and d not in rhs_contract
    ]
    return (
        *(lhs[d] for d in lhs_batch),
        *(lhs[d] for d in lhs_free),
        *(rhs[d] for d in rhs_free),
    )


def infer_reduce(operand: Shape, dims: Sequence[int]) -> Shape:
    _check_dims_in_range("dimensions", dims, len(operand))
    _check_unique("dimensions", dims)
    return tuple(s for d, s in enumerate(operand) if d not in dims)
