"""Index maps: which operand element each output element of a data-movement
op reads.

A fusion computes every output element from its inputs; where a broadcast,
transpose, slice, pad, ... stands between them, the element's index tuple is
mapped through the op (output index -> operand index) instead of
materializing the op's result. Each map takes the output index tuple as
`index` SSA values and returns the operand's, built with `IndexArith`, which
folds constants and emits each distinct computation once (a value the nest
uses several times is not recomputed).

Maps that may point outside their operand (pad, concatenate,
dynamic_update_slice) return clamped indices, so every load stays in bounds,
and an `i1` condition saying whether the element really comes from there;
the caller selects between the candidates (`arith.select`), which keeps a
kernel body free of branches that a backend would have to vectorize around.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xlir.dialects.stablehlo import data_movement as dm
from xlir.dialects.stablehlo.attributes import (
    ConvDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import ConvolutionOp
from xlir.dialects.stablehlo.indexing import GatherOp
from xlir.dialects.stablehlo.reduction import ReduceWindowOp
from xlir.dialects.syntax import array_values
from xlir.lowering.scalar import is_unsigned

Place = Callable[[Operation], SSAValue]
"""Inserts an op where its operands allow (the nest decides) and returns its
result."""


def shape(value: SSAValue) -> tuple[int, ...]:
    type_ = value.type
    assert isinstance(type_, TensorType)
    return tuple(type_.get_shape())


class IndexArith:
    """`index` arithmetic with constant folding and one op per distinct
    computation."""

    def __init__(self, place: Place):
        self._place = place
        self._constants: dict[int, SSAValue] = {}
        self._ops: dict[tuple[object, ...], SSAValue] = {}
        self._known: dict[SSAValue, int] = {}

    def const(self, value: int) -> SSAValue:
        if value not in self._constants:
            result = self._place(arith.ConstantOp(IntegerAttr(value, IndexType())))
            self._constants[value] = result
            self._known[result] = value
        return self._constants[value]

    def forget(self, dead: Callable[[SSAValue], bool]) -> None:
        """Drop the computations whose results `dead` says are out of scope
        (a loop body that has been closed)."""
        self._ops = {k: v for k, v in self._ops.items() if not dead(v)}

    def known(self, value: SSAValue) -> int | None:
        """The constant an index value is, if it is one."""
        return self._known.get(value)

    def _emit(self, key: tuple[object, ...], make: Callable[[], Operation]):
        if key not in self._ops:
            self._ops[key] = self._place(make())
        return self._ops[key]

    def add(self, a: SSAValue, b: SSAValue | int) -> SSAValue:
        if b == 0:
            return a
        b = self.const(b) if isinstance(b, int) else b
        ka, kb = self.known(a), self.known(b)
        if ka is not None and kb is not None:
            return self.const(ka + kb)
        if kb == 0:
            return a
        if ka == 0:
            return b
        return self._emit(("add", a, b), lambda: arith.AddiOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue | int) -> SSAValue:
        if b == 0:
            return a
        b = self.const(b) if isinstance(b, int) else b
        ka, kb = self.known(a), self.known(b)
        if ka is not None and kb is not None:
            return self.const(ka - kb)
        if kb == 0:
            return a
        return self._emit(("sub", a, b), lambda: arith.SubiOp(a, b))

    def mul(self, a: SSAValue, b: int) -> SSAValue:
        ka = self.known(a)
        if ka is not None:
            return self.const(ka * b)
        if b == 1:
            return a
        c = self.const(b)
        return self._emit(("mul", a, c), lambda: arith.MuliOp(a, c))

    def div(self, a: SSAValue, b: int) -> SSAValue:
        """Floor division of a non-negative index."""
        ka = self.known(a)
        if ka is not None:
            return self.const(ka // b)
        if b == 1:
            return a
        c = self.const(b)
        return self._emit(("div", a, c), lambda: arith.DivUIOp(a, c))

    def rem(self, a: SSAValue, b: int) -> SSAValue:
        """Remainder of a non-negative index."""
        ka = self.known(a)
        if ka is not None:
            return self.const(ka % b)
        if b == 1:
            return self.const(0)
        c = self.const(b)
        return self._emit(("rem", a, c), lambda: arith.RemUIOp(a, c))

    def cmp(self, predicate: str, a: SSAValue, b: SSAValue | int) -> SSAValue:
        """A signed comparison (indices may go negative before clamping)."""
        b = self.const(b) if isinstance(b, int) else b
        return self._emit(
            ("cmp", predicate, a, b), lambda: arith.CmpiOp(a, b, predicate)
        )

    def and_(self, a: SSAValue | None, b: SSAValue | None) -> SSAValue | None:
        """Conjunction of optional conditions (None is true)."""
        if a is None or b is None:
            return b if a is None else a
        return self._emit(("and", a, b), lambda: arith.AndIOp(a, b))

    def clamp(self, a: SSAValue, low: int, high: int) -> SSAValue:
        """`a` clamped into [low, high]."""
        ka = self.known(a)
        if ka is not None:
            return self.const(min(max(ka, low), high))
        lo, hi = self.const(low), self.const(high)
        a = self._emit(("max", a, lo), lambda: arith.MaxSIOp(a, lo))
        return self._emit(("min", a, hi), lambda: arith.MinSIOp(a, hi))

    def from_integer(self, value: SSAValue, unsigned: bool = False) -> SSAValue:
        """A loaded integer scalar (a start index) as an `index`; an unsigned
        one is zero-extended (ui32 4294967295 is past every bound, not -1),
        and a ui64 one past the largest i64 becomes that (past every bound,
        not negative)."""
        width = value.type.width.data if isinstance(value.type, IntegerType) else 64
        if unsigned and width < 64:
            wide = value
            value = self._emit(("zext", wide), lambda: arith.ExtUIOp(wide, i64))
        elif unsigned:
            top = self._emit(
                ("i64", 2**63 - 1),
                lambda: arith.ConstantOp(IntegerAttr(2**63 - 1, i64)),
            )
            big = value
            value = self._emit(("minu", big), lambda: arith.MinUIOp(big, top))
        return self._emit(
            ("cast", value), lambda: arith.IndexCastOp(value, IndexType())
        )


Indices = list[SSAValue]


def broadcast_in_dim(op: dm.BroadcastInDimOp, idx: Indices, ix: IndexArith) -> Indices:
    """Operand dim k reads output dim dims[k], or 0 where it is expanded from 1."""
    out = shape(op.results[0])
    return [
        ix.const(0) if size == 1 and out[d] != 1 else idx[d]
        for d, size in zip(op.dims, shape(op.operand), strict=True)
    ]


def transpose(op: dm.TransposeOp, idx: Indices) -> Indices:
    """Result dim i is operand dim permutation[i]."""
    result: Indices = list(idx)
    for i, p in enumerate(op.dims):
        result[p] = idx[i]
    return result


def reverse(op: dm.ReverseOp, idx: Indices, ix: IndexArith) -> Indices:
    sizes = shape(op.operand)
    return [
        ix.sub(ix.const(sizes[d] - 1), i) if d in op.dims else i
        for d, i in enumerate(idx)
    ]


def slice_(op: dm.SliceOp, idx: Indices, ix: IndexArith) -> Indices:
    return [
        ix.add(ix.mul(i, step), start)
        for i, start, step in zip(idx, op.start, op.step, strict=True)
    ]


def reshape(op: dm.ReshapeOp, idx: Indices, ix: IndexArith) -> Indices:
    """Each run of output dims that holds the same elements as a run of
    operand dims (equal products: a merge or a split) is linearized and
    delinearized on its own; dims of size 1 are left out. So a reshape that
    only adds or removes unit dims is a renaming of indices, and merging
    `8x256x256x3` into `8x256x768` divides only the last index by 3 (one
    linear index over every dim leaves divisions by 768 and 196608 on the
    other dims, which LLVM's vectorizer cannot see through)."""
    out, src = shape(op.results[0]), shape(op.operand)
    kept_out = [(i, n) for i, n in zip(idx, out, strict=True) if n != 1]
    kept_src = [n for n in src if n != 1]
    values = iter(_regroup(kept_out, kept_src, ix))
    return [ix.const(0) if n == 1 else next(values) for n in src]


def _regroup(
    out: list[tuple[SSAValue, int]], src: list[int], ix: IndexArith
) -> Indices:
    """The indices in `src`'s dims of the index `out` (value, size pairs) of
    the same elements, group by group (`reshape`)."""
    result: Indices = []
    o = s = 0
    for count_out, count_src in _groups([n for _, n in out], src):
        group_out, group_src = out[o : o + count_out], src[s : s + count_src]
        o, s = o + count_out, s + count_src
        flat = group_out[0][0] if group_out else ix.const(0)
        for i, n in group_out[1:]:
            flat = ix.add(ix.mul(flat, n), i)
        for d, n in enumerate(group_src):
            inner = prod(group_src[d + 1 :])
            result.append(ix.rem(ix.div(flat, inner), n) if d else ix.div(flat, inner))
    return result


def _groups(out: list[int], src: list[int]) -> list[tuple[int, int]]:
    """How many dims of `out` and of `src` each group of equal products
    takes, in order; one group of all when there are no elements."""
    if 0 in out or 0 in src:
        return [(len(out), len(src))]
    groups: list[tuple[int, int]] = []
    o = s = 0
    while o < len(out):
        o_end, s_end = o + 1, s + 1
        while prod(out[o:o_end]) != prod(src[s:s_end]):
            if prod(out[o:o_end]) < prod(src[s:s_end]):
                o_end += 1
            else:
                s_end += 1
        groups.append((o_end - o, s_end - s))
        o, s = o_end, s_end
    return groups


def clamped_starts(
    load: Callable[[int], SSAValue],
    unsigned: Sequence[bool],
    operand: Sequence[int],
    sizes: Sequence[int],
    ix: IndexArith,
) -> Indices:
    """Dynamic start indices (`load(d)` loads dimension d's, `unsigned`: of
    a `uiN` type) clamped so the window stays inside the operand
    (StableHLO's dynamic_slice and dynamic_update_slice rule). Along a
    dimension the window spans whole the start can only be 0: it is not
    loaded, and the window's index is the nest's own (a scan's step slice
    of a sequence, whose other starts are 0, vectorizes as a plain copy)."""
    return [
        ix.const(0) if n == size else ix.clamp(ix.from_integer(load(d), u), 0, n - size)
        for d, (u, n, size) in enumerate(zip(unsigned, operand, sizes, strict=True))
    ]


def dynamic_slice(starts: Indices, idx: Indices, ix: IndexArith) -> Indices:
    return [ix.add(s, i) for s, i in zip(starts, idx, strict=True)]


def dynamic_update_slice(
    op: dm.DynamicUpdateSliceOp, starts: Indices, idx: Indices, ix: IndexArith
) -> tuple[Indices, SSAValue | None]:
    """The update's (clamped) index and whether the element lies in the update."""
    update = shape(op.update)
    inside: SSAValue | None = None
    update_idx: Indices = []
    for i, s, n in zip(idx, starts, update, strict=True):
        local = ix.sub(i, s)
        inside = ix.and_(
            inside, ix.and_(ix.cmp("sge", local, 0), ix.cmp("slt", local, n))
        )
        update_idx.append(ix.clamp(local, 0, n - 1))
    return update_idx, inside


def pad(op: dm.PadOp, idx: Indices, ix: IndexArith) -> tuple[Indices, SSAValue | None]:
    """The operand's (clamped) index and whether the element is the operand's
    rather than padding (negative edge padding drops elements; interior padding
    puts `interior` pads between neighbours)."""
    sizes = shape(op.operand)
    inside: SSAValue | None = None
    result: Indices = []
    for i, n, low, interior in zip(idx, sizes, op.low, op.interior, strict=True):
        shifted = ix.sub(i, low)
        stride = interior + 1
        last = (n - 1) * stride
        if not (
            ix.known(shifted) is not None and 0 <= (ix.known(shifted) or 0) <= last
        ):
            inside = ix.and_(
                inside, ix.and_(ix.cmp("sge", shifted, 0), ix.cmp("sle", shifted, last))
            )
        clamped = ix.clamp(shifted, 0, last)
        if stride > 1:
            on_grid = ix.cmp("eq", ix.rem(clamped, stride), 0)
            inside = ix.and_(inside, on_grid)
            clamped = ix.div(clamped, stride)
        result.append(clamped)
    return result, inside


def concatenate(
    op: dm.ConcatenateOp, idx: Indices, ix: IndexArith
) -> list[tuple[Indices, SSAValue | None]]:
    """Per operand: its (clamped) index and whether the element lies in it,
    as `i < end` tested in order (the first operand whose end lies beyond
    the index)."""
    axis = op.dimension.value.data
    choices: list[tuple[Indices, SSAValue | None]] = []
    offset = 0
    operands = list(op.inputs)
    for k, operand in enumerate(operands):
        n = shape(operand)[axis]
        local = list(idx)
        local[axis] = ix.clamp(ix.sub(idx[axis], offset), 0, n - 1)
        offset += n
        last = k == len(operands) - 1
        choices.append((local, None if last else ix.cmp("slt", idx[axis], offset)))
    return choices


def gather(
    op: GatherOp,
    idx: Indices,
    start_index: Callable[[Indices], SSAValue],
    ix: IndexArith,
) -> Indices:
    """The operand index of gather's output element `idx`; `start_index`
    gives the integer at an index of `start_indices`."""
    numbers = op.dimension_numbers
    assert isinstance(numbers, GatherDimensionNumbersAttr)
    offset_dims = numbers.field("offset_dims")
    collapsed = numbers.field("collapsed_slice_dims")
    operand_batching = numbers.field("operand_batching_dims")
    indices_batching = numbers.field("start_indices_batching_dims")
    start_map = numbers.field("start_index_map")
    (vector_dim,) = numbers.field("index_vector_dim")
    operand_shape = shape(op.operand)
    indices_rank = len(shape(op.start_indices))
    sizes = op.sizes
    batch = [i for d, i in enumerate(idx) if d not in offset_dims]
    offsets = iter(idx[d] for d in offset_dims)

    def at(k: int | None) -> Indices:
        """The start_indices index of batch `batch`, component k."""
        result = list(batch)
        if vector_dim < indices_rank:
            assert k is not None
            result.insert(vector_dim, ix.const(k))
        return result

    starts: Indices = [ix.const(0)] * len(operand_shape)
    unsigned = is_unsigned(op.start_indices.type)
    for k, d in enumerate(start_map):
        value = ix.from_integer(
            start_index(at(k if vector_dim < indices_rank else None)), unsigned
        )
        starts[d] = ix.clamp(value, 0, operand_shape[d] - sizes[d])
    batch_dims_of_indices = [d for d in range(indices_rank) if d != vector_dim]
    for od, idim in zip(operand_batching, indices_batching, strict=True):
        starts[od] = batch[batch_dims_of_indices.index(idim)]
    result: Indices = []
    for d in range(len(operand_shape)):
        if d in collapsed or d in operand_batching:
            result.append(starts[d])
        else:
            result.append(ix.add(starts[d], next(offsets)))
    return result


def int_list(attr: DenseArrayBase | None, default: Sequence[int]) -> list[int]:
    """An optional `array<i64: ...>` property, or its default."""
    return list(default) if attr is None else list(array_values(attr))


def padding_pairs(
    attr: DenseIntOrFPElementsAttr | None, rank: int
) -> list[tuple[int, int]]:
    """An optional `dense<[[lo, hi], ...]>` padding property, per dimension."""
    if attr is None:
        return [(0, 0)] * rank
    flat = [int(v) for v in attr.get_values()]  # pyright: ignore[reportArgumentType]
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def window_tap(
    ix: IndexArith,
    out: SSAValue,
    tap: SSAValue,
    window: tuple[int, int, int, int],
    base: tuple[int, int],
    out_size: int,
    cond: SSAValue | None,
) -> tuple[SSAValue, SSAValue | None]:
    """The input index a window tap reads in one dimension, and `cond` anded
    with whether it lands on an input element rather than padding or a hole
    of the base dilation (the index is clamped in bounds either way).

    `window` is (taps, stride, window dilation, low padding), `base` is
    (input size, base dilation); a bound is tested only where the shapes let
    a tap cross it."""
    taps, stride, dilation, low = window
    size, base_dilation = base
    position = ix.sub(ix.add(ix.mul(out, stride), ix.mul(tap, dilation)), low)
    last = (size - 1) * base_dilation
    if low > 0:
        cond = ix.and_(cond, ix.cmp("sge", position, 0))
    if (out_size - 1) * stride + (taps - 1) * dilation - low > last:
        cond = ix.and_(cond, ix.cmp("sle", position, last))
    position = ix.clamp(position, 0, last)
    if base_dilation > 1:
        cond = ix.and_(cond, ix.cmp("eq", ix.rem(position, base_dilation), 0))
        position = ix.div(position, base_dilation)
    return position, cond


def reduce_window(
    op: ReduceWindowOp, idx: Indices, taps: Indices, ix: IndexArith
) -> tuple[Indices, SSAValue | None]:
    """The input element window tap `taps` of output element `idx` reads
    (clamped in bounds), and whether it is one rather than padding or a hole
    of the base dilation (None: always)."""
    in_shape, out_shape = shape(op.inputs[0]), shape(op.outputs[0])
    rank = len(in_shape)
    window = int_list(op.window_dimensions, [])
    strides = int_list(op.window_strides, [1] * rank)
    base_dilations = int_list(op.base_dilations, [1] * rank)
    window_dilations = int_list(op.window_dilations, [1] * rank)
    padding = padding_pairs(op.padding, rank)
    inside: SSAValue | None = None
    at: Indices = []
    for d in range(rank):
        position, inside = window_tap(
            ix,
            idx[d],
            taps[d],
            (window[d], strides[d], window_dilations[d], padding[d][0]),
            (in_shape[d], base_dilations[d]),
            out_shape[d],
            inside,
        )
        at.append(position)
    return at, inside


def convolution_loops(op: ConvolutionOp) -> list[int]:
    """The bounds of the `loop.for` nest that sums one convolution output
    element: the input features of its group, then the window's taps."""
    numbers = op.dimension_numbers
    assert isinstance(numbers, ConvDimensionNumbersAttr)
    kernel = shape(op.rhs)
    return [
        kernel[numbers.kernel_input_feature],
        *(kernel[d] for d in numbers.kernel_spatial_dimensions.data),
    ]


def convolution(
    op: ConvolutionOp, idx: Indices, ivs: Indices, ix: IndexArith
) -> tuple[Indices, Indices, SSAValue | None]:
    """The input and kernel elements that step `ivs` (input feature, then
    taps, as `convolution_loops`) of output element `idx` multiplies, and
    whether the input one is an element rather than padding or a hole of the
    lhs dilation (None: always; the input index is clamped in bounds).

    Every dimension number is honoured: any layout, padding, strides, lhs
    and rhs dilation, window reversal, `feature_group_count` (output feature
    `f` reads the input features of group `f / (O / G)`) and
    `batch_group_count` (output feature `f` reads the input batch of group
    `f / (O / BG)`)."""
    numbers = op.dimension_numbers
    assert isinstance(numbers, ConvDimensionNumbersAttr)
    in_spatial = numbers.input_spatial_dimensions.data
    kernel_spatial = numbers.kernel_spatial_dimensions.data
    out_spatial = numbers.output_spatial_dimensions.data
    spatial = len(in_spatial)
    strides = int_list(op.window_strides, [1] * spatial)
    padding = padding_pairs(op.padding, spatial)
    lhs_dilation = int_list(op.lhs_dilation, [1] * spatial)
    rhs_dilation = int_list(op.rhs_dilation, [1] * spatial)
    reversal = (
        [False] * spatial
        if op.window_reversal is None
        else [bool(v) for v in array_values(op.window_reversal)]
    )
    lhs_shape, rhs_shape, out_shape = shape(op.lhs), shape(op.rhs), shape(op.result)
    features = out_shape[numbers.output_feature]
    feature_groups = op.feature_group_count.value.data
    batch_groups = op.batch_group_count.value.data
    in_per_group = rhs_shape[numbers.kernel_input_feature]

    f = idx[numbers.output_feature]
    batch = idx[numbers.output_batch]
    if batch_groups > 1:
        batch_group = ix.div(f, features // batch_groups)
        batch = ix.add(ix.mul(batch_group, out_shape[numbers.output_batch]), batch)
    feature = ivs[0]
    if feature_groups > 1:
        group = ix.div(f, features // feature_groups)
        feature = ix.add(ix.mul(group, in_per_group), feature)
    x_idx: Indices = [ix.const(0)] * len(lhs_shape)
    w_idx: Indices = [ix.const(0)] * len(rhs_shape)
    x_idx[numbers.input_batch] = batch
    x_idx[numbers.input_feature] = feature
    w_idx[numbers.kernel_input_feature] = ivs[0]
    w_idx[numbers.kernel_output_feature] = f
    inside: SSAValue | None = None
    for d in range(spatial):
        tap, taps = ivs[1 + d], rhs_shape[kernel_spatial[d]]
        w_idx[kernel_spatial[d]] = (
            ix.sub(ix.const(taps - 1), tap) if reversal[d] else tap
        )
        x_idx[in_spatial[d]], inside = window_tap(
            ix,
            idx[out_spatial[d]],
            tap,
            (taps, strides[d], rhs_dilation[d], padding[d][0]),
            (lhs_shape[in_spatial[d]], lhs_dilation[d]),
            out_shape[out_spatial[d]],
            inside,
        )
    return x_idx, w_idx, inside
