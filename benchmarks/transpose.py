"""Transposes on xlir's cpu target against numpy and XLA:CPU.

    python benchmarks/transpose.py [--repeat N] [--cases NAME,...]

Each case is one `stablehlo.transpose` of a shape, element type and
permutation (2-D, and 3-/4-D permutations that move the last dimension or
keep it); xlir's call writes into preallocated outputs (`out=`), numpy's is
`np.ascontiguousarray(x.transpose(perm))`, XLA's runs on a device-resident
input (skipped without jax). The calls are timed in turn (run.py's
`interleaved_medians_ms`) and checked bit for bit against numpy. Printed:
median milliseconds, xlir/numpy and xlir/xla, the cold compile's CPU
seconds and the lines of xlir's LLVM IR for the program.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import ml_dtypes
import numpy as np

os.environ["XLIR_CACHE"] = "0"  # cold compiles: nothing cached
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import XlaCpu, interleaved_medians_ms, jax

import xlir

CASES: dict[str, tuple[tuple[int, ...], str, tuple[int, ...]]] = {
    "f32_512x512": ((512, 512), "f32", (1, 0)),
    "f32_2048x1024": ((2048, 1024), "f32", (1, 0)),
    "f32_1000x999": ((1000, 999), "f32", (1, 0)),
    "bf16_1024x1024": ((1024, 1024), "bf16", (1, 0)),
    "u8_224x224x3_hwc_chw": ((224, 224, 3), "ui8", (2, 0, 1)),
    "u8_2048x2048": ((2048, 2048), "ui8", (1, 0)),
    "f32_bshd_bhsd": ((8, 256, 12, 64), "f32", (0, 2, 1, 3)),
    "f32_bhsd_bhds": ((8, 12, 256, 64), "f32", (0, 1, 3, 2)),
    "f32_64x128x256_210": ((64, 128, 256), "f32", (2, 1, 0)),
    "f32_96x256x64_021": ((96, 256, 64), "f32", (0, 2, 1)),
    "f32_8x1024x1024_021": ((8, 1024, 1024), "f32", (0, 2, 1)),
}

DTYPES = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "ui8": np.uint8}


def program(shape: tuple[int, ...], element: str, perm: tuple[int, ...]) -> str:
    def tensor(dims: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, dims))}x{element}>"

    out = tuple(shape[p] for p in perm)
    return (
        f"func.func @main(%x: {tensor(shape)}) -> {tensor(out)} {{\n"
        f"  %0 = stablehlo.transpose %x, dims = {list(perm)} : "
        f"({tensor(shape)}) -> {tensor(out)}\n"
        f"  return %0 : {tensor(out)}\n}}\n"
    )


def time_case(name: str, xla: XlaCpu | None, repeat: int) -> str:
    """One row: the case's median times, ratios, compile CPU and IR lines."""
    shape, element, perm = CASES[name]
    text = program(shape, element, perm)
    x = np.random.default_rng(0).integers(0, 255, size=shape).astype(DTYPES[element])
    start = time.process_time()
    executable = xlir.compile(text, target="cpu")
    cold = time.process_time() - start
    expected = np.ascontiguousarray(x.transpose(perm))
    out = np.empty_like(expected)
    executable(x, out=[out])
    assert out.tobytes() == expected.tobytes(), f"{name}: xlir differs from numpy"
    calls = {
        "xlir": lambda: executable(x, out=[out]),
        "numpy": lambda: np.ascontiguousarray(x.transpose(perm)),
    }
    if xla is not None:
        calls["xla"] = xla.caller(xla.compile(text), [x])
    ms = interleaved_medians_ms(calls, repeat)
    xla_ms = ms.get("xla", float("nan"))
    return (
        f"{name:24} {ms['xlir']:8.3f} {ms['numpy']:8.3f} {xla_ms:8.3f} "
        f"{ms['xlir'] / ms['numpy']:6.2f} {ms['xlir'] / xla_ms:6.2f} "
        f"{cold:7.2f} {executable.as_text().count(chr(10)):8d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Transposes against numpy and XLA:CPU."
    )
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    xla = XlaCpu() if jax is not None else None
    print(
        f"{'case':24} {'xlir ms':>8} {'numpy':>8} {'xla':>8} {'x/np':>6} "
        f"{'x/xla':>6} {'cold s':>7} {'IR lines':>8}"
    )
    for name in args.cases.split(","):
        print(time_case(name, xla, args.repeat))


if __name__ == "__main__":
    main()
