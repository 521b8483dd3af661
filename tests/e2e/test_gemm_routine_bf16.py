"""bf16 dots call the prebuilt GEMM routine's bf16 entries
(targets/cpu/gemm_calls.py: the operands widened as the routine reads
them, a bf16 result rounded by the routine, or from f32 sums by an
epilogue that does more) and give bit
for bit the inline kernel's results (`CompileOptions(library_calls=False)`),
which sums the same widened values in the same order: an f32 or a bf16
result, a transposed operand (its columns apart or together), sums split
by `block-sums`, batch dimensions, an operand whose f32 copy would have
been large, an epilogue, threads; an f32 dot rounded to bf16 in its
kernel; a bf16 result the routine rounds itself, however large, and
special sums (ties, overflow, infinities, NaN) rounded. A dot whose
epilogue needs f32 sums that would be large stays inline."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xlir
from tests.e2e import routine_checks as checks

ROUTINE = re.compile(r"xlir\.gemm_f32_")
PLAIN = "contracting_dims = [1] x [0]"
BATCHED = "batching_dims = [0] x [0], contracting_dims = [2] x [1]"


def _tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, (*shape, element)))}>"


@dataclass(frozen=True)
class Case:
    program: str
    shapes: tuple[tuple[int, ...], tuple[int, ...]]
    calls: bool
    """Whether the routine covers it: not where the f32 sums a bf16
    result's epilogue reads take too many bytes (`gemm_calls._sums_pay`)."""

    def arguments(self) -> list[np.ndarray]:
        rng = np.random.default_rng(36)
        return [rng.standard_normal(s).astype(ml_dtypes.bfloat16) for s in self.shapes]


def _dot(
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    dims: str,
    out: tuple[int, ...],
    result: str,
    relu: bool = False,
    calls: bool = True,
) -> Case:
    """`main(%a, %b)`: bf16 operands of shapes `lhs` and `rhs`, their
    `dot_general` (`dims`) of element type `result`, with `relu` a relu
    after it."""
    a, b = _tensor(lhs, "bf16"), _tensor(rhs, "bf16")
    t = _tensor(out, result)
    body = f"%d = stablehlo.dot_general %a, %b, {dims} : ({a}, {b}) -> {t}\n"
    if relu:
        body += (
            f"  %z = stablehlo.constant dense<0.0> : {t}\n"
            f"  %r = stablehlo.maximum %d, %z : {t}\n"
        )
    value = "%r" if relu else "%d"
    program = f"func.func @main(%a: {a}, %b: {b}) -> {t} {{\n  {body}  return {value} : {t}\n}}\n"
    return Case(program, (lhs, rhs), calls)


DOTS = {
    "f32_result": _dot((256, 256), (256, 256), PLAIN, (256, 256), "f32"),
    "bf16_result": _dot((256, 300), (300, 256), PLAIN, (256, 256), "bf16"),
    "k_chunks": _dot((64, 1000), (1000, 128), PLAIN, (64, 128), "bf16"),
    "rhs_transposed": _dot((256, 300), (260, 300), "contracting_dims = [1] x [1]", (256, 260), "bf16"),
    "batch": _dot((2, 256, 300), (2, 300, 256), BATCHED, (2, 256, 256), "bf16"),
    "whole_matrices": _dot((2, 512, 64), (2, 64, 512), BATCHED, (2, 512, 512), "f32"),
    "epilogue": _dot((256, 64), (64, 256), PLAIN, (256, 256), "bf16", relu=True),
    "narrow": _dot((512, 256), (256, 64), PLAIN, (512, 64), "bf16"),
    "copies": _dot((512, 1024), (1024, 512), PLAIN, (512, 512), "bf16"),
    "large_operand": _dot((2048, 1280), (1280, 64), PLAIN, (2048, 64), "bf16"),
    "rhs_columns_apart": _dot((128, 1100), (96, 1100), "contracting_dims = [1] x [1]", (128, 96), "f32"),
    "large_rounded": _dot((2048, 64), (64, 2048), PLAIN, (2048, 2048), "bf16"),
    "large_sums": _dot((2048, 64), (64, 2048), PLAIN, (2048, 2048), "bf16", relu=True, calls=False),
}  # fmt: skip


@pytest.mark.parametrize("name", DOTS)
def test_bf16_dot_calls_routine_with_inline_bits(name: str) -> None:
    case = DOTS[name]
    checks.matches_inline_kernel(case.program, case.arguments(), ROUTINE, case.calls)


def test_threads_do_not_change_the_bits() -> None:
    case = _dot((256, 512), (512, 256), PLAIN, (256, 256), "bf16")
    checks.threads_do_not_change_the_bits(case.program, case.arguments())


def test_f32_dot_rounded_to_bf16() -> None:
    """An f32 dot whose result is converted to bf16 in its kernel: the
    routine stores the f32 sums, the epilogue rounds them into C."""
    f32, bf16 = _tensor((256, 256), "f32"), _tensor((256, 256), "bf16")
    program = (
        f"func.func @main(%a: {f32}, %b: {f32}) -> {bf16} {{\n"
        "  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] "
        f": ({f32}, {f32}) -> {f32}\n"
        f"  %r = stablehlo.convert %d : ({f32}) -> {bf16}\n"
        f"  return %r : {bf16}\n}}\n"
    )
    rng = np.random.default_rng(36)
    arguments = [rng.standard_normal((256, 256)).astype(np.float32) for _ in "ab"]
    checks.matches_inline_kernel(program, arguments, ROUTINE, calls=True)


def test_routine_rounds_special_sums_as_the_inline_kernel() -> None:
    """A bf16 dot whose epilogue only rounds calls the entry that stores C
    rounded (`.to_bf16`), with the inline kernel's bits on sums that tie
    (257 and 259 between bf16 neighbours: to even), overflow to infinity,
    are infinite, and are a signaling NaN (quieted)."""
    case = _dot((64, 300), (300, 64), PLAIN, (64, 64), "bf16")
    a, b = case.arguments()
    a[:4] = 0
    a[0, :2] = 1  # 256 + B[1, j]
    b[0], b[1] = 256, np.arange(64) % 4
    a[1] = 3e38  # times B's positive rows past bf16's largest finite
    b[2:] = np.abs(b[2:]) + 0.5
    a[2, 7] = -np.inf
    a.view(np.uint16)[3, 9] = 0x7F81  # a signaling NaN, the row's only one
    rounded = re.compile(r"xlir\.gemm_f32_\w+\.bf16\.to_bf16")
    checks.matches_inline_kernel(case.program, [a, b], rounded, calls=True)
    got = np.asarray(xlir.compile(case.program, target="cpu")(a, b)).view(np.uint16)
    assert list(got[0, :4]) == [0x4380, 0x4380, 0x4381, 0x4382]  # 256 .. 260
    assert np.all(got[1] == 0x7F80) and np.all(got[2] == 0xFF80)
    assert np.all(got[3] == 0x7FC1)


@pytest.mark.parametrize("name", ["bf16_result", "epilogue", "whole_matrices"])
def test_ahead_of_time_object_defines_the_bf16_entries(
    name: str, tmp_path: Path
) -> None:
    """An object compiled ahead of time defines the bf16 entry it calls (a
    rounding one, one of f32 sums, the batched one: its tiles at least,
    where LLVM inlined the entry into its caller) and gives the JIT's
    bits."""
    case = DOTS[name]
    defined = re.compile(r"xlir\.gemm_f32_\d+x\d+(\.batched)?\.bf16.*")
    checks.ahead_of_time_object(
        case.program, case.arguments(), "model_dot", tmp_path, [defined]
    )
