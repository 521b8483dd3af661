"""f32 convolutions that call the prebuilt GEMM routine's convolution
entries (targets/cpu/conv_calls.py) give bit for bit the results of the
inline register-tiled kernel (`CompileOptions(library_calls=False)`), for
every shape class: NHWC/HWIO 2-D and 1-D, padding (read as zeros by the
entry: no padded copy), stride, rhs dilation, a 1x1 kernel, remainder rows
and columns, sums split into chunks by `block-sums` or not; threaded or
not; JIT and ahead of time (an object linked into a C program). Each case
also says whether the entry covers it, so a change of coverage shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import xlir
from tests.e2e import routine_checks as checks

ENTRY = re.compile(r"xlir\.gemm_f32_\d+x\d+\.conv\b")
PACK = re.compile(r"xlir\.gemm_f32_\d+x\d+\.conv_pack")
PAD = re.compile(r"xlir\.gemm_f32_\d+x\d+\.pad\b")


@dataclass(frozen=True)
class Conv:
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    out: tuple[int, ...]
    calls: bool
    """Whether the entry covers it."""
    stride: int = 1
    pad: tuple[int, int] = (0, 0)
    rhs_dilate: int = 1
    groups: int = 1
    epilogue: bool = False
    """A bias and a relu after the convolution."""
    layout: str = ""
    """`dim_numbers` (default: NHWC x HWIO -> NHWC, or NWC x WIO -> NWC)."""

    def program(self) -> str:
        t = checks.tensor
        spatial = len(self.lhs) - 2
        layout = self.layout or (
            "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
            if spatial == 2
            else "[b, 0, f]x[0, i, o]->[b, 0, f]"
        )

        def each(value: object) -> str:
            return ", ".join([str(value)] * spatial)

        pad = ", ".join([f"[{self.pad[0]}, {self.pad[1]}]"] * spatial)
        op = (
            f"stablehlo.convolution(%a, %b) dim_numbers = {layout}, "
            f"window = {{stride = [{each(self.stride)}], pad = [{pad}], "
            f"lhs_dilate = [{each(1)}], rhs_dilate = [{each(self.rhs_dilate)}]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {self.groups} : i64}}"
            f" : ({t(self.lhs)}, {t(self.rhs)}) -> {t(self.out)}"
        )
        return checks.program(op, self.lhs, self.rhs, self.out, self.epilogue)


CONVS = {
    "padded_3x3": Conv((2, 16, 16, 16), (3, 3, 16, 32), (2, 16, 16, 32), True, pad=(1, 1)),
    "three_channels": Conv((4, 18, 18, 3), (3, 3, 3, 32), (4, 16, 16, 32), True),
    "one_chunk": Conv((2, 10, 10, 32), (3, 3, 32, 64), (2, 8, 8, 64), True),
    "chunks": Conv((2, 10, 10, 64), (3, 3, 64, 32), (2, 8, 8, 32), True),
    "stride": Conv((2, 17, 17, 32), (3, 3, 32, 64), (2, 8, 8, 64), True, stride=2),
    "remainders": Conv((1, 9, 27, 8), (3, 3, 8, 120), (1, 7, 25, 120), True),
    "pointwise": Conv((2, 14, 14, 64), (1, 1, 64, 128), (2, 14, 14, 128), True),
    "causal_1d": Conv((4, 512, 64), (2, 64, 64), (4, 512, 64), True, pad=(1, 0)),
    "dilated_1d": Conv((4, 512, 64), (2, 64, 64), (4, 512, 64), True, pad=(4, 0), rhs_dilate=4),
    "chunks_1d": Conv((2, 130, 200), (2, 200, 32), (2, 129, 32), True),
    "long_kernel": Conv((1, 20, 20, 2), (12, 12, 2, 32), (1, 9, 9, 32), False),
    "depthwise": Conv((2, 10, 10, 32), (3, 3, 1, 32), (2, 8, 8, 32), False, groups=32),
    "epilogue": Conv((2, 10, 10, 16), (3, 3, 16, 32), (2, 8, 8, 32), False, epilogue=True),
    "nchw": Conv((2, 16, 10, 10), (32, 16, 3, 3), (2, 32, 8, 8), False, layout="[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"),
    "narrow": Conv((2, 10, 10, 16), (3, 3, 16, 5), (2, 8, 8, 5), False),
    "threaded": Conv((8, 34, 34, 32), (3, 3, 32, 64), (8, 32, 32, 64), True),
    "padded_stride": Conv((2, 16, 16, 32), (3, 3, 32, 64), (2, 8, 8, 64), True, stride=2, pad=(1, 1)),
    "padded_after": Conv((2, 12, 12, 16), (3, 3, 16, 32), (2, 12, 12, 32), True, pad=(0, 2)),
    "padded_remainders": Conv((1, 7, 25, 8), (3, 3, 8, 120), (1, 7, 25, 120), True, pad=(1, 1)),
    "padded_threaded": Conv((8, 32, 32, 32), (3, 3, 32, 64), (8, 32, 32, 64), True, pad=(1, 1)),
}  # fmt: skip

PADDED = [name for name, conv in CONVS.items() if conv.calls and conv.pad != (0, 0)]


def _arguments(conv: Conv) -> list[np.ndarray]:
    """Normal data, the first image zero: signed zeros (a sum of -0.0
    products is +0.0)."""
    rng = np.random.default_rng(36)
    a = rng.standard_normal(conv.lhs).astype(np.float32)
    b = rng.standard_normal(conv.rhs).astype(np.float32)
    a[0] = 0.0
    return [a, b]


@pytest.mark.parametrize("name", CONVS)
def test_entry_matches_inline_kernel(name: str) -> None:
    conv = CONVS[name]
    checks.matches_inline_kernel(conv.program(), _arguments(conv), ENTRY, conv.calls)


@pytest.mark.parametrize("name", ["threaded", "padded_threaded"])
def test_threads_do_not_change_the_bits(name: str) -> None:
    conv = CONVS[name]
    checks.threads_do_not_change_the_bits(conv.program(), _arguments(conv))


@pytest.mark.parametrize("name", PADDED)
def test_entry_reads_the_input_unpadded(name: str) -> None:
    """A convolution that calls the entry reads its padding as zeros there
    (`unpad-convs`): no padded copy of its input is written."""
    code = xlir.compile(CONVS[name].program(), target="cpu").llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    assert ENTRY.search(code)
    assert not PAD.search(code)


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(
        CONVS["padded_3x3"].program(), ENTRY
    )


@pytest.mark.parametrize("name", ["padded_3x3", "remainders", "dilated_1d"])
def test_ahead_of_time_object_defines_the_entries(name: str, tmp_path: Path) -> None:
    conv = CONVS[name]
    checks.ahead_of_time_object(
        conv.program(), _arguments(conv), "model_conv", tmp_path, [ENTRY, PACK]
    )
