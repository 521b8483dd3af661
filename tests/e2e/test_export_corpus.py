"""scripts/export_corpus.py regenerates the test corpus: a few of its
programs, written into a temporary folder in the corpus's format, run on the
cpu target as JAX computed them, in both text flavours; their lowered text
is the stored corpus's, byte for byte, where `../shared/corpus` is present.
Needs jax (the `bench` extra): skipped without it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax", reason="jax is not installed: pip install -e '.[bench]'")

from tests.conftest import CORPUS
from tests.e2e.jax_corpus_check import assert_runs_as_jax, script

export_corpus = script("scripts/export_corpus.py")
jax_corpus = script("scripts/jax_corpus.py")

PROGRAMS = ["softmax_rows", "int_ops", "train_step_mlp"]

# One worker runs the module: the exported corpus is made once.
pytestmark = pytest.mark.xdist_group("export_corpus")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    export_corpus.write_tolerances(
        *jax_corpus.main(export_corpus.CORPUS, "export", [str(folder), *PROGRAMS])
    )
    return folder


@pytest.mark.parametrize("flavour", ["mlir", "export.mlir"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_exported_program_runs_as_jax(exported: Path, name: str, flavour: str) -> None:
    data = np.load(exported / "small" / f"{name}.npz")
    count = {p: sum(k.startswith(p) for k in data.files) for p in ("arg", "out")}
    assert_runs_as_jax(
        (exported / "small" / f"{name}.{flavour}").read_text(),
        f"{name}.{flavour}",
        [data[f"arg{i}"] for i in range(count["arg"])],
        [data[f"out{i}"] for i in range(count["out"])],
    )


@pytest.mark.parametrize("name", PROGRAMS)
def test_exported_as_stored(exported: Path, name: str) -> None:
    """The lowered texts and the tolerances are the stored corpus's."""
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is absent: nothing to compare with")
    bench_name = export_corpus.CORPUS.programs[name].bench_name
    for stored, made in [
        (CORPUS / "small" / f"{name}.mlir", exported / "small" / f"{name}.mlir"),
        (
            CORPUS / "bench" / f"{bench_name}.mlir",
            exported / "bench" / f"{bench_name}.mlir",
        ),
    ]:
        assert made.read_text() == stored.read_text(), made.name
    made_tolerances = json.loads((exported / "tolerances.json").read_text())
    stored_tolerances = json.loads((CORPUS / "tolerances.json").read_text())
    stored = stored_tolerances["programs"][name]
    del stored["observed"]  # a study of errors the script does not repeat
    assert made_tolerances["programs"][name] == stored


def test_unknown_program_is_refused(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        jax_corpus.main(export_corpus.CORPUS, "export", [str(tmp_path), "nonesuch"])
    assert "unknown program(s) nonesuch; known: gelu" in capsys.readouterr().err


def test_default_folder_takes_names_first(tmp_path: Path) -> None:
    """With a default folder (benchmarks/broad_corpus.py), every positional
    is a program name and the folder is `-o`: `top_k` is not a folder."""
    programs = jax_corpus.ProgramList()

    @programs.add(
        inputs=lambda rng, n: [np.ones(n, np.float32)], small={"n": 4}, bench={"n": 8}
    )
    def double(x):
        return x * 2

    default = tmp_path / "default"
    jax_corpus.main(programs, "export", ["double", "--only", "small"], default)
    assert (default / "small" / "double.mlir").exists()
    jax_corpus.main(
        programs, "export", ["-o", str(tmp_path / "o"), "--only", "small"], default
    )
    assert (tmp_path / "o" / "small" / "double.npz").exists()
