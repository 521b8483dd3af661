"""f32 row dots that call the prebuilt row-dot entry
(targets/cpu/row_dot_calls.py, row_dot_routine.py) give bit for bit the
results of the inline `row_lanes` kernel (`CompileOptions(library_calls=
False)`): sums of one chunk or several (`block-sums`), with columns left
over past the last whole vector, rows left over past the last group of
lanes, operands as they come or swapped by `dot-layout`; threaded or not;
JIT and ahead of time. Each case also says whether the entry covers it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.e2e import routine_checks as checks

ROW_DOT = re.compile(r"xlir\.gemm_f32_\w+\.row_dot")

ROWS = "batching_dims = [0] x [0], contracting_dims = [1] x [1]"


@dataclass(frozen=True)
class RowDot:
    rows: int
    k: int
    calls: bool

    def program(self) -> str:
        shape = (self.rows, self.k)
        t = checks.tensor
        op = f"stablehlo.dot_general %a, %b, {ROWS} : ({t(shape)}, {t(shape)}) -> {t((self.rows,))}"
        return checks.program(op, shape, shape, (self.rows,), False)

    def arguments(self) -> list[np.ndarray]:
        """Normal data, the first row's products all zeros of both signs (a
        sum of -0.0 and +0.0 terms)."""
        rng = np.random.default_rng(37)
        a = rng.standard_normal((self.rows, self.k)).astype(np.float32)
        b = rng.standard_normal((self.rows, self.k)).astype(np.float32)
        a[0] = -0.0
        b[0, ::2] = -1.0
        return [a, b]


ROW_DOTS = {
    "one_group": RowDot(8, 64, True),
    "rows_left": RowDot(13, 100, True),
    "one_chunk": RowDot(64, 256, True),
    "chunk_and_one": RowDot(67, 257, True),
    "columns_left": RowDot(200, 300, True),
    "chunks": RowDot(130, 1024, True),
    "chunks_columns_left": RowDot(9, 1031, True),
    "few_rows": RowDot(7, 64, False),
    "few_terms": RowDot(64, 7, False),
}


@pytest.mark.parametrize("name", ROW_DOTS)
def test_entry_matches_inline_kernel(name: str) -> None:
    dot = ROW_DOTS[name]
    checks.matches_inline_kernel(dot.program(), dot.arguments(), ROW_DOT, dot.calls)


def test_swapped_operands_match_inline_kernel() -> None:
    """einsum('ij,jk,ik->i'): `dot-layout` swaps the inner dot so that the
    row dot reads both operands along their rows."""
    program = """func.func @main(%x: tensor<64x96xf32>, %w: tensor<96x96xf32>, %y: tensor<64x96xf32>) -> tensor<64xf32> {
  %0 = stablehlo.dot_general %w, %x, contracting_dims = [0] x [1] : (tensor<96x96xf32>, tensor<64x96xf32>) -> tensor<96x64xf32>
  %1 = stablehlo.dot_general %y, %0, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<64x96xf32>, tensor<96x64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
"""
    rng = np.random.default_rng(37)
    arguments = [
        rng.standard_normal(shape).astype(np.float32)
        for shape in ((64, 96), (96, 96), (64, 96))
    ]
    checks.matches_inline_kernel(program, arguments, ROW_DOT, True)


def test_threads_do_not_change_the_bits() -> None:
    dot = RowDot(2048, 1024, True)
    checks.threads_do_not_change_the_bits(dot.program(), dot.arguments())


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(
        ROW_DOTS["columns_left"].program(), ROW_DOT
    )


def test_ahead_of_time_object_defines_the_entry(tmp_path: Path) -> None:
    dot = ROW_DOTS["chunks_columns_left"]
    checks.ahead_of_time_object(
        dot.program(), dot.arguments(), "model_row_dot", tmp_path, [ROW_DOT]
    )
