"""The JAX-exported corpus as tests see it: programs, their inputs, JAX's
outputs, and the comparison within the corpus tolerances."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tests.conftest import CORPUS

SMALL = CORPUS / "small"
PROGRAMS = sorted(SMALL.glob("*.mlir"))
TOLERANCES = (
    json.loads((CORPUS / "tolerances.json").read_text())["programs"]
    if (CORPUS / "tolerances.json").exists()
    else {}
)


def _arrays(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    count = sum(key.startswith(prefix) for key in data.files)
    return [data[f"{prefix}{i}"] for i in range(count)]


def program_name(path: Path) -> str:
    """`gelu` for both `gelu.mlir` and `gelu.export.mlir`."""
    return path.name.split(".")[0]


def load_case(path: Path) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The program's arguments and JAX's outputs."""
    data = np.load(SMALL / f"{program_name(path)}.npz")
    return _arrays(data, "arg"), _arrays(data, "out")


def assert_matches(
    name: str, got: np.ndarray | tuple[np.ndarray, ...], expected: Sequence[np.ndarray]
) -> None:
    """Outputs equal the expected ones within the program's tolerances
    (integer and boolean outputs, and those listed as exact, bit for bit)."""
    results = got if isinstance(got, tuple) else (got,)
    assert len(results) == len(expected)
    tolerance = TOLERANCES[name]
    for index, (result, want) in enumerate(zip(results, expected, strict=True)):
        assert result.shape == want.shape, f"out{index}: shape"
        exact = want.dtype.kind in "biu" or index in tolerance["exact_outputs"]
        if exact:
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
