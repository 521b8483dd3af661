"""Convolutions rooting output fusions (a CNN's backward pass: lhs dilation,
window reversal, feature and batch groups, each followed by an elementwise
epilogue that `fuse` puts in the convolution's fusion), run on every target
against the evaluator. Compiled without `subpixel-conv`, which would leave
the kernels no lhs dilation to handle (pipelines without it, and complex
convolutions, still reach that), and with each target's own pipeline."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.passes.hlo.pipeline import HLO_OPT

import xlir
from tests.conftest import runnable_targets
from tests.e2e.test_reduce_window_fusion import arrays_for

NHWC = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
KEEP_DILATION = ",".join(name for name in HLO_OPT if name != "subpixel-conv")


def conv_then_tanh(
    lhs: str, rhs: str, out: str, window: str, groups: tuple[int, int] = (1, 1)
) -> str:
    feature, batch = groups
    return f"""
func.func @main(%x: tensor<{lhs}xf32>, %w: tensor<{rhs}xf32>) -> tensor<{out}xf32> {{
  %c = stablehlo.convolution(%x, %w) dim_numbers = {NHWC}, window = {{{window}}} {{batch_group_count = {batch} : i64, feature_group_count = {feature} : i64}} : (tensor<{lhs}xf32>, tensor<{rhs}xf32>) -> tensor<{out}xf32>
  %r = stablehlo.tanh %c : tensor<{out}xf32>
  return %r : tensor<{out}xf32>
}}"""


PROGRAMS = {
    "lhs_dilation_reversed": conv_then_tanh(
        "2x3x3x2",
        "3x3x2x4",
        "2x5x5x4",
        "pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], reverse = [true, false]",
    ),
    "strided_rhs_dilated": conv_then_tanh(
        "1x9x9x2", "2x2x2x3", "1x4x4x3", "stride = [2, 2], rhs_dilate = [2, 2]"
    ),
    "feature_groups": conv_then_tanh(
        "2x4x4x4", "3x3x2x6", "2x4x4x6", "pad = [[1, 1], [1, 1]]", groups=(2, 1)
    ),
    "batch_groups": conv_then_tanh(
        "4x4x4x2", "3x3x2x4", "2x2x2x4", "pad = [[0, 0], [0, 0]]", groups=(1, 2)
    ),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_convolution_in_output_fusion(name: str):
    text = PROGRAMS[name]
    arrays = arrays_for(text)
    want = xlir.compile(text, pipeline="")(*arrays)
    fused = xlir.compile(text, pipeline=KEEP_DILATION).as_text()
    assert "kind = output" in fused
    for target in runnable_targets():
        for pipeline in (KEEP_DILATION, None):
            got = xlir.compile(text, target=target, pipeline=pipeline)(*arrays)
            np.testing.assert_allclose(
                got, want, rtol=1e-5, atol=1e-6, err_msg=f"{target} {pipeline}"
            )
