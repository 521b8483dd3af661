"""Every program of the corpus (both flavours) on the interpreter target
gives JAX's outputs within the tolerances of tolerances.json (integer and
boolean outputs, and those listed as exact, bit for bit)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import xlir
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


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_corpus_program(path) -> None:
    name = path.name.split(".")[0]
    data = np.load(SMALL / f"{name}.npz")
    arguments, expected = _arrays(data, "arg"), _arrays(data, "out")
    executable = xlir.compile(path, target="interpreter")
    got = executable(*arguments)
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


def test_corpus_present() -> None:
    assert len(PROGRAMS) == 36, f"expected 18 programs x 2 flavours in {SMALL}"
