"""Transposes that `tile-transposes` cache-blocks run bit for bit as the
evaluator does on the cpu target: extents that leave partial tiles, 1- and
0-sized dimensions, 3-/4-D permutations, f32, bf16 and u8, and a fusion that
adds a transposed operand to a plain one. Each case's column spans at least
the pass's `min-bytes` (1 MiB), so the cpu pipeline tiles it (checked by
counting the pass's rewrites), except the zero-sized ones, which have no
elements to walk, and one whose rows are too short to tile. Compiled
without library calls: with them, an f32 nest that only transposes calls
the transpose entry instead (`transpose-calls`: test_transpose_routine.py)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.passes.loop import tile_transposes
from xlir.targets.target import CompileOptions

import xlir


def _tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def _transpose(shape: tuple[int, ...], element: str, perm: tuple[int, ...]) -> str:
    out = tuple(shape[p] for p in perm)
    return f"""
func.func @main(%x: {_tensor(shape, element)}) -> {_tensor(out, element)} {{
  %0 = stablehlo.transpose %x, dims = {list(perm)}
      : ({_tensor(shape, element)}) -> {_tensor(out, element)}
  return %0 : {_tensor(out, element)}
}}"""


FUSED = """
func.func @main(%x: tensor<600x517xf32>, %y: tensor<517x600xf32>) -> tensor<517x600xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<600x517xf32>) -> tensor<517x600xf32>
  %s = stablehlo.add %t, %y : tensor<517x600xf32>
  return %s : tensor<517x600xf32>
}"""

CASES: dict[str, tuple[str, int]] = {
    # name: (program, nests the cpu pipeline tiles)
    "f32_remainders": (_transpose((1031, 263), "f32", (1, 0)), 1),
    "bf16_remainders": (_transpose((2051, 263), "bf16", (1, 0)), 1),
    "u8_remainders": (_transpose((2063, 517), "ui8", (1, 0)), 1),
    "f32_unit_dims": (_transpose((1, 2100, 1, 131), "f32", (2, 3, 0, 1)), 1),
    "f32_batch_021": (_transpose((3, 1031, 259), "f32", (0, 2, 1)), 1),
    "f32_3d_210": (_transpose((129, 17, 131), "f32", (2, 1, 0)), 1),
    "f32_4d_0312": (_transpose((2, 3, 2003, 131), "f32", (0, 3, 1, 2)), 1),
    # rows of 3 elements (an image's channels last to first): left untiled
    "f32_4d_short_rows": (_transpose((2, 260, 3, 129), "f32", (0, 3, 1, 2)), 0),
    "f32_zero_sized": (_transpose((0, 70000), "f32", (1, 0)), 0),
    "u8_zero_sized_batch": (_transpose((0, 600, 517), "ui8", (0, 2, 1)), 0),
    "fused_add": (FUSED, 1),
}


def _arguments(executable) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [
        rng.integers(0, 250, size=spec.shape).astype(spec.dtype)
        for spec in executable.signature.arguments
    ]


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@pytest.mark.parametrize("name", CASES)
def test_tiled_transpose_matches_evaluator(name: str, monkeypatch) -> None:
    text, tiled = CASES[name]
    rewrites: list[list[int]] = []
    tile = tile_transposes.tile

    def counted(nest, sizes):
        rewrites.append(list(sizes))
        return tile(nest, sizes)

    monkeypatch.setattr(tile_transposes, "tile", counted)
    options = CompileOptions(library_calls=False)
    executable = xlir.compile(text, target="cpu", options=options)
    assert len(rewrites) == tiled, rewrites
    arguments = _arguments(executable)
    expected = xlir.compile(text, target="interpreter")(*arguments)
    actual = executable(*arguments)
    for got, want in zip(actual, expected, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
