"""`xlir-opt` starts without the runtime: a run imports the targets, llvmlite,
the evaluator and the LLVM lowering only when one of its passes needs them
(issue 27, fast start-up). Each case runs xlir-opt's `main` in a fresh
interpreter and reads what it imported from `sys.modules`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xlir.entry_points import EntryPoint

HEAVY = ("llvmlite", "xlir.targets", "xlir.evaluator", "xlir.lowering.llvm")
"""The packages a run that neither executes nor emits code does without."""

PROBE = """\
import sys
from {tool} import main

try:
    main(sys.argv[1:])
except SystemExit as exit:
    status = exit.code
prefixes = tuple(sys.stdin.read().split())
heavy = sorted(m for m in sys.modules if m.startswith(prefixes))
print(status, *heavy, file=sys.stderr)
"""

PROGRAM = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.add %a, %a : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
"""


NUMERIC = ("numpy", "ml_dtypes")
"""What parsing, verifying and printing do without: they need the widths of
element types (xlir/element_types.py), not their host dtypes."""


def _imported(
    *argv: str, of: tuple[str, ...] = HEAVY, tool: str = "xlir.tools.opt"
) -> list[str]:
    """The modules of `of` that the tool (`xlir-opt`) imported when run on
    ARGV (it must succeed)."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(tool=tool), *argv],
        input=" ".join(of),
        capture_output=True,
        text=True,
        check=True,
    )
    status, *heavy = result.stderr.split("\n")[-2].split()
    assert status == "0", result.stderr
    return heavy


@pytest.fixture
def program(tmp_path: Path) -> str:
    path = tmp_path / "small.mlir"
    path.write_text(PROGRAM)
    return str(path)


def test_help_imports_no_runtime() -> None:
    assert _imported("--help") == []


NOT_FOR_HELP = (
    "subprocess",
    "xlir.passes.hlo.fusion",
    "xlir.tools.fusion_graph",
    "xlir.tools.expected_diagnostics",
    "xlir.tools.list_passes",
    "xlir.dialects.stablehlo",
)
"""What `--help` (its options, and the passes `-p` can name) does without:
the `--view-graph` picture (graphviz's `dot` run as a subprocess, the
fusion pass's refusals), `--verify-diagnostics`' annotations,
`--list-passes`' table, and the dialects (no input is read)."""


def test_help_imports_only_what_it_prints() -> None:
    assert _imported("--help", of=NOT_FOR_HELP) == []
    assert _imported("--help", of=("importlib.metadata", "html", "traceback")) == []


def test_parse_and_print_import_no_numpy(program: str) -> None:
    assert _imported(program, of=NUMERIC) == []


@pytest.mark.parametrize("passes", [[], ["-p", "cse,dce"], ["-p", "inline,fuse"]])
def test_hlo_passes_import_no_runtime(program: str, passes: list[str]) -> None:
    assert _imported(program, *passes) == []


NOT_FOR_A_PLAIN_RUN = (
    "xlir.tools.expected_diagnostics",
    "xlir.tools.list_passes",
    "xlir.dialects.stablehlo.attributes",
    "importlib.metadata",
    "email",
    "xdsl.xdsl_opt_main",
    "xdsl.universe",
)
"""What parsing and printing adds and multiplies does without: annotations
are read only under `--verify-diagnostics`, the pass table only for
`--list-passes`, the dimension-number attributes only by the ops that carry
them (comparisons take theirs from `enums`), and `importlib.metadata` (with
`email`): entry points are read without it (xlir/entry_points.py), and
xDSL's driver, which imports it for `--version`, is not xlir-opt's."""


def test_plain_run_imports_only_what_it_uses(program: str) -> None:
    assert _imported(program, of=NOT_FOR_A_PLAIN_RUN) == []


def test_compare_needs_no_dimension_numbers(tmp_path: Path) -> None:
    path = tmp_path / "compare.mlir"
    path.write_text(
        PROGRAM.replace(
            "%2 = stablehlo.multiply %0, %1 : tensor<4xf32>",
            "%c = stablehlo.compare LT, %0, %1, FLOAT : "
            "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
            "  %2 = stablehlo.select %c, %0, %1 : tensor<4xi1>, tensor<4xf32>",
        )
    )
    of = ("xlir.dialects.stablehlo.attributes", "xlir.dialects.stablehlo.enums")
    assert _imported(str(path), of=of) == ["xlir.dialects.stablehlo.enums"]


def test_hlo_opt_imports_no_target(program: str) -> None:
    """`hlo-opt` folds constants with the evaluator, never through a target."""
    imported = _imported(program, "-p", "hlo-opt")
    assert [m for m in imported if not m.startswith("xlir.evaluator")] == []


KERNELS = ("xlir.evaluator.hlo.elementwise", "xlir.evaluator.hlo.engine")
"""The evaluator's kernels, which `fold-constants` loads only to fold."""

FOLDABLE = PROGRAM.replace(
    "%0 = stablehlo.add %a, %a",
    "%c = stablehlo.constant dense<1.0> : tensor<4xf32>\n  %0 = stablehlo.add %c, %c",
)


def test_hlo_opt_loads_the_kernels_only_to_fold(program: str, tmp_path: Path) -> None:
    assert _imported(program, "-p", "hlo-opt", of=KERNELS) == []
    foldable = tmp_path / "foldable.mlir"
    foldable.write_text(FOLDABLE)
    assert _imported(str(foldable), "-p", "fold-constants", of=KERNELS) == list(KERNELS)


ACCEL_PROGRAM = """\
accel.kernel "scale", 1 {
^bb0(%a0 : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %t0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x<t0>
}
"""


def test_accel_dialect_imports_no_runtime(tmp_path: Path) -> None:
    """The accel dialect is built from the XA-1 instruction table, which lives
    with its target: reading it brings in neither the runtime nor numpy."""
    path = tmp_path / "accel.mlir"
    path.write_text(ACCEL_PROGRAM)
    heavy = ("numpy", "llvmlite", "xlir.targets.base", "xlir.evaluator")
    assert _imported(str(path), of=heavy) == []


def test_accel_assembly_imports_no_llvm(tmp_path: Path) -> None:
    """`xlir-accel asm` prints assembly; only the simulator's matrix unit
    compiles native code."""
    path = tmp_path / "accel.mlir"
    path.write_text(ACCEL_PROGRAM)
    tool = "xlir.targets.accel.cli"
    assert _imported("asm", str(path), of=("llvmlite",), tool=tool) == []


FAMILIES = "xlir.dialects.stablehlo."


def test_parse_builds_only_the_families_it_meets(program: str) -> None:
    """A context imports a stablehlo family when it meets one of its names
    (xlir/lazy_dialect.py): adds and multiplies build the elementwise ops,
    not the collectives, reductions or convolutions."""
    families = ("collectives", "contraction", "control_flow", "data_movement")
    of = (*(FAMILIES + f for f in families), FAMILIES + "elementwise")
    assert _imported(program, of=of) == [FAMILIES + "elementwise"]


def test_stablehlo_table_names_every_class_of_its_family() -> None:
    """The lazy dialect's table is what each family's list defines, so that
    no op is missing from a context and none is listed twice."""
    from pkgutil import resolve_name

    from xlir.dialects.stablehlo import StableHLO

    tables = (StableHLO._op_families, StableHLO._attribute_families)
    for table in tables:
        listed: dict[str, list[str]] = {}
        for name, family in table.items():
            listed.setdefault(family, []).append(name)
        for family, names in listed.items():
            assert sorted(names) == sorted(c.name for c in resolve_name(family))
    assert len(list(StableHLO.operations)) == len(tables[0])
    assert len(list(StableHLO.attributes)) == len(tables[1])


def test_context_finds_each_stablehlo_name_by_its_family() -> None:
    from xlir.dialects.stablehlo.collectives import AllReduceOp
    from xlir.dialects.stablehlo.control_flow import TokenType
    from xlir.dialects.stablehlo.linalg import LINALG_ATTRIBUTES

    from xlir.context import make_context

    ctx = make_context()
    assert ctx.get_optional_op("stablehlo.all_reduce") is AllReduceOp
    assert ctx.get_optional_type("stablehlo.token") is TokenType
    assert ctx.get_optional_attr("stablehlo.token") is None
    assert ctx.get_optional_attr("stablehlo.fft_type") is LINALG_ATTRIBUTES[1]
    assert ctx.get_optional_op("stablehlo.no_such_op") is None
    assert ctx.get_optional_op("return", dialect_stack=["stablehlo"]) is not None


def test_printing_mlir_imports_no_assembly_printer(program: str) -> None:
    """`-t asm` (xlir/assembly.py, on xDSL's assembly printer) is imported
    only when asked for."""
    assert _imported(program, of=("xlir.assembly", "xdsl.backend")) == []


def test_registries_read_the_entry_points_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each reading of entry points goes through every installed package's
    metadata: the registries of all groups share one."""
    from xlir import registry

    reads: list[object] = []
    read = registry.read_entry_points

    def counted() -> dict[str, list[EntryPoint]]:
        reads.append(read)
        return read()

    registry._every_entry_point.cache_clear()
    monkeypatch.setattr(registry, "read_entry_points", counted)
    assert "hlo-opt" in registry.Registry("xlir.pipelines", "pipeline")
    assert "cse" in registry.Registry("xlir.passes", "pass")
    assert reads == [read]
    registry._every_entry_point.cache_clear()


FREEZE_PROBE = """\
import atexit, gc, sys
atexit.register(lambda: print(gc.get_freeze_count(), file=sys.stderr))
from xlir.tools.opt import main
main(sys.argv[1:])
"""


def test_a_tool_leaves_its_modules_out_of_the_last_collection(program: str) -> None:
    """`run_command` freezes the heap at exit (tools/cli.py), so that the
    interpreter's last collection does not walk what the imports built;
    the probe's handler, registered first, runs after that freeze."""
    result = subprocess.run(
        [sys.executable, "-c", FREEZE_PROBE, program],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "stablehlo.multiply" in result.stdout
    assert int(result.stderr.split()[-1]) > 0
