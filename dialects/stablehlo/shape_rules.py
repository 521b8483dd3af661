"""StableHLO's shape rules as pure functions on shapes.

Each `infer_*` returns the result shape an op must have, or raises ShapeError
naming the rule and the offending dimensions. Verifiers compare the declared
result against it; passes that build new ops use it to compute result types.
The rules follow the StableHLO specification (openxla/stablehlo docs/spec.md);
`check_rule` and `check_result_shape` at the end turn a violation into the
op's verify error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.types import shape

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
    """Element counts agree (unknown while a size is dynamic)."""
    if DYNAMIC in operand or DYNAMIC in result:
        return
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
    """Sizes outside `dim` agree (a dynamic one agrees with any); the size in
    `dim` is the sum, dynamic if any addend is."""
    if not inputs:
        raise ShapeError("concatenate needs at least one input")
    rank = len(inputs[0])
    if not 0 <= dim < rank:
        raise ShapeError(f"dimension {dim} is out of range [0, {rank})")
    out = list(inputs[0])
    out[dim] = 0
    for i, s in enumerate(inputs):
        if len(s) != rank:
            raise ShapeError(
                f"input #{i} has rank {len(s)} but input #0 has rank {rank}"
            )
        for d in range(rank):
            if d != dim and not _same_size(s[d], out[d]):
                raise ShapeError(
                    f"input #{i} has size {s[d]} in dimension {d} but input #0 has "
                    f"{inputs[0][d]}; inputs may differ only in dimension {dim}"
                )
            if d != dim and out[d] == DYNAMIC:
                out[d] = s[d]
        out[dim] = DYNAMIC if DYNAMIC in (s[dim], out[dim]) else out[dim] + s[dim]
    return tuple(out)


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
        size = operand[d] if operand[d] != DYNAMIC else limit[d]
        if not 0 <= start[d] <= limit[d] <= size:
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
        if operand[d] == DYNAMIC:
            result.append(DYNAMIC)
            continue
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


DYNAMIC = DYNAMIC_INDEX
"""The size xDSL's parser gives a `?` dimension; rules let it match any size."""


def _same_size(a: int, b: int) -> bool:
    return a == b or DYNAMIC in (a, b)


def check_compatible(declared: Shape, inferred: Shape, what: str = "result") -> None:
    """Declared and inferred shapes agree, where a `?` on either side matches."""
    if len(declared) != len(inferred) or not all(
        _same_size(a, b) for a, b in zip(declared, inferred, strict=True)
    ):
        raise ShapeError(
            f"{what} shape {shape_text(declared)} does not match the inferred "
            f"shape {shape_text(inferred)}"
        )


def shape_text(sizes: Sequence[int]) -> str:
    """A shape as diagnostics print it, `?` for a dynamic size: [?, 8]."""
    return "[" + ", ".join("?" if s == DYNAMIC else str(s) for s in sizes) + "]"


def _check_sorted(what: str, dims: Sequence[int]) -> None:
    if list(dims) != sorted(dims):
        raise ShapeError(f"{what} {list(dims)} must be sorted in ascending order")


def infer_dot(lhs: Shape, rhs: Shape) -> Shape:
    """Legacy `dot`: vector·vector, matrix·vector, vector·matrix, matrix·matrix;
    the last dimension of lhs is contracted with the first of rhs."""
    for what, s in (("lhs", lhs), ("rhs", rhs)):
        if len(s) not in (1, 2):
            raise ShapeError(f"{what} must have rank 1 or 2, but has rank {len(s)}")
    if not _same_size(lhs[-1], rhs[0]):
        raise ShapeError(
            f"contracting dimension sizes differ: lhs dimension {len(lhs) - 1} has "
            f"{lhs[-1]}, rhs dimension 0 has {rhs[0]}"
        )
    return (*lhs[:-1], *rhs[1:])


def _dilated(size: int, dilation: int) -> int:
    return 0 if size == 0 else (size - 1) * dilation + 1


def _check_layout(what: str, dims: Sequence[int], rank: int) -> None:
    _check_dims_in_range(what, dims, rank)
    _check_unique(what, dims)


def infer_convolution(
    lhs: Shape,
    rhs: Shape,
    *,
    input_batch: int,
    input_feature: int,
    input_spatial: Sequence[int],
    kernel_input_feature: int,
    kernel_output_feature: int,
    kernel_spatial: Sequence[int],
    output_batch: int,
    output_feature: int,
    output_spatial: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: Sequence[tuple[int, int]] | None = None,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    num_window_reversal: int | None = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
) -> Shape:
    """The result shape of `convolution` (StableHLO spec, C1-C26); absent window
    attributes take their defaults (stride 1, no padding, no dilation)."""
    n = len(lhs)
    if len(rhs) != n:
        raise ShapeError(
            f"lhs has rank {n} but rhs has rank {len(rhs)}; they must agree"
        )
    if n < 2:
        raise ShapeError(f"operands must have rank >= 2, but have rank {n}")
    spatial = n - 2
    for what, dims in (
        ("input_spatial_dimensions", input_spatial),
        ("kernel_spatial_dimensions", kernel_spatial),
        ("output_spatial_dimensions", output_spatial),
    ):
        if len(dims) != spatial:
            raise ShapeError(
                f"{what} has {len(dims)} entries but rank {n} operands have "
                f"{spatial} spatial dimensions"
            )
    _check_layout("input dimensions", [input_batch, *input_spatial, input_feature], n)
    _check_layout(
        "kernel dimensions",
        [*kernel_spatial, kernel_input_feature, kernel_output_feature],
        n,
    )
    _check_layout(
        "output dimensions", [output_batch, *output_spatial, output_feature], n
    )

    strides = list(window_strides) if window_strides is not None else [1] * spatial
    pads = list(padding) if padding is not None else [(0, 0)] * spatial
    lhs_dil = list(lhs_dilation) if lhs_dilation is not None else [1] * spatial
    rhs_dil = list(rhs_dilation) if rhs_dilation is not None else [1] * spatial
    for what, size in (
        ("window_strides", len(strides)),
        ("padding", len(pads)),
        ("lhs_dilation", len(lhs_dil)),
        ("rhs_dilation", len(rhs_dil)),
        ("window_reversal", num_window_reversal),
    ):
        if size is not None and size != spatial:
            raise ShapeError(
                f"{what} has {size} entries but there are {spatial} spatial dimensions"
            )
    for what, values in (
        ("window_strides", strides),
        ("lhs_dilation", lhs_dil),
        ("rhs_dilation", rhs_dil),
    ):
        for i, v in enumerate(values):
            if v <= 0:
                raise ShapeError(
                    f"{what} {values} must be positive, but entry {i} is {v}"
                )

    for what, count in (
        ("feature_group_count", feature_group_count),
        ("batch_group_count", batch_group_count),
    ):
        if count <= 0:
            raise ShapeError(f"{what} {count} must be positive")
    if feature_group_count > 1 and batch_group_count > 1:
        raise ShapeError(
            f"feature_group_count ({feature_group_count}) and batch_group_count "
            f"({batch_group_count}) cannot both be greater than 1"
        )
    batch, feature = lhs[input_batch], lhs[input_feature]
    kernel_in, kernel_out = rhs[kernel_input_feature], rhs[kernel_output_feature]
    if batch != DYNAMIC and batch % batch_group_count:
        raise ShapeError(
            f"lhs batch dimension {input_batch} has size {batch}, which is not "
            f"divisible by batch_group_count {batch_group_count}"
        )
    if feature != DYNAMIC and feature % feature_group_count:
        raise ShapeError(
            f"lhs feature dimension {input_feature} has size {feature}, which is "
            f"not divisible by feature_group_count {feature_group_count}"
        )
    if feature != DYNAMIC and not _same_size(kernel_in, feature // feature_group_count):
        raise ShapeError(
            f"rhs input feature dimension {kernel_input_feature} has size "
            f"{kernel_in} but must equal the lhs feature size {feature} / "
            f"feature_group_count {feature_group_count} = "
            f"{feature // feature_group_count}"
        )
    for what, count in (
        ("batch_group_count", batch_group_count),
        ("feature_group_count", feature_group_count),
    ):
        if kernel_out != DYNAMIC and kernel_out % count:
            raise ShapeError(
                f"rhs output feature dimension {kernel_output_feature} has size "
                f"{kernel_out}, which is not divisible by {what} {count}"
            )

    result = [0] * n
    result[output_batch] = DYNAMIC if batch == DYNAMIC else batch // batch_group_count
    result[output_feature] = kernel_out
    for i in range(spatial):
        size, window = lhs[input_spatial[i]], rhs[kernel_spatial[i]]
        if DYNAMIC in (size, window):
            result[output_spatial[i]] = DYNAMIC
            continue
        low, high = pads[i]
        padded = low + _dilated(size, lhs_dil[i]) + high
        dilated_window = _dilated(window, rhs_dil[i])
        if padded <= 0 or dilated_window > padded:
            result[output_spatial[i]] = 0
        else:
            result[output_spatial[i]] = (padded - dilated_window) // strides[i] + 1
    return tuple(result)


def _without(shape: Shape, dim: int) -> list[int]:
    return [s for d, s in enumerate(shape) if d != dim]


def _check_index_vector_dim(index_vector_dim: int, indices: Shape) -> None:
    if not 0 <= index_vector_dim <= len(indices):
        raise ShapeError(
            f"index_vector_dim {index_vector_dim} is out of range "
            f"[0, {len(indices)}] (the rank of the indices)"
        )


def _index_vector_size(index_vector_dim: int, indices: Shape) -> int:
    return indices[index_vector_dim] if index_vector_dim < len(indices) else 1


def _check_batching(
    operand_what: str,
    operand_dims: Sequence[int],
    operand: Shape,
    indices_what: str,
    indices_dims: Sequence[int],
    indices: Shape,
    index_vector_dim: int,
) -> None:
    """The shared batching rules of gather and scatter."""
    _check_sorted(operand_what, operand_dims)
    _check_dims_in_range(operand_what, operand_dims, len(operand))
    _check_unique(indices_what, indices_dims)
    _check_dims_in_range(indices_what, indices_dims, len(indices))
    if index_vector_dim in indices_dims:
        raise ShapeError(
            f"{indices_what} {list(indices_dims)} must not contain "
            f"index_vector_dim {index_vector_dim}"
        )
    if len(operand_dims) != len(indices_dims):
        raise ShapeError(
            f"{operand_what} {list(operand_dims)} and {indices_what} "
            f"{list(indices_dims)} must have the same length"
        )
    for a, b in zip(operand_dims, indices_dims, strict=True):
        if not _same_size(operand[a], indices[b]):
            raise ShapeError(
                f"batching dimension sizes differ: {operand_what.split('_')[0]} "
                f"dimension {a} has {operand[a]}, indices dimension {b} has "
                f"{indices[b]}"
            )


def _check_index_map(
    what: str,
    index_map: Sequence[int],
    batching_what: str,
    batching: Sequence[int],
    rank: int,
    index_vector_dim: int,
    indices: Shape,
) -> None:
    size = _index_vector_size(index_vector_dim, indices)
    if size != DYNAMIC and len(index_map) != size:
        raise ShapeError(
            f"{what} {list(index_map)} has {len(index_map)} entries but the index "
            f"vector (indices dimension {index_vector_dim}) has size {size}"
        )
    _check_unique(f"{what} and {batching_what}", [*index_map, *batching])
    _check_dims_in_range(what, index_map, rank)


def infer_gather(
    operand: Shape,
    start_indices: Shape,
    *,
    offset_dims: Sequence[int],
    collapsed_slice_dims: Sequence[int],
    operand_batching_dims: Sequence[int] = (),
    start_indices_batching_dims: Sequence[int] = (),
    start_index_map: Sequence[int],
    index_vector_dim: int,
    slice_sizes: Sequence[int],
) -> Shape:
    """The result shape of `gather` (StableHLO spec, C1-C22)."""
    rank = len(operand)
    window_rank = (
        len(offset_dims) + len(collapsed_slice_dims) + len(operand_batching_dims)
    )
    if window_rank != rank:
        raise ShapeError(
            f"offset_dims {list(offset_dims)}, collapsed_slice_dims "
            f"{list(collapsed_slice_dims)} and operand_batching_dims "
            f"{list(operand_batching_dims)} have {window_rank} entries in all but "
            f"the operand has rank {rank}"
        )
    _check_index_vector_dim(index_vector_dim, start_indices)
    if len(slice_sizes) != rank:
        raise ShapeError(
            f"slice_sizes has {len(slice_sizes)} entries but the operand has rank "
            f"{rank}"
        )
    _check_index_map(
        "start_index_map",
        start_index_map,
        "operand_batching_dims",
        operand_batching_dims,
        rank,
        index_vector_dim,
        start_indices,
    )
    _check_unique("offset_dims", offset_dims)
    _check_sorted("offset_dims", offset_dims)
    _check_unique(
        "collapsed_slice_dims and operand_batching_dims",
        [*collapsed_slice_dims, *operand_batching_dims],
    )
    _check_sorted("collapsed_slice_dims", collapsed_slice_dims)
    _check_dims_in_range("collapsed_slice_dims", collapsed_slice_dims, rank)
    _check_batching(
        "operand_batching_dims",
        operand_batching_dims,
        operand,
        "start_indices_batching_dims",
        start_indices_batching_dims,
        start_indices,
        index_vector_dim,
    )
    for d, size in enumerate(slice_sizes):
        if size < 0 or (operand[d] != DYNAMIC and size > operand[d]):
            raise ShapeError(
                f"slice size {size} in dimension {d} must be in [0, {operand[d]}]"
            )
    for what, dims in (
        ("collapsed_slice_dims", collapsed_slice_dims),
        ("operand_batching_dims", operand_batching_dims),
    ):
        for d in dims:
            if slice_sizes[d] > 1:
                raise ShapeError(
                    f"slice size {slice_sizes[d]} in dimension {d} must be 0 or 1, "
                    f"since the dimension is in {what}"
                )

    batch_sizes = _without(start_indices, index_vector_dim)
    offset_sizes = [
        s
        for d, s in enumerate(slice_sizes)
        if d not in collapsed_slice_dims and d not in operand_batching_dims
    ]
    result_rank = len(batch_sizes) + len(offset_sizes)
    _check_dims_in_range("offset_dims", offset_dims, result_rank)
    result: list[int] = []
    batch_iter, offset_iter = iter(batch_sizes), iter(offset_sizes)
    for d in range(result_rank):
        result.append(next(offset_iter) if d in offset_dims else next(batch_iter))
    return tuple(result)


def check_scatter(
    inputs: Sequence[Shape],
    scatter_indices: Shape,
    updates: Sequence[Shape],
    *,
    update_window_dims: Sequence[int],
    inserted_window_dims: Sequence[int],
    input_batching_dims: Sequence[int] = (),
    scatter_indices_batching_dims: Sequence[int] = (),
    scatter_dims_to_operand_dims: Sequence[int],
    index_vector_dim: int,
) -> None:
    """The shape rules of `scatter` (StableHLO spec, C1-C22)."""
    if not inputs or len(inputs) != len(updates):
        raise ShapeError(
            f"scatter needs N >= 1 inputs and as many updates, but has "
            f"{len(inputs)} inputs and {len(updates)} updates"
        )
    for i, s in enumerate(inputs):
        if len(s) != len(inputs[0]) or not all(
            _same_size(a, b) for a, b in zip(s, inputs[0], strict=True)
        ):
            raise ShapeError(
                f"input #{i} has shape {list(s)} but input #0 has shape "
                f"{list(inputs[0])}; all inputs must have the same shape"
            )
    for i, s in enumerate(updates):
        if len(s) != len(updates[0]) or not all(
            _same_size(a, b) for a, b in zip(s, updates[0], strict=True)
        ):
            raise ShapeError(
                f"update #{i} has shape {list(s)} but update #0 has shape "
                f"{list(updates[0])}; all updates must have the same shape"
            )
    operand, update = inputs[0], updates[0]
    rank = len(operand)
    window_rank = (
        len(update_window_dims) + len(inserted_window_dims) + len(input_batching_dims)
    )
    if window_rank != rank:
        raise ShapeError(
            f"update_window_dims {list(update_window_dims)}, inserted_window_dims "
            f"{list(inserted_window_dims)} and input_batching_dims "
            f"{list(input_batching_dims)} have {window_rank} entries in all but "
            f"the inputs have rank {rank}"
        )
    _check_index_vector_dim(index_vector_dim, scatter_indices)
    _check_index_map(
        "scatter_dims_to_operand_dims",
        scatter_dims_to_operand_dims,
        "input_batching_dims",
        input_batching_dims,
        rank,
        index_vector_dim,
        scatter_indices,
    )
    _check_unique("update_window_dims", update_window_dims)
    _check_sorted("update_window_dims", update_window_dims)
    _check_dims_in_range("update_window_dims", update_window_dims, len(update))
    _check_unique(
        "inserted_window_dims and input_batching_dims",
        [*inserted_window_dims, *input_batching_dims],
    )
    _check_sorted("inserted_window_dims", inserted_window_dims)
    _check_dims_in_range("inserted_window_dims", inserted_window_dims, rank)
    _check_batching(
        "input_batching_dims",
        input_batching_dims,
        operand,
        "scatter_indices_batching_dims",
        scatter_indices_batching_dims,
        scatter_indices,
        index_vector_dim,
    )

    scatter_sizes = _without(scatter_indices, index_vector_dim)
    update_rank = len(scatter_sizes) + len(update_window_dims)
    if len(update) != update_rank:
        raise ShapeError(
            f"updates have rank {len(update)} but must have rank {update_rank}: "
            f"{len(update_window_dims)} update_window_dims and "
            f"{len(scatter_sizes)} scatter dimensions from the indices"
        )
    window_bounds = [
        (d, s)
        for d, s in enumerate(operand)
        if d not in inserted_window_dims and d not in input_batching_dims
    ]
    scatter_dims = [d for d in range(update_rank) if d not in update_window_dims]
    for d, size in zip(scatter_dims, scatter_sizes, strict=True):
        if not _same_size(update[d], size):
            raise ShapeError(
                f"update dimension {d} has size {update[d]} but must equal the "
                f"matching scatter indices size {size}"
            )
    for d, (operand_dim, bound) in zip(update_window_dims, window_bounds, strict=True):
        if DYNAMIC not in (update[d], bound) and update[d] > bound:
            raise ShapeError(
                f"update window dimension {d} has size {update[d]}, which exceeds "
                f"the size {bound} of input dimension {operand_dim}"
            )


# --- adapters for verifiers ----------------------------------------------------


def check_rule(op: Operation, rule: Callable[[], object]) -> None:
    """Run a shape rule and report a violation as the op's verify error."""
    try:
        rule()
    except ShapeError as error:
        raise VerifyException(f"'{op.name}' op {error}") from None


def check_result_shape(op: Operation, inferred: Sequence[int], index: int = 0) -> None:
    declared = shape(op.results[index].type)
    if tuple(declared) != tuple(inferred):
        raise VerifyException(
            f"'{op.name}' op result shape {shape_text(declared)} does not match "
            f"the inferred shape {shape_text(inferred)}"
        )
