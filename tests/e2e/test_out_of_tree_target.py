"""A target from outside the tree works with no edit to xlir: the example
package examples/out_of_tree_target (`reference-f64`, its own pyproject.toml
with one `xlir.targets` entry point) is pip-installed into a folder of this
test run, offline (tests/e2e/out_of_tree.py), and found by the registry
from there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from xlir.targets import registry

import xlir
from tests.conftest import CORPUS
from tests.corpus import assert_matches, load_case
from tests.e2e.out_of_tree import EXAMPLES, install, run

EXAMPLE = EXAMPLES / "out_of_tree_target"

# One worker runs the module: the installed example is made once.
pytestmark = pytest.mark.xdist_group("out_of_tree_target")
PROGRAM = CORPUS / "small" / "mlp_fwd.mlir"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the example package is installed in."""
    return install(EXAMPLE, tmp_path_factory.mktemp("out_of_tree"))


@pytest.fixture
def on_path(installed: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The installed package on this process's path, the registry reading
    the entry points again (and forgetting it after)."""
    monkeypatch.syspath_prepend(str(installed))
    registry.forget()
    yield
    monkeypatch.undo()
    registry.forget()


def _tool(installed: Path, *arguments: str):
    return run(installed, "xlir-run", *arguments)


def test_listed_by_xlir_run(installed: Path) -> None:
    done = _tool(installed, "--list-targets")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[0] == "reference-f64" for line in lines), lines
    assert "(out of tree)" in done.stdout


def test_corpus_program_through_xlir_run(installed: Path) -> None:
    npz = str(PROGRAM.with_suffix(".npz"))
    done = _tool(
        installed,
        str(PROGRAM),
        "--target",
        "reference-f64",
        "--inputs",
        npz,
        "--expected",
        npz,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASSED" in done.stdout


@pytest.mark.usefixtures("on_path")
def test_corpus_program_through_compile() -> None:
    assert "reference-f64" in registry.target_names()
    executable = xlir.compile(PROGRAM, target="reference-f64")
    arguments, expected = load_case(PROGRAM)
    assert_matches("mlp_fwd", executable(*arguments), expected)


@pytest.mark.usefixtures("on_path")
def test_computes_at_f64_and_rounds_back() -> None:
    """(x + 2^24) - 2^24 loses x's fraction in f32, not in f64."""
    source = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %big = stablehlo.constant dense<16777216.0> : tensor<2xf32>
  %s = stablehlo.add %x, %big : tensor<2xf32>
  %d = stablehlo.subtract %s, %big : tensor<2xf32>
  return %d : tensor<2xf32>
}
"""
    x = np.array([0.25, 1.5], np.float32)
    wide = xlir.compile(source, target="reference-f64", pipeline="")(x)
    narrow = xlir.compile(source, target="interpreter", pipeline="")(x)
    assert wide.dtype == np.float32
    np.testing.assert_array_equal(wide, x)
    np.testing.assert_array_equal(narrow, [0.0, 2.0])
