"""scripts/export_corpus.py regenerates the shared corpus byte for byte:
both text flavours, the inputs and JAX's outputs, and the bench text, for
two programs (one with a reduction, one training step). Needs the `bench`
extra's JAX at the corpus's version (another version prints other text) and
`../shared/corpus` to compare with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CORPUS

jax = pytest.importorskip("jax")
SCRIPT = Path(__file__).parent.parent.parent / "scripts" / "export_corpus.py"
VERSION = "0.10.2"
"""The JAX the corpus was made with (its README)."""

pytestmark = [
    pytest.mark.skipif(
        jax.__version__ != VERSION,
        reason=f"the corpus was exported by JAX {VERSION}, not {jax.__version__}",
    ),
    pytest.mark.skipif(not CORPUS.exists(), reason=f"{CORPUS} is absent"),
]


def test_script_is_the_corpus_copy() -> None:
    # The export flavour records the script's line numbers.
    assert SCRIPT.read_bytes() == (CORPUS / "export_corpus.py").read_bytes()


@pytest.mark.parametrize(
    ("name", "bench"),
    [("softmax_rows", "softmax_rows_1024"), ("train_step_mlp", "train_step_mlp")],
)
def test_regenerates_the_corpus(name: str, bench: str, tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), name],
        check=True,
        capture_output=True,
        timeout=600,
    )
    for text in (
        f"small/{name}.mlir",
        f"small/{name}.export.mlir",
        f"bench/{bench}.mlir",
    ):
        assert (tmp_path / text).read_text() == (CORPUS / text).read_text(), text
    made, stored = (
        np.load(tmp_path / f"small/{name}.npz"),
        np.load(CORPUS / f"small/{name}.npz"),
    )
    assert sorted(made.files) == sorted(stored.files)
    for key in stored.files:
        np.testing.assert_array_equal(made[key], stored[key], err_msg=key)
        assert made[key].dtype == stored[key].dtype
