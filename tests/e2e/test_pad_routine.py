"""f32 zero pads that call the prebuilt pad entry (targets/cpu/pad_calls.py,
pad_routine.py) give bit for bit the results of the compiled loops
(`CompileOptions(library_calls=False)`), on inputs with NaNs of several
payloads, infinities and -0.0: ranks 1 to 5, padding on one side or both,
dimensions without padding merged into rows, a row of 3 elements;
threaded or not; JIT and ahead of time. Each case also says whether the
entry covers it (other pad values, element types, a crop and interior
padding stay loops), so a change of coverage shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.e2e import routine_checks as checks

ENTRY = re.compile(r"xlir\.gemm_f32_\d+x\d+\.pad\b")


@dataclass(frozen=True)
class Pad:
    shape: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    calls: bool
    """Whether the entry covers it."""
    value: str = "0.0"
    element: str = "f32"
    interior: int = 0

    def program(self) -> str:
        out = tuple(
            n + a + b + max(n - 1, 0) * self.interior
            for n, a, b in zip(self.shape, self.low, self.high, strict=True)
        )

        def t(shape: tuple[int, ...]) -> str:
            return f"tensor<{'x'.join(map(str, (*shape, self.element)))}>"

        scalar = f"tensor<{self.element}>"
        return (
            f"func.func @main(%a: {t(self.shape)}) -> {t(out)} {{\n"
            f"  %v = stablehlo.constant dense<{self.value}> : {scalar}\n"
            f"  %p = stablehlo.pad %a, %v, low = {list(self.low)}, "
            f"high = {list(self.high)}, interior = {[self.interior] * len(out)} "
            f": ({t(self.shape)}, {scalar}) -> {t(out)}\n"
            f"  return %p : {t(out)}\n}}\n"
        )

    def argument(self) -> np.ndarray:
        """Normal data with a NaN of each sign and two payloads, both
        infinities and -0.0 among it."""
        dtype = np.float32 if self.element == "f32" else np.float64
        x = np.random.default_rng(37).standard_normal(self.shape).astype(dtype)
        flat = x.reshape(-1)
        special = [np.nan, -np.nan, np.inf, -np.inf, -0.0]
        flat[: len(special)] = special[: flat.size]
        if self.element == "f32" and flat.size > len(special):
            flat.view(np.uint32)[len(special)] = 0x7FC12345
        return x


PADS = {
    "image_sides": Pad((2, 8, 8, 16), (0, 1, 1, 0), (0, 1, 1, 0), True),
    "three_channels": Pad((4, 9, 7, 3), (0, 1, 2, 0), (0, 2, 1, 0), True),
    "causal": Pad((2, 300, 8), (0, 4, 0), (0, 0, 0), True),
    "every_side": Pad((2, 3, 4, 5), (1, 2, 0, 3), (2, 0, 1, 1), True),
    "vector": Pad((5,), (2,), (3,), True),
    "matrix": Pad((3, 4), (0, 2), (1, 0), True),
    "rank_5": Pad((2, 3, 4, 5, 6), (0, 1, 0, 1, 0), (0, 1, 0, 0, 0), True),
    "too_many_padded": Pad((2, 3, 4, 5, 6), (1, 1, 1, 1, 1), (0, 0, 0, 0, 0), False),
    "one": Pad((2, 3, 4), (0, 1, 0), (0, 0, 0), False, value="1.0"),
    "negative_zero": Pad((2, 3, 4), (0, 1, 0), (0, 0, 0), False, value="-0.0"),
    "f64": Pad((2, 3, 4), (0, 1, 0), (0, 0, 0), False, element="f64"),
    "crop": Pad((2, 6, 4), (0, -1, 1), (0, 2, 0), False),
    "interior": Pad((2, 3, 4), (0, 1, 0), (0, 0, 0), False, interior=1),
    "empty": Pad((2, 0, 4), (0, 1, 0), (0, 1, 0), False),
    "threaded": Pad((8, 32, 32, 64), (0, 1, 1, 0), (0, 1, 1, 0), True),
}


@pytest.mark.parametrize("name", PADS)
def test_entry_matches_the_loops(name: str) -> None:
    pad = PADS[name]
    checks.matches_inline_kernel(pad.program(), [pad.argument()], ENTRY, pad.calls)


def test_threads_do_not_change_the_bits() -> None:
    pad = PADS["threaded"]
    checks.threads_do_not_change_the_bits(pad.program(), [pad.argument()])


def test_bounds_checked_code_keeps_the_loops() -> None:
    checks.bounds_checked_code_keeps_the_inline_kernel(
        PADS["image_sides"].program(), ENTRY
    )


def test_ahead_of_time_object_defines_the_entry(tmp_path: Path) -> None:
    pad = PADS["three_channels"]
    checks.ahead_of_time_object(
        pad.program(), [pad.argument()], "model_pad", tmp_path, [ENTRY]
    )
