"""f32 dots that call the prebuilt GEMM routine (targets/cpu/gemm_calls.py)
give bit for bit the results of the inline register-tiled kernel
(`CompileOptions(library_calls=False)`), for every shape class of dot:
transposed operands, remainder rows and columns, B read in place (few
rows and terms: "plain", "remainders_in_place") or packed ("rows_packed",
"k_chunks", a partial last panel, a transposed B, which `dot-layout` leaves
untransposed for the routine: "rhs_transposed", "rhs_in_place_chunks",
"rhs_free_dims_in_place", and copied column by column where its columns
lie 4 KiB apart: "rhs_in_place_by_column"), sums split into chunks
by `block-sums` or not, M, N or K of 1, empty operands, batch dimensions,
several contracting dimensions (merged by `dot-layout` where they lie
together), several row dimensions, fused epilogues and residuals, a few
columns; threaded
or not; JIT and
ahead of time (an object linked into a C program). Each case also says
whether the routine covers it, so a change of coverage shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.e2e import routine_checks as checks

ROUTINE = re.compile(r"xlir\.gemm_f32_")
DEFINED = re.compile(r"xlir\.gemm_f32_.*")


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
        t = checks.tensor
        op = (
            f"stablehlo.dot_general %a, %b, {self.dims} "
            f": ({t(self.lhs)}, {t(self.rhs)}) -> {t(self.out)}"
        )
        return checks.program(op, self.lhs, self.rhs, self.out, self.epilogue)


PLAIN = "contracting_dims = [1] x [0]"
DOTS = {
    "plain": Dot((96, 256), (256, 128), PLAIN, (96, 128), True),
    "remainders": Dot((13, 300), (300, 120), PLAIN, (13, 120), True),
    "remainders_in_place": Dot((13, 200), (200, 120), PLAIN, (13, 120), True),
    "rows_packed": Dot((97, 200), (200, 64), PLAIN, (97, 64), True),
    "k_one_chunk": Dot((24, 256), (256, 64), PLAIN, (24, 64), True),
    "k_chunks": Dot((24, 1000), (1000, 64), PLAIN, (24, 64), True),
    "k_longest": Dot((2, 65536), (65536, 64), PLAIN, (2, 64), True),
    "k_too_long": Dot((2, 65800), (65800, 64), PLAIN, (2, 64), False),
    "lhs_transposed": Dot((300, 20), (300, 50), "contracting_dims = [0] x [0]", (20, 50), True),
    "rhs_transposed": Dot((20, 300), (50, 300), "contracting_dims = [1] x [1]", (20, 50), True),
    "both_transposed": Dot((300, 20), (50, 300), "contracting_dims = [0] x [1]", (20, 50), True),
    "rhs_in_place_chunks": Dot((24, 600), (64, 600), "contracting_dims = [1] x [1]", (24, 64), True),
    "rhs_in_place_by_column": Dot((8, 1024), (48, 1024), "contracting_dims = [1] x [1]", (8, 48), True),
    "rhs_free_dims_in_place": Dot((256, 24), (4, 16, 256), "contracting_dims = [0] x [2]", (24, 4, 16), True),
    "narrow": Dot((64, 300), (300, 5), PLAIN, (64, 5), False),
    "m_one": Dot((1, 64), (64, 48), PLAIN, (1, 48), False),
    "n_one": Dot((48, 64), (64, 1), PLAIN, (48, 1), False),
    "k_one": Dot((48, 1), (1, 64), PLAIN, (48, 64), True),
    "empty_k": Dot((8, 0), (0, 16), PLAIN, (8, 16), False),
    "empty_m": Dot((0, 8), (8, 16), PLAIN, (0, 16), False),
    "batch": Dot((3, 20, 300), (3, 300, 64), "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (3, 20, 64), True),
    "batch_short": Dot((3, 20, 64), (3, 64, 40), "batching_dims = [0] x [0], contracting_dims = [2] x [1]", (3, 20, 40), False),
    "two_contracting": Dot((20, 8, 16), (8, 16, 64), "contracting_dims = [1, 2] x [0, 1]", (20, 64), True),
    "contracting_apart": Dot((8, 20, 16), (8, 16, 64), "contracting_dims = [0, 2] x [0, 1]", (20, 64), True),
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


@pytest.mark.parametrize("name", DOTS)
def test_routine_matches_inline_kernel(name: str) -> None:
    dot = DOTS[name]
    checks.matches_inline_kernel(dot.program(), _arguments(dot), ROUTINE, dot.calls)


WHOLE = re.compile(r"xlir\.gemm_f32_\w+\.batched")
BATCHED = "batching_dims = [0] x [0], contracting_dims = [2] x [1]"
TRANSPOSED = "batching_dims = [0] x [0], contracting_dims = [2] x [2]"
WHOLE_MATRICES = {
    "whole": Dot((2, 512, 64), (2, 64, 512), BATCHED, (2, 512, 512), True),
    "whole_remainders": Dot((3, 515, 100), (3, 100, 520), BATCHED, (3, 515, 520), True),
    "whole_transposed": Dot((2, 512, 64), (2, 512, 64), TRANSPOSED, (2, 512, 512), True),
    "whole_transposed_least": Dot((2, 256, 64), (2, 256, 64), TRANSPOSED, (2, 256, 256), True),
    "whole_transposed_partial_panel": Dot((2, 256, 64), (2, 270, 64), TRANSPOSED, (2, 256, 270), True),
    "whole_transposed_remainders": Dot((3, 259, 36), (3, 270, 36), TRANSPOSED, (3, 259, 270), True),
    "whole_both_transposed": Dot((2, 64, 256), (2, 256, 64), "batching_dims = [0] x [0], contracting_dims = [1] x [2]", (2, 256, 256), True),
    "whole_heads": Dot((2, 3, 256, 64), (2, 3, 256, 64), "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]", (2, 3, 256, 256), True),
    "whole_epilogue": Dot((2, 512, 64), (2, 64, 512), BATCHED, (2, 512, 512), False, epilogue=True),
    "whole_least": Dot((2, 256, 64), (2, 64, 256), BATCHED, (2, 256, 256), True),
    "whole_too_small": Dot((2, 255, 64), (2, 64, 256), BATCHED, (2, 255, 256), False),
    "whole_least_sum_too_long": Dot((2, 256, 65), (2, 65, 256), BATCHED, (2, 256, 256), False),
    "whole_long_sum": Dot((2, 512, 256), (2, 256, 512), BATCHED, (2, 512, 512), False),
}  # fmt: skip
"""Batched dots of short sums and the batched entry (batched_routine.py):
whether each calls it. A transposed B (`A·Bᵀ`), which `dot-layout` leaves
in place for the entry, is copied into panels by blocks transposed in
registers where the panel is whole and K a multiple of the vector's lanes
("whole_transposed_least", "whole_heads"), else as `pack_panel` copies it
(its last panel: "whole_transposed_partial_panel"; K of 36:
"whole_transposed_remainders")."""


@pytest.mark.parametrize("name", WHOLE_MATRICES)
def test_batched_entry_matches_inline_kernel(name: str) -> None:
    dot = WHOLE_MATRICES[name]
    checks.matches_inline_kernel(dot.program(), _arguments(dot), WHOLE, dot.calls)


def test_batched_entry_threads_do_not_change_the_bits() -> None:
    """Threaded, the matrices are cut into groups, each a call with a
    scratch slice of its own; unthreaded, one call takes them all."""
    dot = WHOLE_MATRICES["whole_remainders"]
    checks.threads_do_not_change_the_bits(dot.program(), _arguments(dot))


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
    checks.matches_inline_kernel(program, arguments, ROUTINE, calls=True)


def test_threads_do_not_change_the_bits() -> None:
    dot = DOTS["threaded"]
    checks.threads_do_not_change_the_bits(dot.program(), _arguments(dot))


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(DOTS["plain"].program(), ROUTINE)


@pytest.mark.parametrize("name", ["remainders", "k_chunks", "both_transposed"])
def test_ahead_of_time_object_defines_the_routine(name: str, tmp_path: Path) -> None:
    dot = DOTS[name]
    checks.ahead_of_time_object(
        dot.program(), _arguments(dot), "model_dot", tmp_path, [DEFINED]
    )


def test_ahead_of_time_object_defines_the_batched_entry(tmp_path: Path) -> None:
    dot = WHOLE_MATRICES["whole_remainders"]
    checks.ahead_of_time_object(
        dot.program(), _arguments(dot), "model_dot", tmp_path, [WHOLE]
    )
