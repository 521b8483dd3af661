"""`interleave`: the count fits the trip (a trip of c vectors fits and leaves
no more over than one vector does, and no larger power of two would), and a
CPU program whose loop LLVM interleaves computes every output bit as the
one it does not, whether or not the trip count fills whole trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xlir.passes.loop.interleave import InterleavePass, fitting_count
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.target import CompileOptions

import xlir

POWERS = st.sampled_from([1, 2, 4, 8, 16])


def _fits(trip: int, width: int, count: int) -> bool:
    return trip >= count * width and trip % (count * width) == trip % width


@given(st.integers(0, 5000), st.integers(1, 64), POWERS)
def test_fitting_count_is_the_largest_that_fits(
    trip: int, width: int, most: int
) -> None:
    count = fitting_count(trip, width, most)
    assert count in (1, 2, 4, 8, 16) and count <= most
    assert count == 1 or _fits(trip, width, count)
    assert all(
        not _fits(trip, width, larger)
        for larger in (2 * count, 4 * count)
        if larger <= most
    )


# tanh then exp: a chain of about 40 ops after expand-math, marked by 4 at
# the host's width for the sizes that allow it.
CHAIN = """
func.func @main(%x: tensor<Nxf32>) -> tensor<Nxf32> {
  %t = stablehlo.tanh %x : tensor<Nxf32>
  %e = stablehlo.exponential %t : tensor<Nxf32>
  return %e : tensor<Nxf32>
}
"""


@pytest.mark.parametrize("size", [4096, 4096 + 37, 200, 13])
def test_interleaved_loop_computes_the_same_bits(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")  # the patched pipeline below is no key
    text = CHAIN.replace("N", str(size))
    x = np.random.default_rng(size).standard_normal(size, dtype=np.float32) * 4
    interleaved = xlir.compile(text, target="cpu")
    if size >= 4096:
        assert "llvm.loop.interleave.count" in interleaved.as_text()
    loop_pipeline = CpuTarget.loop_pipeline

    def without_interleave(target: CpuTarget, options: CompileOptions) -> list:
        passes = loop_pipeline(target, options)
        return [p for p in passes if not isinstance(p, InterleavePass)]

    monkeypatch.setattr(CpuTarget, "loop_pipeline", without_interleave)
    plain = xlir.compile(text, target="cpu")
    assert "llvm.loop.interleave.count" not in plain.as_text()
    np.testing.assert_array_equal(interleaved(x), plain(x))
