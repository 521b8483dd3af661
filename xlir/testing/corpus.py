"""The JAX-exported corpus as tests read it, wherever it lives: a folder
with `small/` (each program as `NAME.mlir` and `NAME.export.mlir`, its
arguments and JAX's outputs in `NAME.npz`) and `tolerances.json`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np


def program_name(path: Path) -> str:
    """`gelu` for both `gelu.mlir` and `gelu.export.mlir`."""
    return path.name.split(".")[0]


def _arrays(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    count = sum(key.startswith(prefix) for key in data.files)
    return [data[f"{prefix}{i}"] for i in range(count)]


class Corpus:
    """The corpus in folder `root`."""

    def __init__(self, root: Path):
        self.root = root
        self.small = root / "small"

    @property
    def programs(self) -> list[Path]:
        """Every small program, both flavours."""
        return sorted(self.small.glob("*.mlir"))

    @cached_property
    def tolerances(self) -> dict[str, dict]:
        """Per program: rtol, atol and the outputs compared exactly."""
        path = self.root / "tolerances.json"
        return json.loads(path.read_text())["programs"] if path.exists() else {}

    def load_case(self, path: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The program's arguments and JAX's outputs."""
        data = np.load(self.small / f"{program_name(path)}.npz")
        return _arrays(data, "arg"), _arrays(data, "out")

    def assert_matches(
        self,
        name: str,
        got: np.ndarray | tuple[np.ndarray, ...],
        expected: Sequence[np.ndarray],
    ) -> None:
        """Outputs equal the expected ones within the program's tolerances
        (integer and boolean outputs, and those listed as exact, bit for bit)."""
        results = got if isinstance(got, tuple) else (got,)
        assert len(results) == len(expected)
        tolerance = self.tolerances[name]
        for index, (result, want) in enumerate(zip(results, expected, strict=True)):
            assert result.shape == want.shape, f"out{index}: shape"
            if want.dtype.kind in "biu" or index in tolerance["exact_outputs"]:
                assert result.dtype == want.dtype, f"out{index}: dtype"
                np.testing.assert_array_equal(result, want, err_msg=f"out{index}")
            else:
                np.testing.assert_allclose(
                    result,
                    want,
                    rtol=tolerance["rtol"],
                    atol=tolerance["atol"],
                    err_msg=f"out{index}",
                )
