"""`subpixel-conv`: a convolution with lhs (base) dilation as convolutions of
the undilated input, one per output phase, interleaved (the sub-pixel
decomposition of a transposed convolution).

A transposed convolution (`jax.lax.conv_transpose`, a strided
convolution's input gradient) dilates its input with zeros, `s - 1`
between neighbours: with `s = 2` in two dimensions three quarters of the
taps multiply an inserted zero. Along one spatial dimension, output `o`
reads dilated position `o * t + k * r - lo` at tap `k` (stride `t`, window
dilation `r`, low padding `lo`), an input element exactly when that is a
multiple of `s`. Which taps do depends on `o` only through `o mod P`,
`P = s / gcd(t, s)`: the outputs `o = ph + P * m` of one phase `ph` read
input `e + m * t' + q * r'` at their `q`-th kept tap (every
`s / gcd(r, s)`-th one from the first kept), `t' = P * t / s`,
`r' = r / gcd(r, s)`: an ordinary convolution of the undilated input with
that slice of the kernel, low padding `-e` and a high padding giving
`ceil(O / P)` outputs. Where the phases start at nearby input elements
(at most one output in `SPREAD_LIMIT` more), they all start at the first
one and each slices its outputs from the result: convolutions alike but
for their kernels share one kernel function (the cpu target's
`merge-kernels`) and one padded input (`conv-padding`); phases alike in
their windows too are one convolution, their kernels stacked along its
output features, as one reshape and transpose of the weights where the
phases' taps interleave (`_interleaved_kernels`). The phases'
results are stacked on a new dimension
after each spatial one (concatenates) and reshaped into place; a result
longer than the output (O not a multiple of P) is sliced.

Exactness. The dropped taps multiply zeros, which is not nothing in
floating point: `0 * inf` is NaN, and `0 * w` is -0.0 for a negative `w`.
So each phase adds, per output feature, the sum of `0 * w` over its dropped
taps (all input features): NaN where one of those weights is not finite,
else -0.0 or +0.0, summed from -0.0, so that adding it changes no finite
sum and leaves the sign of zero what the full sum (started, as every
kernel and the evaluator start it, from +0.0) would have. A phase without
a kept tap is +0.0 plus that sum. The corrections are one reduction over
a copy of the small kernel per phase, masked by the dropped taps. Where
along each dimension two phases keep every tap between them (a stride-2
transposed convolution), a phase drops what the others keep at the same
place of their kernels, and the correction is marked on the weights
instead: each adds `-0.0 * |w|` of those others (`_nan_marked_weights`),
elementwise ops fused where the phases' kernels are made, where a
correction costs a reduction of its own and an add per output. Integer
convolutions need none. The kept products are the same, so results differ
from the dilated convolution's only in the order the sums add them.

Every layout, window stride, window dilation, padding (negative too),
reversal (kept on the new convolution, which reads its slice backwards)
and feature or batch group count is honoured; these only change which
taps a phase keeps. Left alone: complex and quantized element types, and
an empty result.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, ModuleOp, TensorType, i1
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xlir.dialects.stablehlo.attributes import ConvDimensionNumbersAttr
from xlir.dialects.stablehlo.contraction import ConvolutionOp, padding_pairs
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.data_movement import (
    BroadcastInDimOp,
    ConcatenateOp,
    ConstantOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TransposeOp,
)
from xlir.dialects.stablehlo.elementwise import (
    AbsOp,
    AddOp,
    ConvertOp,
    MultiplyOp,
    SelectOp,
)
from xlir.dialects.stablehlo.reduction import ReduceOp
from xlir.dialects.stablehlo.types import element_type, is_float, shape
from xlir.dialects.syntax import array_values
from xlir.passes.hlo.simplify_patterns.constants import dense_from_numpy, splat_ops

from xlir.rewriting import PatternRewriteWalker


@dataclass(frozen=True)
class Phase:
    """One output phase along one spatial dimension: the kernel taps it
    keeps (indices into the kernel as stored, an arithmetic progression),
    the padding of its convolution of the undilated input, and how many of
    that convolution's first outputs precede the phase's."""

    kept: range
    low: int
    high: int
    skip: int


@dataclass(frozen=True)
class DimensionPlan:
    """The phases of one spatial dimension, the extent of each phase
    (`outputs`) and of each phase's convolution (`computed`), and the
    stride and window dilation of those convolutions."""

    phases: tuple[Phase, ...]
    outputs: int
    computed: int
    stride: int
    dilation: int


SPREAD_LIMIT = 8
"""The phases' convolutions start at the same input element, computing
outputs the phase then skips, when that adds at most one output in this
many: convolutions alike but for their kernels then share one kernel
function (and one padded input on the cpu target)."""


def plan_dimension(
    size: int,
    base_dilation: int,
    taps: int,
    window: tuple[int, int, int, bool],
    out_size: int,
) -> DimensionPlan:
    """The phases of a dimension of `size` input elements dilated by
    `base_dilation`, a window of `taps` with `window` = (stride, window
    dilation, low padding, reversed), giving `out_size` outputs."""
    stride, dilation, low, reversed_ = window
    s = base_dilation
    count = s // math.gcd(stride, s)
    step = s // math.gcd(dilation, s)
    new_stride, new_dilation = count * stride // s, dilation // math.gcd(dilation, s)
    outputs = -(-out_size // count)
    kept_taps = []
    for ph in range(count):
        offset = ph * stride - low
        kept = [k for k in range(taps) if (offset + k * dilation) % s == 0]
        first = (offset + kept[0] * dilation) // s if kept else 0
        kept_taps.append((kept, first))
    firsts = [first for kept, first in kept_taps if kept]
    spread = max(firsts, default=0) - min(firsts, default=0)
    shared = spread % new_stride == 0 and spread * SPREAD_LIMIT <= outputs
    computed = outputs + spread // new_stride if shared else outputs
    phases = []
    for kept, first in kept_taps:
        if not kept:
            phases.append(Phase(range(0), 0, 0, 0))
            continue
        start = min(firsts) if shared else first
        last = start + (computed - 1) * new_stride + (len(kept) - 1) * new_dilation
        if reversed_:
            stored = range(taps - 1 - kept[-1], taps - kept[0], step)
        else:
            stored = range(kept[0], kept[-1] + 1, step)
        skip = (first - start) // new_stride
        phases.append(Phase(stored, -start, last - (size - 1), skip))
    return DimensionPlan(tuple(phases), outputs, computed, new_stride, new_dilation)


class DecomposeDilatedConvolution(RewritePattern):
    """convolution(x, w) with lhs dilation → its phases' convolutions of x,
    interleaved, plus the dropped taps' `0 * w` for floats."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvolutionOp, rewriter: PatternRewriter) -> None:
        if op.lhs_dilation is None:
            return
        base = list(array_values(op.lhs_dilation))
        elements = [element_type(v.type) for v in (op.lhs, op.rhs, op.result)]
        floats = [is_float(e) for e in elements]
        numeric = all(floats) or all(isinstance(e, IntegerType) for e in elements)
        out_shape = list(shape(op.result.type))
        sizes = [*shape(op.lhs.type), *shape(op.rhs.type), *out_shape]
        if all(d == 1 for d in base) or not numeric or 0 in out_shape:
            return
        if any(d < 0 for d in sizes):
            return
        numbers = op.dimension_numbers
        assert isinstance(numbers, ConvDimensionNumbersAttr)
        spatial = len(base)
        strides = _ints(op.window_strides, spatial)
        dilations = _ints(op.rhs_dilation, spatial)
        reversal = (
            [False] * spatial
            if op.window_reversal is None
            else [bool(v) for v in array_values(op.window_reversal)]
        )
        padding = (
            [(0, 0)] * spatial if op.padding is None else padding_pairs(op.padding)
        )
        lhs_shape, rhs_shape = shape(op.lhs.type), shape(op.rhs.type)
        in_sp = numbers.input_spatial_dimensions.data
        k_sp = numbers.kernel_spatial_dimensions.data
        out_sp = numbers.output_spatial_dimensions.data
        plans = [
            plan_dimension(
                lhs_shape[in_sp[d]],
                base[d],
                rhs_shape[k_sp[d]],
                (strides[d], dilations[d], padding[d][0], reversal[d]),
                out_shape[out_sp[d]],
            )
            for d in range(spatial)
        ]
        build = _Builder(op)
        result = elements[2]
        phase_shape = list(out_shape)
        for d, plan in zip(out_sp, plans, strict=True):
            phase_shape[d] = plan.outputs
        phase_type = TensorType(result, phase_shape)
        # The result with a phase dimension after each spatial one.
        stacked_dims = sorted([*range(len(out_shape)), *(d + 0.5 for d in out_sp)])
        phase_axis = [stacked_dims.index(d + 0.5) for d in out_sp]
        stacked = [phase_shape[int(d)] if d == int(d) else 1 for d in stacked_dims]

        # The weights, with the dropped taps' NaN marked on the kept ones
        # where that replaces the correction (`_nan_marked_weights`).
        marked = (
            _nan_marked_weights(build, op.rhs, plans, numbers) if all(floats) else None
        )
        weights = op.rhs if marked is None else marked

        def kernel(phases: list[Phase]) -> SSAValue:
            """The kernel taps `phases` keep."""
            if all(
                len(p.kept) == n
                for p, n in zip(phases, (rhs_shape[d] for d in k_sp), strict=True)
            ):
                return weights
            start, limit = [0] * len(rhs_shape), list(rhs_shape)
            step = [1] * len(rhs_shape)
            for d, p in zip(k_sp, phases, strict=True):
                start[d], limit[d] = p.kept.start, p.kept[-1] + 1
                step[d] = p.kept.step if len(p.kept) > 1 else 1
            return build.add(SliceOp(weights, start, limit, step))

        def convolve(rhs: SSAValue, phases: list[Phase], features: int) -> SSAValue:
            """The convolution of `phases`' windows with `rhs`."""
            computed = list(out_shape)
            computed[numbers.output_feature] = features
            for d, plan in zip(out_sp, plans, strict=True):
                computed[d] = plan.computed
            return build.add(
                ConvolutionOp(
                    op.lhs,
                    rhs,
                    numbers,
                    TensorType(result, computed),
                    window_strides=[plan.stride for plan in plans],
                    padding=[(p.low, p.high) for p in phases],
                    rhs_dilation=[plan.dilation for plan in plans],
                    window_reversal=reversal
                    if op.window_reversal is not None
                    else None,
                    feature_group_count=op.feature_group_count.value.data,
                    batch_group_count=op.batch_group_count.value.data,
                    precision_config=op.precision_config,
                )
            )

        def window(value: SSAValue, phases: list[Phase], feature: int) -> SSAValue:
            """A phase's outputs in a convolution's result `value`, from
            output feature `feature` on."""
            start = [0] * len(out_shape)
            start[numbers.output_feature] = feature
            for d, p in zip(out_sp, phases, strict=True):
                start[d] = p.skip
            limit = [b + n for b, n in zip(start, phase_shape, strict=True)]
            if limit == list(shape(value.type)) and not any(start):
                return value
            return build.add(SliceOp(value, start, limit))

        indices = list(itertools.product(*(range(len(p.phases)) for p in plans)))

        def phases_of(index: tuple[int, ...]) -> list[Phase]:
            return [plan.phases[i] for plan, i in zip(plans, index, strict=True)]

        # Phases with the same window (taps, padding) and no groups are one
        # convolution, each phase's kernel a block of its output features.
        features = out_shape[numbers.output_feature]
        groups = op.feature_group_count.value.data * op.batch_group_count.value.data
        alike = groups == 1 and all(
            len({(len(p.kept), p.low, p.high) for p in plan.phases}) == 1
            and plan.phases[0].kept
            for plan in plans
        )
        if alike and len(indices) > 1:
            stacked_rhs = _interleaved_kernels(build, weights, plans, numbers)
            if stacked_rhs is None:
                kernels = [kernel(phases_of(index)) for index in indices]
                stacked_rhs = build.add(
                    ConcatenateOp(kernels, numbers.kernel_output_feature)
                )
            together = convolve(
                stacked_rhs, phases_of(indices[0]), features * len(indices)
            )

        def phase_value(index: tuple[int, ...]) -> SSAValue:
            phases = phases_of(index)
            if any(not p.kept for p in phases):
                return build.splat(phase_type, 0)
            if alike and len(indices) > 1:
                return window(together, phases, indices.index(index) * features)
            return window(convolve(kernel(phases), phases, features), phases, 0)

        def interleave(prefix: tuple[int, ...]) -> SSAValue:
            d = len(prefix)
            if d == spatial:
                return build.reshape(phase_value(prefix), stacked)
            parts = [interleave((*prefix, i)) for i in range(len(plans[d].phases))]
            if len(parts) == 1:
                return parts[0]
            return build.add(ConcatenateOp(parts, phase_axis[d]))

        value = interleave(())
        if all(floats) and marked is None:
            correction = self._correction(build, op, plans, numbers)
            if correction is not None:
                stacked_shape = shape(value.type)
                feature_axis = stacked_dims.index(numbers.output_feature)
                spread = build.add(
                    BroadcastInDimOp(
                        correction,
                        [*phase_axis, feature_axis],
                        TensorType(result, stacked_shape),
                    )
                )
                value = build.add(AddOp(value, spread))
        interleaved = list(out_shape)
        for d, plan in zip(out_sp, plans, strict=True):
            interleaved[d] = plan.outputs * len(plan.phases)
        value = build.reshape(value, interleaved)
        if interleaved != out_shape:
            value = build.add(SliceOp(value, [0] * len(out_shape), out_shape))
        rewriter.replace(op, build.made, [value])

    @staticmethod
    def _correction(
        build: _Builder,
        op: ConvolutionOp,
        plans: list[DimensionPlan],
        numbers: ConvDimensionNumbersAttr,
    ) -> SSAValue | None:
        """Per phase (one dimension each) and output feature, the sum from
        -0.0 of `0 * w` over the taps the phase drops, in the result's
        type; None where no phase drops one."""
        counts = [len(plan.phases) for plan in plans]
        k_sp = numbers.kernel_spatial_dimensions.data
        rhs_shape = list(shape(op.rhs.type))
        taps = [rhs_shape[d] for d in k_sp]
        dropped = np.zeros(counts + taps, dtype=bool)
        for index in itertools.product(*(range(c) for c in counts)):
            kept = np.ones(taps, dtype=bool)
            for d, (plan, i) in enumerate(zip(plans, index, strict=True)):
                along = np.zeros(taps[d], dtype=bool)
                along[list(plan.phases[i].kept)] = True
                kept &= along.reshape([-1 if e == d else 1 for e in range(len(taps))])
            dropped[index] = ~kept
        if not dropped.any():
            return None
        result = element_type(op.result.type)
        rhs_element = element_type(op.rhs.type)
        zeros = build.add(MultiplyOp(op.rhs, build.splat(op.rhs.type, 0)))
        if rhs_element != result:
            zeros = build.add(ConvertOp(zeros, TensorType(result, rhs_shape)))
        phases = len(counts)
        wide = TensorType(result, counts + rhs_shape)
        spread = build.add(
            BroadcastInDimOp(zeros, [phases + d for d in range(len(rhs_shape))], wide)
        )
        mask_type = TensorType(i1, counts + taps)
        mask = build.add(ConstantOp(dense_from_numpy(dropped, mask_type)))
        wide_mask = build.add(
            BroadcastInDimOp(
                mask,
                [*range(phases), *(phases + d for d in k_sp)],
                TensorType(i1, counts + rhs_shape),
            )
        )
        negative_zero = build.splat(wide, -0.0)
        picked = build.add(SelectOp(wide_mask, spread, negative_zero))
        summed = [
            phases + d
            for d in range(len(rhs_shape))
            if d != numbers.kernel_output_feature
        ]
        return build.sum(picked, summed)


@dataclass(frozen=True)
class TapSplit:
    """How the phases' taps interleave along each spatial dimension of a
    kernel: the slice of it they keep (`start`, `limit`, `step` per
    dimension) and, per dimension with several phases, (taps per phase,
    phases, reversed): the slice split into (taps, phases) holds phase `i`'s
    taps at phase index `i`, or at `P - 1 - i` where reversed."""

    start: list[int]
    limit: list[int]
    step: list[int]
    split: dict[int, tuple[int, int, bool]]

    def whole(self, rhs_shape: list[int]) -> bool:
        """Whether the phases keep every tap (each exactly once)."""
        return (self.start, self.limit, self.step) == (
            [0] * len(rhs_shape),
            rhs_shape,
            [1] * len(rhs_shape),
        )


def tap_split(
    plans: list[DimensionPlan], numbers: ConvDimensionNumbersAttr, rhs_shape: list[int]
) -> TapSplit | None:
    """Where along each spatial dimension with several phases each keeps
    the same number of taps, phase `i` keeping `a + i * delta + P * q` for
    `P` phases and `delta` 1 or -1 (a transposed convolution's stride), the
    split of the kernel's taps (`TapSplit`); None where they do not
    interleave so."""
    start, limit, step = [0] * len(rhs_shape), list(rhs_shape), [1] * len(rhs_shape)
    split: dict[int, tuple[int, int, bool]] = {}
    for d, plan in zip(numbers.kernel_spatial_dimensions.data, plans, strict=True):
        kept = [p.kept for p in plan.phases]
        taps, count = len(kept[0]), len(kept)
        if taps == 0 or any(len(r) != taps for r in kept):
            return None
        if count == 1:
            start[d], limit[d] = kept[0].start, kept[0][-1] + 1
            step[d] = kept[0].step if taps > 1 else 1
            continue
        firsts = [r.start for r in kept]
        delta = firsts[1] - firsts[0]
        if delta not in (1, -1) or (taps > 1 and kept[0].step != count):
            return None
        if any(f != firsts[0] + i * delta for i, f in enumerate(firsts)):
            return None
        start[d] = min(firsts)
        limit[d] = start[d] + taps * count
        split[d] = (taps, count, delta < 0)
    return TapSplit(start, limit, step, split)


def _split_shape(
    taps: TapSplit, sliced: list[int]
) -> tuple[list[int], list[list[int]]]:
    """The shape of a kernel sliced to the kept taps (`sliced`) with each
    dimension with several phases split into (taps, phases), and per
    dimension of the kernel, the dimensions of that shape it became."""
    parts: list[list[int]] = []
    split_shape: list[int] = []
    for d, size in enumerate(sliced):
        sizes = list(taps.split[d][:2]) if d in taps.split else [size]
        parts.append(list(range(len(split_shape), len(split_shape) + len(sizes))))
        split_shape += sizes
    return split_shape, parts


def _split_taps(
    build: _Builder, value: SSAValue, taps: TapSplit
) -> tuple[SSAValue, list[list[int]]]:
    """`value` (a kernel, or a tensor shaped like it) sliced to the taps the
    phases keep, each dimension with several phases split into (taps,
    phases) with phase `i` at index `i`; and per dimension of `value`, the
    dimensions of the result it became."""
    if not taps.whole(list(shape(value.type))):
        value = build.add(SliceOp(value, taps.start, taps.limit, taps.step))
    split_shape, parts = _split_shape(taps, list(shape(value.type)))
    value = build.reshape(value, split_shape)
    flipped = [parts[d][1] for d, (_, _, back) in taps.split.items() if back]
    if flipped:
        value = build.add(ReverseOp(value, sorted(flipped)))
    return value, parts


def _interleaved_kernels(
    build: _Builder,
    rhs: SSAValue,
    plans: list[DimensionPlan],
    numbers: ConvDimensionNumbersAttr,
) -> SSAValue | None:
    """The phases' kernels stacked along the output features (the first
    spatial dimension's phase slowest, as the concatenation of slices would
    stack them) as one rearrangement of `rhs`, where the phases' taps
    interleave (`tap_split`): the taps split into (taps, phases), the
    phases moved before the output features and merged with them. One
    copy, where the concatenation of slices is one loop nest per phase.
    None where the taps do not interleave so."""
    rhs_shape = list(shape(rhs.type))
    taps = tap_split(plans, numbers, rhs_shape)
    if taps is None:
        return None
    value, parts = _split_taps(build, rhs, taps)
    k_sp = numbers.kernel_spatial_dimensions.data
    phases = [parts[d][1] for d in k_sp if d in taps.split]
    order: list[int] = []
    for d in range(len(rhs_shape)):
        if d == numbers.kernel_output_feature:
            order += phases
        order.append(parts[d][0])
    if order != sorted(order):
        value = build.add(TransposeOp(value, order))
    stacked = [
        taps.split[d][0]
        if d in taps.split
        else len(range(taps.start[d], taps.limit[d], taps.step[d]))
        for d in range(len(rhs_shape))
    ]
    stacked[numbers.kernel_output_feature] *= math.prod(
        count for _, count, _ in taps.split.values()
    )
    return build.reshape(value, stacked)


def _nan_marked_weights(
    build: _Builder,
    rhs: SSAValue,
    plans: list[DimensionPlan],
    numbers: ConvDimensionNumbersAttr,
) -> SSAValue | None:
    """The weights, each plus the sum from -0.0 of `-0.0 * |w|` over the
    taps that every other phase keeps at the same place of its kernel
    (same input and output feature, same index among its taps), where along
    each spatial dimension at most two phases keep every tap between them,
    interleaved (`tap_split`); None elsewhere.

    A phase then drops exactly the taps the other phases keep, and those
    sums (-0.0, or NaN where one of their weights is not finite) stand in
    for its correction (`_correction`): adding -0.0 leaves each weight's
    bits as they were, and a NaN weight makes every output of its output
    feature NaN (its product with any input, padding zeros too, is NaN),
    as the correction does. Where no weight is NaN, a correction of zeros
    changes no sum either: sums start from +0.0, so none is -0.0. The
    marks are elementwise ops on the weights, computed where the phases'
    kernels are (fused with their stacking), where the correction was a
    reduction of its own and an add in every output element.
    """
    rhs_shape = list(shape(rhs.type))
    taps = tap_split(plans, numbers, rhs_shape)
    counts = [len(plan.phases) for plan in plans]
    if taps is None or not taps.whole(rhs_shape) or max(counts) != 2:
        return None
    split_shape, parts = _split_shape(taps, rhs_shape)
    split = build.reshape(rhs, split_shape)
    lost = build.add(MultiplyOp(build.add(AbsOp(split)), build.splat(split.type, -0.0)))
    others: SSAValue | None = None
    two = [parts[d][1] for d in taps.split]
    for size in range(1, len(two) + 1):
        for flipped in itertools.combinations(two, size):
            other = build.add(ReverseOp(lost, sorted(flipped)))
            others = other if others is None else build.add(AddOp(others, other))
    assert others is not None
    return build.reshape(build.add(AddOp(split, others)), rhs_shape)


class _Builder:
    """Collects the ops replacing `op`, each with its location."""

    def __init__(self, op: Operation):
        self.op = op
        self.made: list[Operation] = []

    def add(self, new: Operation) -> SSAValue:
        new.location = self.op.location
        self.made.append(new)
        return new.results[0]

    def splat(self, type_: Attribute, value: float) -> SSAValue:
        assert isinstance(type_, TensorType)
        for new in splat_ops(type_, np.asarray(value)):
            self.add(new)
        return self.made[-1].results[0]

    def sum(self, value: SSAValue, dims: list[int]) -> SSAValue:
        """The sum from -0.0 of `value` over `dims`."""
        scalar = TensorType(element_type(value.type), [])
        body = Block(arg_types=[scalar, scalar])
        total = AddOp(body.args[0], body.args[1])
        body.add_ops([total, ReturnOp([total.result])])
        init = self.splat(scalar, -0.0)
        return self.add(ReduceOp([value], [init], dims, Region(body)))

    def reshape(self, value: SSAValue, to: list[int]) -> SSAValue:
        """`value` reshaped, from the input of a reshape made here."""
        made_here = value.owner
        if isinstance(made_here, ReshapeOp) and made_here in self.made:
            value = made_here.operand
        if shape(value.type) == tuple(to):
            return value
        return self.add(ReshapeOp(value, TensorType(element_type(value.type), to)))


def _ints(attr: DenseArrayBase | None, count: int) -> list[int]:
    """An optional window property (strides, dilations), 1 by default."""
    return [1] * count if attr is None else list(array_values(attr))


@dataclass(frozen=True)
class SubpixelConvPass(ModulePass):
    name = "subpixel-conv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            DecomposeDilatedConvolution(), apply_recursively=False
        ).rewrite_module(op)
