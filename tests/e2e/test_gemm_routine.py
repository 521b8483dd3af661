"""f32 dots that call the prebuilt GEMM routine (targets/cpu/gemm_calls.py)
give bit for bit the results of the inline register-tiled kernel
(`CompileOptions(library_calls=False)`), for every shape class of dot:
transposed operands, remainder rows and columns, sums split into chunks
by `block-sums` or not, M, N or K of 1, empty operands, batch dimensions,
several contracting dimensions (merged by `dot-layout` where they lie
together), several row dimensions, fused epilogues and residuals, a few
columns; threaded
or not; JIT and
ahead of time (an object linked into a C program). Each case also says
whether the routine covers it, so a change of coverage shows."""

from __future__ import annotations

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

ROUTINE = "xlir.gemm_f32_"


@dataclass(frozen=True)
class Dot:
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    dims: str
    """`dot_general`'s attributes."""
    out: tuple[int, ...]
    calls: bool
    """Whether the routine covers it."""
    epilogue: bool = False
    """A bias and a relu after the dot."""

    def program(self) -> str:
        def t(shape: tuple[int, ...]) -> str:
            return f"tensor<{'x'.join(map(str, (*shape, 'f32')))}>"

        body = (
            f"%d = stablehlo.dot_general %a, %b, {self.dims} "
            f": ({t(self.lhs)}, {t(self.rhs)}) -> {t(self.out)}\n"
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


PLAIN = "contracting_dims = [1] x [0]"
DOTS = {
    "plain": Dot((96, 256), (256, 128), PLAIN, (96, 128), True),
    "remainders": Dot((13, 300), (300, 120), PLAIN, (13, 120), True),
    "k_one_chunk": Dot((24, 256), (256, 64), PLAIN, (24, 64), True),
    "k_chunks": Dot((24, 1000), (1000, 64), PLAIN, (24, 64), True),
    "k_longest": Dot((2, 65536), (65536, 64), PLAIN, (2, 64), True),
    "k_too_long": Dot((2, 65800), (65800, 64), PLAIN, (2, 64), False),
    "lhs_transposed": Dot((300, 20), (300, 50), "contracting_dims = [0] x [0]", (20, 50), True),
    "rhs_transposed": Dot((20, 300), (50, 300), "contracting_dims = [1] x [1]", (20, 50), True),
    "both_transposed": Dot((300, 20), (50, 300), "contracting_dims = [0] x [1]", (20, 50), True),
    "narrow": Dot((64, 300), (300, 5), PLAIN, (64, 5), False),
    "m_one": Dot((1, 64), (64, 48), PLAIN, (1, 48), False),
    "n_one": Dot((48, 64), (64, 1), PLAIN, (48, 1), False),
    "k_one": Dot((48, 1), (1, 64), PLAIN, (48, 64), True),
    "empty_k": Dot((8, 0), (0, 16), PLAIN, (8, 16), False),
    "empty_m": Dot((0, 8), (8, 16), PLAIN, (0, 16), False),
    "batch": Dot((3, 20, 300), (3, 300, 64), "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (3, 20, 64), True),
    "batch_short": Dot((3, 20, 64), (3, 64, 40), "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (3, 20, 40), False),
    "two_contracting": Dot((20, 8, 16), (8, 16, 64), "contracting_dims = [1, 2] x [0, 1]", (20, 64), True),
    "contracting_apart": Dot((8, 20, 16), (8, 16, 64), "contracting_dims = [0, 2] x [0, 1]", (20, 64), False),
    "rows": Dot((4, 24, 300), (300, 64), "contracting_dims = [2] x [0]", (4, 24, 64), True),
    "rows_after_k": Dot((300, 4, 24), (300, 64), "contracting_dims = [0] x [0]", (4, 24, 64), True),
    "rows_epilogue": Dot((3, 10, 64), (64, 48), "contracting_dims = [2] x [0]", (3, 10, 48), True, epilogue=True),
    "epilogue": Dot((32, 64), (64, 48), PLAIN, (32, 48), True, epilogue=True),
    "threaded": Dot((512, 512), (512, 512), PLAIN, (512, 512), True),
}  # fmt: skip


def _arguments(dot: Dot) -> list[np.ndarray]:
    """Normal data, the first row of the lhs zero and the first column of
    the rhs negative: signed zeros (a sum of -0.0 products is +0.0)."""
    rng = np.random.default_rng(36)
    a = rng.standard_normal(dot.lhs).astype(np.float32)
    b = rng.standard_normal(dot.rhs).astype(np.float32)
    if a.size and b.size:
        a.reshape(-1, a.shape[-1])[0] = 0.0
        b.reshape(-1, b.shape[-1])[:, 0] = -np.abs(b.reshape(-1, b.shape[-1])[:, 0])
    return [a, b]


def _bits(array: object) -> np.ndarray:
    return np.asarray(array, np.float32).view(np.uint32)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("name", DOTS)
def test_routine_matches_inline_kernel(name: str) -> None:
    dot = DOTS[name]
    arguments = _arguments(dot)
    called = xlir.compile(dot.program(), target="cpu")
    inline = xlir.compile(
        dot.program(), target="cpu", options=CompileOptions(library_calls=False)
    )
    assert (ROUTINE in called.llvm_ir) == dot.calls  # pyright: ignore[reportAttributeAccessIssue]
    assert ROUTINE not in inline.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(_bits(called(*arguments)), _bits(inline(*arguments)))


def test_residual_added_to_the_dot() -> None:
    """A residual fused into the dot's kernel (`(r + s) + a @ b`, computed
    before the sum in the nest) runs after the call, with the same bits."""
    t = "tensor<4x24x256xf32>"
    program = (
        f"func.func @main(%a: {t}, %b: tensor<256x256xf32>, %r: {t}, %s: {t}) -> {t} {{\n"
        f"  %x = stablehlo.add %r, %s : {t}\n"
        "  %d = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] "
        f": ({t}, tensor<256x256xf32>) -> {t}\n"
        f"  %y = stablehlo.add %x, %d : {t}\n"
        f"  return %y : {t}\n}}\n"
    )
    rng = np.random.default_rng(36)
    arguments = [
        rng.standard_normal(shape).astype(np.float32)
        for shape in [(4, 24, 256), (256, 256), (4, 24, 256), (4, 24, 256)]
    ]
    called = xlir.compile(program, target="cpu")
    inline = xlir.compile(
        program, target="cpu", options=CompileOptions(library_calls=False)
    )
    assert ROUTINE in called.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(_bits(called(*arguments)), _bits(inline(*arguments)))


def test_threads_do_not_change_the_bits() -> None:
    dot = DOTS["threaded"]
    arguments = _arguments(dot)
    threaded = xlir.compile(
        dot.program(), target="cpu", options=CompileOptions(threads=2)
    )
    single = xlir.compile(
        dot.program(), target="cpu", options=CompileOptions(threads=1)
    )
    assert "xlir.parallel_for" in threaded.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    assert "xlir.parallel_for" not in single.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(
        _bits(threaded(*arguments)), _bits(single(*arguments))
    )


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    """Every access of a bounds-checked program is checked: none is left to
    the routine."""
    dot = DOTS["plain"]
    checked = xlir.compile(dot.program(), target="cpu", bounds_check=True)
    assert ROUTINE not in checked.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]


@pytest.mark.parametrize("name", ["remainders", "k_chunks", "both_transposed"])
def test_ahead_of_time_object_defines_the_routine(name: str, tmp_path: Path) -> None:
    """An object compiled ahead of time defines the routine it calls (it
    links with the C library alone) and computes the JIT's bits."""
    dot = DOTS[name]
    module, sources = load_module(dot.program())
    result = (
        get_platform("cpu")
        .compiler()
        .compile_ahead_of_time(module, AotOptions(entry="model_dot"), "main", sources)
    )
    (tmp_path / "model.o").write_bytes(result.object_code)
    symbols = subprocess.run(
        ["nm", str(tmp_path / "model.o")], check=True, capture_output=True, text=True
    ).stdout
    assert any(
        line.split()[-2:][0] == "t" and line.split()[-1].startswith(ROUTINE)
        for line in symbols.splitlines()
    ), symbols
    arguments = _arguments(dot)
    jit = np.asarray(xlir.compile(dot.program(), target="cpu")(*arguments))
    (got,) = link_and_run(result, None, tmp_path, arguments, (jit,))
    np.testing.assert_array_equal(_bits(got), _bits(jit))
