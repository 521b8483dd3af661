"""Transposes that call the prebuilt transpose entry
(targets/cpu/transpose_calls.py, transpose_routine.py) give bit for bit the
results of the compiled loops (`CompileOptions(library_calls=False)`), on
inputs with NaNs of several payloads, infinities and -0.0: whole blocks
moved as vectors, ragged edges element by element, blocks whose rows wrap
around a dimension of the output, dimensions merged, ranks 2 to 5;
threaded or not; JIT and ahead of time. Each case also says whether the
entry covers it (other element types, fused transposes, a transpose that
keeps the last dimension, five dimensions left after the merge stay
loops), so a change of coverage shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.e2e import routine_checks as checks

ENTRY = re.compile(r"xlir\.gemm_f32_\d+x\d+\.transpose\b")


@dataclass(frozen=True)
class Transpose:
    shape: tuple[int, ...]
    permutation: tuple[int, ...]
    calls: bool
    """Whether the entry covers it."""
    element: str = "f32"
    fused: bool = False
    """An add after the transpose, in its kernel."""

    def program(self) -> str:
        out = tuple(self.shape[k] for k in self.permutation)

        def t(shape: tuple[int, ...]) -> str:
            return f"tensor<{'x'.join(map(str, (*shape, self.element)))}>"

        add = f"  %t = stablehlo.add %p, %p : {t(out)}\n" if self.fused else ""
        return (
            f"func.func @main(%a: {t(self.shape)}) -> {t(out)} {{\n"
            f"  %p = stablehlo.transpose %a, dims = {list(self.permutation)} "
            f": ({t(self.shape)}) -> {t(out)}\n{add}"
            f"  return {'%t' if self.fused else '%p'} : {t(out)}\n}}\n"
        )

    def argument(self) -> np.ndarray:
        """Normal data with a NaN of each sign and two payloads, both
        infinities and -0.0 among it."""
        dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32}[self.element]
        x = np.random.default_rng(37).standard_normal(self.shape) * 100
        x = x.astype(dtype)
        if self.element != "i32":
            flat = x.reshape(-1)
            special = [np.nan, -np.nan, np.inf, -np.inf, -0.0]
            flat[: len(special)] = special
            if self.element == "f32":
                flat.view(np.uint32)[len(special)] = 0x7FC12345
        return x


TRANSPOSES = {
    "heads": Transpose((2, 4, 64, 48), (0, 1, 3, 2), True),
    "matrix": Transpose((64, 48), (1, 0), True),
    "ragged": Transpose((37, 53), (1, 0), True),
    "wrapping_rows": Transpose((10, 20, 24), (0, 2, 1), True),
    "rotation": Transpose((16, 24, 32), (2, 0, 1), True),
    "merged_rank_5": Transpose((2, 3, 4, 5, 6), (0, 1, 4, 2, 3), True),
    "small": Transpose((3, 5), (1, 0), True),
    "unit_dims": Transpose((1, 2100, 1, 131), (2, 3, 0, 1), True),
    "short_rows": Transpose((2, 260, 3, 129), (0, 3, 1, 2), True),
    "rank_5": Transpose((2, 3, 4, 5, 6), (4, 3, 2, 1, 0), False),
    "keeps_last": Transpose((4, 8, 16), (1, 0, 2), False),
    "fused": Transpose((32, 48), (1, 0), False, fused=True),
    "f64": Transpose((32, 48), (1, 0), False, element="f64"),
    "i32": Transpose((32, 48), (1, 0), False, element="i32"),
    "threaded": Transpose((8, 256, 384), (0, 2, 1), True),
}


@pytest.mark.parametrize("name", TRANSPOSES)
def test_entry_matches_the_loops(name: str) -> None:
    transpose = TRANSPOSES[name]
    checks.matches_inline_kernel(
        transpose.program(), [transpose.argument()], ENTRY, transpose.calls
    )


def test_threads_do_not_change_the_bits() -> None:
    transpose = TRANSPOSES["threaded"]
    checks.threads_do_not_change_the_bits(transpose.program(), [transpose.argument()])


def test_bounds_checked_code_keeps_the_loops() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(
        TRANSPOSES["heads"].program(), ENTRY
    )


def test_ahead_of_time_object_defines_the_entry(tmp_path: Path) -> None:
    transpose = TRANSPOSES["ragged"]
    checks.ahead_of_time_object(
        transpose.program(),
        [transpose.argument()],
        "model_transpose",
        tmp_path,
        [ENTRY],
    )
