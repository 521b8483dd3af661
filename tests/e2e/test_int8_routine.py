"""int8 dots that call the prebuilt int8 routine (targets/cpu/int8_calls.py,
int8_routine.py) give the integer dot, bit for bit the results of the
inline `vpdpbusd` kernel (`CompileOptions(library_calls=False)`) and of the
interpreter: each signedness pair, rows past whole blocks and register
tiles, a partial last panel, rows of two dimensions, a dequantizing
epilogue into f32 (int8_matmul's); threaded or not; JIT and ahead of time.
Each case also says whether the routine covers it. Only on a machine with
VNNI (the only one whose int8 dots are byte quads)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.cpu import vector_width
from xlir.targets.target import CompileOptions

import xlir
from tests.e2e import routine_checks as checks

ROUTINE = re.compile(r"xlir\.gemm_i8_")
DEFINED = re.compile(r"xlir\.gemm_i8_.*")

pytestmark = pytest.mark.skipif(
    not vector_width.byte_dot_bits(vector_width.host_features()),
    reason="no byte dot product instruction (VNNI) on this host",
)

DTYPES = {"i8": np.int8, "ui8": np.uint8}


@dataclass(frozen=True)
class Dot:
    lhs: tuple[int, ...]
    """The lhs's shape, k last."""
    n: int
    lhs_type: str = "i8"
    rhs_type: str = "i8"
    scaled: bool = False
    """Dequantized: the i32 sums to f32, times a scale per row and one per
    column (int8_matmul)."""
    calls: bool = True

    @property
    def out(self) -> tuple[int, ...]:
        return (*self.lhs[:-1], self.n)

    def program(self) -> str:
        k = self.lhs[-1]
        contracting = len(self.lhs) - 1
        lhs = f"tensor<{'x'.join(map(str, self.lhs))}x{self.lhs_type}>"
        rhs = f"tensor<{k}x{self.n}x{self.rhs_type}>"
        sums = f"tensor<{'x'.join(map(str, self.out))}xi32>"
        body = (
            f"%d = stablehlo.dot_general %a, %b, contracting_dims = [{contracting}] "
            f"x [0] : ({lhs}, {rhs}) -> {sums}"
        )
        if not self.scaled:
            return (
                f"func.func @main(%a: {lhs}, %b: {rhs}) -> {sums} {{\n"
                f"  {body}\n  return %d : {sums}\n}}\n"
            )
        out = f"tensor<{'x'.join(map(str, self.out))}xf32>"
        rows, column = len(self.out) - 1, len(self.out) - 1
        row_scale = f"tensor<{'x'.join(map(str, self.lhs[:-1]))}xf32>"
        column_scale = f"tensor<{self.n}xf32>"
        return (
            f"func.func @main(%a: {lhs}, %b: {rhs}, %r: {row_scale}, "
            f"%c: {column_scale}) -> {out} {{\n"
            f"  {body}\n"
            f"  %f = stablehlo.convert %d : ({sums}) -> {out}\n"
            f"  %rs = stablehlo.broadcast_in_dim %r, dims = {list(range(rows))} "
            f": ({row_scale}) -> {out}\n"
            f"  %cs = stablehlo.broadcast_in_dim %c, dims = [{column}] "
            f": ({column_scale}) -> {out}\n"
            f"  %x = stablehlo.multiply %f, %rs : {out}\n"
            f"  %y = stablehlo.multiply %x, %cs : {out}\n"
            f"  return %y : {out}\n}}\n"
        )

    def arguments(self) -> list[np.ndarray]:
        """Random bytes, the extremes in whole rows and columns."""
        rng = np.random.default_rng(38)
        arrays = []
        for name, shape in (
            (self.lhs_type, self.lhs),
            (self.rhs_type, (self.lhs[-1], self.n)),
        ):
            info = np.iinfo(DTYPES[name])
            values = rng.integers(info.min, info.max, shape, endpoint=True)
            values[..., 0, :] = info.min
            values[..., -1] = info.max
            arrays.append(values.astype(DTYPES[name]))
        if self.scaled:
            arrays.append(rng.uniform(0.5, 2.0, self.lhs[:-1]).astype(np.float32))
            arrays.append(rng.uniform(0.5, 2.0, (self.n,)).astype(np.float32))
        return arrays


DOTS = {
    "signed": Dot((100, 256), 64),
    "blocks_and_tiles_left": Dot((203, 128), 96),
    "partial_panel": Dot((70, 64), 112),
    "unsigned_lhs": Dot((67, 192), 64, lhs_type="ui8"),
    "unsigned_rhs": Dot((67, 192), 64, rhs_type="ui8"),
    "two_row_dims": Dot((3, 50, 128), 64),
    "scaled": Dot((150, 256), 128, scaled=True),
    "scaled_partial_panel": Dot((40, 64), 112, scaled=True),
    "scaled_two_row_dims": Dot((2, 33, 64), 96, scaled=True),
    "few_columns": Dot((64, 64), 8, calls=False),
}


def _compile(program: str, options: CompileOptions | None = None):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XLIR_CACHE", "0")
        return xlir.compile(program, target="cpu", options=options)


@pytest.mark.parametrize("name", DOTS)
def test_routine_matches_inline_kernel_and_interpreter(name: str) -> None:
    dot = DOTS[name]
    arguments = dot.arguments()
    with_calls = _compile(dot.program())
    inline = _compile(dot.program(), CompileOptions(library_calls=False))
    assert bool(ROUTINE.search(with_calls.llvm_ir)) == dot.calls
    assert not ROUTINE.search(inline.llvm_ir)
    got = np.asarray(with_calls(*arguments))
    np.testing.assert_array_equal(
        got.view(np.uint32), np.asarray(inline(*arguments)).view(np.uint32)
    )
    reference = np.asarray(
        xlir.compile(dot.program(), target="interpreter")(*arguments)
    )
    np.testing.assert_array_equal(got.view(np.uint32), reference.view(np.uint32))


def test_threads_do_not_change_the_bits() -> None:
    dot = Dot((512, 1024), 512, scaled=True)
    checks.threads_do_not_change_the_bits(dot.program(), dot.arguments())


def test_bounds_checked_code_keeps_the_inline_kernel() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(
        DOTS["scaled"].program(), ROUTINE
    )


def test_ahead_of_time_object_defines_the_routine(tmp_path: Path) -> None:
    dot = DOTS["scaled_partial_panel"]
    checks.ahead_of_time_object(
        dot.program(), dot.arguments(), "model_int8", tmp_path, [DEFINED]
    )
