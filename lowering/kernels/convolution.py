"""`stablehlo.convolution` as one kernel: a `loop.parallel` over the output
around a `loop.for` nest over the kernel's input features and window taps,
carrying the accumulator.

Every dimension number is honoured: any layout of input, kernel and output;
padding, strides, lhs (base) dilation, rhs (window) dilation and window
reversal per spatial dimension; `feature_group_count` (output feature `f`
reads input features of group `f / (O / G)`) and `batch_group_count` (output
feature `f` reads the input batch of group `f / (O / BG)`). A tap that falls
in the padding or between dilated input elements reads zero: the load is
clamped in bounds and a select replaces it, and the test is left out where
the shapes prove every tap of a dimension lands on an input element.
Half-precision results accumulate in f32.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.attributes import ConvDimensionNumbersAttr
from xlir.dialects.stablehlo.contraction import ConvolutionOp
from xlir.dialects.syntax import array_values
from xlir.lowering.fusion_to_loop import accumulator_type
from xlir.lowering.index_maps import Indices, int_list, padding_pairs, shape, window_tap
from xlir.lowering.kernels.common import (
    KernelBuilder,
    cast,
    multiply_add,
)
from xlir.lowering.scalar import is_unsigned, scalar_type


def lower_convolution(op: ConvolutionOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    ix = kb.ix
    lhs, rhs = kb.inputs
    (out,) = kb.outputs
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
    taps = [rhs_shape[d] for d in kernel_spatial]
    result_type = scalar_type(op.result.type)
    acc_type = accumulator_type(result_type, scalar_type(op.lhs.type))
    zero = kb.const(0, acc_type)
    lhs_zero = kb.const(0, scalar_type(op.lhs.type))

    def element(idx: Indices) -> None:
        f = idx[numbers.output_feature]
        batch = idx[numbers.output_batch]
        if batch_groups > 1:
            batch_group = ix.div(f, features // batch_groups)
            batch = ix.add(ix.mul(batch_group, out_shape[numbers.output_batch]), batch)
        first_feature = ix.const(0)
        if feature_groups > 1:
            group = ix.div(f, features // feature_groups)
            first_feature = ix.mul(group, in_per_group)

        def body(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            k, window = ivs[0], ivs[1:]
            x_idx: Indices = [ix.const(0)] * len(lhs_shape)
            w_idx: Indices = [ix.const(0)] * len(rhs_shape)
            x_idx[numbers.input_batch] = batch
            x_idx[numbers.input_feature] = ix.add(first_feature, k)
            w_idx[numbers.kernel_input_feature] = k
            w_idx[numbers.kernel_output_feature] = f
            inside: SSAValue | None = None
            for d in range(spatial):
                tap = window[d]
                w_idx[kernel_spatial[d]] = (
                    ix.sub(ix.const(taps[d] - 1), tap) if reversal[d] else tap
                )
                position, inside = window_tap(
                    kb.ix,
                    idx[out_spatial[d]],
                    tap,
                    (taps[d], strides[d], rhs_dilation[d], padding[d][0]),
                    (lhs_shape[in_spatial[d]], lhs_dilation[d]),
                    out_shape[out_spatial[d]],
                    inside,
                )
                x_idx[in_spatial[d]] = position
            x = kb.load(lhs, x_idx)
            if inside is not None:
                x = kb.place(arith.SelectOp(inside, x, lhs_zero))
            return [multiply_add(kb, accs[0], x, kb.load(rhs, w_idx))]

        (acc,) = kb.nest.for_nest([in_per_group, *taps], [zero], body)
        kb.store(cast(kb, acc, result_type, is_unsigned(op.result.type)), out, idx)

    kb.parallel(out_shape, element)
    return kb.finish()


KERNELS = {"stablehlo.convolution": lower_convolution}
