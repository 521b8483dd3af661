"""CI runs the new-hardware tutorial (docs/new-hardware.md): the example
target `qdsp` (examples/new_target, a made-up 4-lane SIMD DSP) installed as a
user installs it (tests/e2e/out_of_tree.py), its lit tests, `xlir-run
--target qdsp` on the corpus programs it runs, checked against JAX's outputs
and the evaluator's, the one diagnostic that refuses the others, its own
conformance tests; and a renamed copy of it installed from a folder outside
the repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import xlir
from tests.corpus import SMALL, TOLERANCES
from tests.e2e.out_of_tree import EXAMPLES, install, run

EXAMPLE = EXAMPLES / "new_target"

# One worker runs the module: the installed example is made once.
pytestmark = pytest.mark.xdist_group("new_target")
SUPPORTED = ["gelu", "fma_xyz", "chain10", "softmax_rows", "layernorm", "reductions"]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the example is installed in, once per session."""
    return install(EXAMPLE, tmp_path_factory.mktemp("new_target"))


def test_the_backend_is_at_most_400_lines() -> None:
    """Issue 35's bound on the tutorial's whole backend: its Python, tests
    aside."""
    package = EXAMPLE / "xlir_qdsp"
    lines = sum(len(path.read_text().splitlines()) for path in package.glob("*.py"))
    assert lines <= 400, lines


def test_lit_tests_of_the_lowering(site: Path) -> None:
    done = run(site, "xlir-lit", "-q", str(EXAMPLE / "tests" / "lit"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_listed_by_xlir_run(site: Path) -> None:
    done = run(site, "xlir-run", "--list-targets")
    assert done.returncode == 0, done.stderr
    assert any(line.split()[0] == "qdsp" for line in done.stdout.splitlines())


@pytest.mark.parametrize("name", SUPPORTED)
def test_supported_program_through_xlir_run(
    site: Path, name: str, tmp_path: Path
) -> None:
    """JAX's outputs (`--expected`), and the evaluator's within the corpus
    tolerances."""
    program, npz, output = (
        SMALL / f"{name}.mlir",
        SMALL / f"{name}.npz",
        tmp_path / "out.npz",
    )
    done = run(site, "xlir-run", str(program), "--target", "qdsp", "--inputs", str(npz),
               "--expected", str(npz), "--output", str(output))  # fmt: skip
    assert done.returncode == 0 and "PASSED" in done.stdout, done.stdout + done.stderr
    inputs = np.load(npz)
    arguments = [
        inputs[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in inputs))
    ]
    reference = xlir.compile(program, target="interpreter")(*arguments)
    got = np.load(output)
    tolerance = TOLERANCES[name]
    for index, want in enumerate(
        reference if isinstance(reference, tuple) else (reference,)
    ):
        np.testing.assert_allclose(
            got[f"out{index}"], want, rtol=tolerance["rtol"], atol=tolerance["atol"]
        )


def test_unsupported_program_refused_in_one_diagnostic(site: Path) -> None:
    program = SMALL / "compare_select.mlir"
    done = run(site, "xlir-run", str(program), "--target", "qdsp", "--random")
    assert done.returncode != 0
    assert done.stderr.count("cannot run") == 1, done.stderr
    assert "target 'qdsp' cannot run 7 op(s) of this program:" in done.stderr
    for line, op in [(20, "'arith.cmpf olt' has no qdsp instruction"),
                     (20, "'arith.extui' has no qdsp instruction"),
                     (48, "'math.absf' has no qdsp instruction"),
                     (48, "'arith.cmpf olt' has no qdsp instruction"),
                     (21, "'loop.store' on a memref<64x96xi1>")]:  # fmt: skip
        assert f"{program}:{line}:5: error: {op}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_pytest_tests_of_the_example(site: Path) -> None:
    """xlir's conformance tests (the runtime contract, the corpus) and the
    simulator's, as the tutorial runs them."""
    tests = EXAMPLE / "tests"
    options = ["-o", "addopts=", "-p", "no:cacheprovider"]
    done = run(site, "python", "-m", "pytest", *options, str(tests), cwd=site)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert " passed" in done.stdout, done.stdout  # the exit status says none failed


def test_a_renamed_copy_installs_and_runs(tmp_path: Path) -> None:
    """The tutorial's package does not depend on living in the repository:
    copied elsewhere with its target renamed, it installs and runs."""
    copy = tmp_path / "my_dsp"
    shutil.copytree(
        EXAMPLE, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "tests")
    )
    for path, old, new in [
        (copy / "pyproject.toml", 'qdsp = "xlir_qdsp.target', 'my-dsp = "xlir_qdsp.target'),
        (copy / "xlir_qdsp" / "target.py", 'name = "qdsp"', 'name = "my-dsp"'),
    ]:  # fmt: skip
        text = path.read_text()
        assert old in text, path
        path.write_text(text.replace(old, new))
    site = install(copy, tmp_path / "installed")
    listed = run(site, "xlir-run", "--list-targets", cwd=tmp_path)
    assert "my-dsp" in listed.stdout and "qdsp " not in listed.stdout, listed.stdout
    npz = SMALL / "gelu.npz"
    done = run(site, "xlir-run", str(SMALL / "gelu.mlir"), "--target", "my-dsp",
               "--inputs", str(npz), "--expected", str(npz), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0 and "PASSED" in done.stdout, done.stdout + done.stderr
