"""f32 convolutions that call the prebuilt GEMM routine's convolution
entries (targets/cpu/conv_calls.py) give bit for bit the results of the
inline register-tiled kernel (`CompileOptions(library_calls=False)`), for
every shape class: NHWC/HWIO 2-D and 1-D, padding (made an input of its
own by `conv-padding`), stride, rhs dilation, a 1x1 kernel, remainder rows
and columns, sums split into chunks by `block-sums` or not; threaded or
not; JIT and ahead of time (an object linked into a C program). Each case
also says whether the entry covers it, so a change of coverage shows."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.aot import AotOptions
from xlir.targets.registry import get_platform
from xlir.targets.target import CompileOptions

import xlir
from tests.e2e.test_aot import link_and_run
from xlir.api import load_module

ENTRY = re.compile(r"xlir\.gemm_f32_\d+x\d+\.conv\b")


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
        def t(shape: tuple[int, ...]) -> str:
            return f"tensor<{'x'.join(map(str, (*shape, 'f32')))}>"

        spatial = len(self.lhs) - 2
        layout = self.layout or (
            "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
            if spatial == 2
            else "[b, 0, f]x[0, i, o]->[b, 0, f]"
        )

        def each(value: object) -> str:
            return ", ".join([str(value)] * spatial)

        pad = ", ".join([f"[{self.pad[0]}, {self.pad[1]}]"] * spatial)
        body = (
            f"%d = stablehlo.convolution(%a, %b) dim_numbers = {layout}, "
            f"window = {{stride = [{each(self.stride)}], pad = [{pad}], "
            f"lhs_dilate = [{each(1)}], rhs_dilate = [{each(self.rhs_dilate)}]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {self.groups} : i64}}"
            f" : ({t(self.lhs)}, {t(self.rhs)}) -> {t(self.out)}\n"
        )
        result = "%d"
        if self.epilogue:
            body += (
                f"  %z = stablehlo.constant dense<0.0> : {t(self.out)}\n"
                f"  %s = stablehlo.add %d, %d : {t(self.out)}\n"
                f"  %r = stablehlo.maximum %s, %z : {t(self.out)}\n"
            )
            result = "%r"
        return (
            f"func.func @main(%a: {t(self.lhs)}, %b: {t(self.rhs)}) -> {t(self.out)} {{\n"
            f"  {body}  return {result} : {t(self.out)}\n}}\n"
        )


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
}  # fmt: skip


def _arguments(conv: Conv) -> list[np.ndarray]:
    """Normal data, the first image zero: signed zeros (a sum of -0.0
    products is +0.0)."""
    rng = np.random.default_rng(36)
    a = rng.standard_normal(conv.lhs).astype(np.float32)
    b = rng.standard_normal(conv.rhs).astype(np.float32)
    a[0] = 0.0
    return [a, b]


def _bits(array: object) -> np.ndarray:
    return np.asarray(array, np.float32).view(np.uint32)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("name", CONVS)
def test_entry_matches_inline_kernel(name: str) -> None:
    conv = CONVS[name]
    arguments = _arguments(conv)
    called = xlir.compile(conv.program(), target="cpu")
    inline = xlir.compile(
        conv.program(), target="cpu", options=CompileOptions(library_calls=False)
    )
    assert bool(ENTRY.search(called.llvm_ir)) == conv.calls  # pyright: ignore[reportAttributeAccessIssue]
    assert not ENTRY.search(inline.llvm_ir)  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(_bits(called(*arguments)), _bits(inline(*arguments)))


def test_threads_do_not_change_the_bits() -> None:
    conv = CONVS["threaded"]
    arguments = _arguments(conv)
    threaded = xlir.compile(
        conv.program(), target="cpu", options=CompileOptions(threads=2)
    )
    single = xlir.compile(
        conv.program(), target="cpu", options=CompileOptions(threads=1)
    )
    assert "xlir.parallel_for" in threaded.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    assert "xlir.parallel_for" not in single.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(
        _bits(threaded(*arguments)), _bits(single(*arguments))
    )


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    """Every access of a bounds-checked program is checked: none is left to
    the routine."""
    conv = CONVS["padded_3x3"]
    checked = xlir.compile(conv.program(), target="cpu", bounds_check=True)
    assert not ENTRY.search(checked.llvm_ir)  # pyright: ignore[reportAttributeAccessIssue]


@pytest.mark.parametrize("name", ["padded_3x3", "remainders", "dilated_1d"])
def test_ahead_of_time_object_defines_the_entries(name: str, tmp_path: Path) -> None:
    """An object compiled ahead of time defines the entries it calls (it
    links with the C library alone) and computes the JIT's bits."""
    conv = CONVS[name]
    module, sources = load_module(conv.program())
    result = (
        get_platform("cpu")
        .compiler()
        .compile_ahead_of_time(module, AotOptions(entry="model_conv"), "main", sources)
    )
    (tmp_path / "model.o").write_bytes(result.object_code)
    symbols = subprocess.run(
        ["nm", str(tmp_path / "model.o")], check=True, capture_output=True, text=True
    ).stdout
    defined = {
        line.split()[-1] for line in symbols.splitlines() if line.split()[-2:][0] == "t"
    }
    assert any(ENTRY.fullmatch(name) for name in defined), symbols
    assert any(name.endswith(".conv_pack") for name in defined), symbols
    arguments = _arguments(conv)
    jit = np.asarray(xlir.compile(conv.program(), target="cpu")(*arguments))
    (got,) = link_and_run(result, None, tmp_path, arguments, (jit,))
    np.testing.assert_array_equal(_bits(got), _bits(jit))
