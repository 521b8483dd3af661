"""`xlir-opt`'s command line: xdsl-opt's flags that xlir-opt implements,
xlir-opt's own, and the mlir-opt spellings of both (`-split-input-file`,
`--mlir-print-ir-after-all`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from typing import Any

from xlir.tools.graph_picture import SUFFIXES

MLIR_SPELLINGS = {
    "--print-ir-after-all": "--mlir-print-ir-after-all",
    "--print-ir-after": "--mlir-print-ir-after",
    "--print-ir-before-all": "--mlir-print-ir-before-all",
    "--print-ir-before": "--mlir-print-ir-before",
    "--print-ir-after-change": "--mlir-print-ir-after-change",
    "--print-ir-module-scope": "--mlir-print-ir-module-scope",
    "--pass-timing": "--mlir-timing",
    "--pass-statistics": "--mlir-pass-statistics",
    "--print-op-generic": "--mlir-print-op-generic",
    "--print-debuginfo": "--mlir-print-debuginfo",
}
"""mlir-opt's names of the flags xlir-opt has under its own."""


def spellings(names: Sequence[str]) -> list[str]:
    """A flag's names, its mlir-opt name, and each long name with one dash
    too (`-split-input-file`), as LLVM's command lines accept."""
    long = [n for n in names if n.startswith("--")]
    long += [MLIR_SPELLINGS[n] for n in long if n in MLIR_SPELLINGS]
    return [*names, *(n for n in long if n not in names), *(n[1:] for n in long)]


class _Version(argparse.Action):
    """`--version`: the versions of xlir and of the xDSL it runs on (read
    from their metadata only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **options: Any):
        super().__init__(option_strings, dest, nargs=0, **options)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import version

        print(f"xlir-opt {version('xlir')} built from xdsl version {version('xdsl')}")
        parser.exit()


def add_arguments(
    parser: argparse.ArgumentParser, passes: Iterable[str], targets: Iterable[str]
) -> None:
    """Every flag of xlir-opt; `passes` and `targets` are named in the help
    of `-p` and `-t`."""

    def add(*names: str, **options: Any) -> None:
        parser.add_argument(*spellings(names), **options)

    def flag(*names: str, **options: Any) -> None:
        add(*names, action="store_true", **options)

    parser.add_argument("input_file", nargs="?", help="path to input file")
    add(
        "-f",
        "--frontend",
        choices=["mlir"],
        help="the input's format: MLIR text, whatever the file's extension",
    )
    flag("--disable-verify", help="verify neither the input nor the passes' output")
    flag(
        "--allow-unregistered-dialect",
        help="accept ops of dialects that are not registered",
    )
    flag(
        "--no-implicit-module",
        help="do not wrap the input in a builtin.module when its top-level "
        "op is another",
    )
    add(
        "-t",
        "--target",
        default="mlir",
        help=f"the output's form; available targets are: {','.join(targets)}",
    )
    add("-o", "--output-file", help="path to output file")
    add(
        "-p",
        "--passes",
        default="",
        help="comma-separated list of passes; available passes are: "
        + ",".join(passes),
    )
    flag(
        "--verify-diagnostics",
        help="check the input's expected-error/-note/-warning annotations as "
        "mlir-opt does; without annotations, print each chunk's diagnostic on "
        "stdout and exit 0, for FileCheck",
    )
    flag(
        "--parsing-diagnostics",
        help="print a parse error on stdout and exit 0",
    )
    flag(
        "--split-input-file",
        help="process each piece of the input between `// -----` lines as a "
        "file of its own",
    )
    flag("--print-op-generic", help="print operations in the generic format")
    flag(
        "--print-no-properties",
        help="print properties as attributes, for older readers",
    )
    flag("--print-debuginfo", help="print operations' locations")
    flag("--syntax-highlight", help="print with syntax highlighting on a terminal")
    add("-v", "--version", action=_Version, help="print the version and exit")
    add(
        "--pass-pipeline",
        metavar="PIPELINE",
        help="the pass pipeline in MLIR's syntax, "
        "'builtin.module(inline,func.func(cse))' (instead of -p)",
    )
    flag(
        "--list-passes",
        help="list the passes and pipelines -p can name, with their options",
    )
    _add_debugging_aids(parser.add_argument_group("debugging aids"))


def _add_debugging_aids(aids: argparse._ArgumentGroup) -> None:
    def aid(*names: str, **options: Any) -> None:
        aids.add_argument(*spellings(names), **options)

    aid(
        "--verify-each",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="verify the IR after every pass and name the pass that breaks "
        "it (on by default, as in mlir-opt; --no-verify-each verifies the "
        "input and the final result only)",
    )
    aid(
        "--print-ir-after-all",
        action="store_true",
        help="print the IR after every pass on stdout",
    )
    aid(
        "--print-ir-after",
        metavar="PASS[,PASS]",
        help="print the IR after each run of the named passes on stdout",
    )
    aid(
        "--print-ir-before-all",
        action="store_true",
        help="print the IR before every pass on stdout",
    )
    aid(
        "--print-ir-before",
        metavar="PASS[,PASS]",
        help="print the IR before each run of the named passes on stdout",
    )
    aid(
        "--print-ir-after-change",
        action="store_true",
        help="print the IR after a pass only where it changed the IR (after "
        "every pass unless --print-ir-after names some)",
    )
    aid(
        "--print-ir-module-scope",
        action="store_true",
        help="accepted for mlir-opt's habit: xlir's passes are module passes, "
        "so every dump is of the whole module",
    )
    aid(
        "--dump-dir",
        metavar="DIR",
        help="write the input and the IR after every pass as numbered files "
        "DIR/00-input.mlir, DIR/01-PASS.mlir, ...",
    )
    aid(
        "--pass-timing",
        action="store_true",
        help="print a table of the wall time of each pass on stderr",
    )
    aid(
        "--pass-statistics",
        action="store_true",
        help="print, per pass, ops before and after, fusions and planned temp "
        "bytes on stderr",
    )
    aid(
        "--buffer-report",
        action="store_true",
        help="print the buffer plan's figures (argument, output, alias, temp, "
        "constant bytes) and its buffers per function on stderr",
    )
    aid(
        "--view-graph",
        metavar="FILE",
        help="draw the program after the passes in FILE: fusions with their "
        "ops, kinds, shapes and buffers, and the pairs fuse refused with the "
        f"rule; FILE ends in {', '.join(SUFFIXES)} (.svg needs graphviz)",
    )
    aid(
        "--reproducer",
        metavar="FILE",
        help="when a pass fails, write the IR it was given and the rest of the "
        "pipeline to FILE",
    )
    aid(
        "--run-reproducer",
        action="store_true",
        help="take the pipeline from the input file's reproducer header",
    )
