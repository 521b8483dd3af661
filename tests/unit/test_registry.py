"""The registries of dialects, passes and named pipelines (xlir/registry.py):
an installed package adds to them through entry points, with no edit to
xlir, and a broken or conflicting one is a diagnostic naming the package.

Each plug-in here is a package written into a temporary folder with its
installed metadata (`*.dist-info/entry_points.txt`), put on the PYTHONPATH
of an `xlir-opt` run, which is how an installed package is seen."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from xdsl.passes import ModulePass

from xlir.context import DIALECTS
from xlir.pass_manager import PASSES, PIPELINES, expand
from xlir.registry import PluginError, Registry

TOY_MODULE = '''\
"""A `toy` dialect with one op, a pass that lowers it to StableHLO and a
pipeline that runs the pass and cleans up."""

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.passes import ModulePass
from xlir.dialects.stablehlo.elementwise import AddOp


@irdl_op_definition
class DoubleOp(IRDLOperation):
    name = "toy.double"
    input = operand_def(TensorType)
    output = result_def(TensorType)


Toy = Dialect("toy", [DoubleOp])


class ToyToHloPass(ModulePass):
    """toy.double x becomes stablehlo.add x, x."""

    name = "toy-to-hlo"

    def apply(self, ctx, op):
        for double in [o for o in op.walk() if isinstance(o, DoubleOp)]:
            add = AddOp(double.input, double.input)
            double.output.replace_all_uses_with(add.result)
            double.parent_block().insert_op_before(add, double)
            double.detach()
            double.erase()


TOY_OPT = ("toy-to-hlo", "cse")
'''

TOY_PROGRAM = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "toy.double"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "toy.double"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
"""


def _install(site: Path, package: str, entry_points: str) -> None:
    """The installed metadata of `package` in `site`, as pip leaves it."""
    info = site / f"{package.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n"
    )
    (info / "entry_points.txt").write_text(entry_points)


def _opt(site: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run(
        ["xlir-opt", *argv], capture_output=True, text=True, env=env, check=False
    )


@pytest.fixture
def toy_site(tmp_path: Path) -> Path:
    """A folder holding the installed `toy-plugin` package and a program in
    its dialect."""
    (tmp_path / "toy_plugin.py").write_text(TOY_MODULE)
    _install(
        tmp_path,
        "toy-plugin",
        "[xlir.dialects]\ntoy = toy_plugin:Toy\n\n"
        "[xlir.passes]\ntoy-to-hlo = toy_plugin:ToyToHloPass\n\n"
        "[xlir.pipelines]\ntoy-opt = toy_plugin:TOY_OPT\n",
    )
    (tmp_path / "toy.mlir").write_text(TOY_PROGRAM)
    return tmp_path


def test_a_plugin_adds_a_dialect_a_pass_and_a_pipeline(toy_site: Path) -> None:
    result = _opt(toy_site, str(toy_site / "toy.mlir"), "-p", "toy-opt")
    assert result.returncode == 0, result.stderr
    assert "toy.double" not in result.stdout
    assert result.stdout.count("stablehlo.add %a, %a") == 1  # cse merged the two
    assert "stablehlo.multiply" in result.stdout


def test_list_passes_shows_a_plugins_pass_and_pipeline(toy_site: Path) -> None:
    listing = _opt(toy_site, "--list-passes")
    assert listing.returncode == 0, listing.stderr
    assert "  toy-to-hlo" in listing.stdout
    assert "toy.double x becomes stablehlo.add x, x." in listing.stdout
    assert "  toy-opt" in listing.stdout
    assert "toy-to-hlo,cse" in listing.stdout


def test_without_the_plugin_its_dialect_is_unknown(toy_site: Path) -> None:
    result = _opt(toy_site / "elsewhere", str(toy_site / "toy.mlir"))
    assert result.returncode == 1
    assert "toy.double is not registered" in result.stderr


@pytest.mark.parametrize("argv", [["-p", "broken"], ["--list-passes"]])
def test_a_plugin_that_does_not_import_is_a_diagnostic(
    toy_site: Path, argv: list[str]
) -> None:
    _install(toy_site, "broken-plugin", "[xlir.passes]\nbroken = gone:NoPass\n")
    result = _opt(toy_site, str(toy_site / "toy.mlir"), *argv)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "error: pass 'broken' of package 'broken-plugin' cannot be loaded from "
        "'gone:NoPass': ModuleNotFoundError: "
    ), result.stderr
    assert "Traceback" not in result.stderr


def test_two_packages_claiming_a_name_is_a_diagnostic(tmp_path: Path) -> None:
    _install(tmp_path, "rival-plugin", "[xlir.passes]\ncse = rival:CSEPass\n")
    (tmp_path / "in.mlir").write_text(TOY_PROGRAM.replace("toy.double", "x.y"))
    result = _opt(tmp_path, str(tmp_path / "in.mlir"), "-p", "cse")
    assert result.returncode == 1
    assert "error: pass 'cse' is registered by more than one package:" in (
        result.stderr
    )
    assert "'rival-plugin' (rival:CSEPass)" in result.stderr
    assert "'xlir' (xlir.passes.hlo.cse:CSEPass)" in result.stderr


class _NamedPass(ModulePass):
    name = "test-named"

    def apply(self, ctx, op) -> None:
        pass


@pytest.fixture
def added_pass() -> Iterator[str]:
    PASSES.register(_NamedPass.name, _NamedPass)
    yield _NamedPass.name
    PASSES.unregister(_NamedPass.name)


def test_register_adds_in_process(added_pass: str) -> None:
    assert added_pass in PASSES
    assert PASSES[added_pass] is _NamedPass
    assert added_pass in list(PASSES)


def test_register_does_not_replace_a_name() -> None:
    with pytest.raises(ValueError, match="pass 'cse' is already registered"):
        PASSES.register("cse", _NamedPass)
    with pytest.raises(ValueError, match="dialect 'stablehlo' is already registered"):
        DIALECTS.register("stablehlo", DIALECTS["hlo"])


def test_builtins_come_from_xlirs_metadata() -> None:
    fresh: Registry[type[ModulePass]] = Registry("xlir.passes", "pass")
    assert {"cse", "fuse", "hlo-to-loop", "loop-to-llvm"} <= set(fresh)
    assert fresh["cse"].name == "cse"
    assert PIPELINES["hlo-opt"][-1] == "assign-buffers"
    with pytest.raises(KeyError):
        fresh["no-such-pass"]


def test_a_pipelines_steps_may_carry_options() -> None:
    PIPELINES.register("test-fuse-small", ("fuse{max-ops=2}", "cse"))
    try:
        steps = expand("inline,test-fuse-small")
    finally:
        PIPELINES.unregister("test-fuse-small")
    assert [str(step) for step in steps] == ["inline", "fuse{max-ops=2}", "cse"]


def test_an_install_without_xlirs_entry_points_says_to_reinstall() -> None:
    stale: Registry[type[ModulePass]] = Registry("xlir.no-such-group", "widget")
    with pytest.raises(PluginError, match=r"no widget is registered .*pip install"):
        "anything" in stale  # noqa: B015
