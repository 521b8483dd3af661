"""XLA's launch dimensions for its loop emitter (CalculateLaunchDimensions),
reproduced by passes/loop/launch_dimensions.py, and the block-per-row
shape of row reductions; and `map-to-gpu` recording them on kernels."""

from __future__ import annotations

import pytest
from xlir.passes.loop.launch_dimensions import (
    LaunchDimensions,
    elementwise_launch,
    row_reduction_launch,
)
from xlir.passes.loop.map_to_gpu import launch_of

from xlir.api import load_module
from xlir.context import make_context
from xlir.pass_manager import run_pipeline


@pytest.mark.parametrize(
    ("elements", "expected"),
    [
        # 2^20 f32 elementwise: 4 per thread, 1024 / 4 = 256 threads, 1024 blocks.
        (1 << 20, LaunchDimensions(blocks=1024, threads=256, unroll=4)),
        # 1000 = 4 x 250: one block of the 250 threads needed.
        (1000, LaunchDimensions(blocks=1, threads=250, unroll=4)),
        # 63: neither 4 nor 2 divides it; 63 threads.
        (63, LaunchDimensions(blocks=1, threads=63, unroll=1)),
        # 2^20 + 2 = 2 x 524289: 512 threads of 2, 1025 blocks cover them.
        ((1 << 20) + 2, LaunchDimensions(blocks=1025, threads=512, unroll=2)),
        # 3 x 1025: 1024 threads, 4 blocks.
        (3 * 1025, LaunchDimensions(blocks=4, threads=1024, unroll=1)),
        (1, LaunchDimensions(blocks=1, threads=1, unroll=1)),
        (0, LaunchDimensions(blocks=1, threads=1, unroll=1)),
    ],
)
def test_elementwise_follows_xla(elements: int, expected: LaunchDimensions) -> None:
    assert elementwise_launch(elements, warp_size=32, max_threads=1024) == expected


def test_unroll_is_capped() -> None:
    got = elementwise_launch(1 << 20, warp_size=32, max_threads=1024, max_unroll=1)
    assert got == LaunchDimensions(blocks=1024, threads=1024, unroll=1)


@pytest.mark.parametrize(
    ("rows", "length", "expected"),
    [
        (64, 128, LaunchDimensions(blocks=64, threads=128)),
        (1024, 512, LaunchDimensions(blocks=1024, threads=256)),
        (512, 10, LaunchDimensions(blocks=512, threads=32)),
    ],
)
def test_row_reduction_is_a_block_per_row(
    rows: int, length: int, expected: LaunchDimensions
) -> None:
    got = row_reduction_launch(rows, length, warp_size=32, max_threads=1024)
    assert got == expected


ELEMENTWISE = """func.func @main(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %y = stablehlo.negate %x : tensor<1048576xf32>
  return %y : tensor<1048576xf32>
}
"""

ROWS = """func.func @main(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [(ELEMENTWISE, (1024, 256, 0)), (ROWS, (64, 128, 4 * 4))],
    ids=["elementwise_2^20", "row_reduction_64x128"],
)
def test_map_to_gpu_records_the_launch(
    source: str, expected: tuple[int, int, int]
) -> None:
    module, sources = load_module(source)
    run_pipeline(make_context(), module, "hlo-opt,hlo-to-loop,map-to-gpu", sources)
    kernels = [op for op in module.ops if op.name == "loop.kernel"]
    assert [launch_of(k) for k in kernels] == [expected]  # pyright: ignore[reportArgumentType]
