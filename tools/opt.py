"""`xlir-opt`: parse, run a pass pipeline, print — xdsl-opt with xlir's
dialects and passes, MLIR-style diagnostics, and debugging aids:

* `--print-ir-after-all`, `--print-ir-after=PASS`: the IR after passes;
* `--dump-dir DIR`: the input and the IR after each pass as numbered files;
* `--pass-timing`, `--pass-statistics`: tables per pass, on stderr;
* `--buffer-report`: the buffer plan's figures and buffers, on stderr;
* `--view-graph=FILE.svg|.dot|.html`: a picture of the fused program
  (`tools/fusion_graph.py`, `tools/graph_picture.py`);
* `--reproducer FILE`: the input of a failing pass and the rest of the
  pipeline, replayed by `--run-reproducer`;
* `-t asm`: the kernels of a target's own assembly dialect as assembly.

Pipelines may name the pipelines of `xlir.pass_manager.PIPELINES` (`hlo-opt`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)
from xdsl.xdsl_opt_main import xDSLOptMain
from xlir.tools.cli import UsageError, run_command
from xlir.tools.graph_picture import SUFFIXES
from xlir.tools.instruments import (
    REPRODUCER_HEADER,
    IRPrinter,
    Reproducer,
    Statistics,
    Timing,
    reproducer_pipeline,
)
from xlir.tools.mlir_pipeline import flat_spec

from xlir.context import make_context
from xlir.diagnostics import (
    XlirError,
    decode_source,
    format_parse_error,
    verify_module,
)
from xlir.parsing import XlirParser
from xlir.pass_manager import PASSES, Instrument, PassManager, verify_result

if TYPE_CHECKING:
    from xdsl.utils.target import Target
    from xlir.passes.hlo.fusion.explain import Refusal
    from xlir.tools.expected_diagnostics import Emitted, Expected


def planned_temp_bytes(module: ModuleOp) -> int | None:
    """The temp arena bytes of the buffer plans (on the module's functions),
    if planned."""
    # Imported here, as the buffer report below: the buffer plan's modules
    # load the HLO dialects, which a run that never asks for them skips.
    from xlir.dialects.hlo_buffers import PLAN, PlanAttr

    arenas = [
        plan.arena.data
        for op in module.ops
        if isinstance(plan := op.attributes.get(PLAN), PlanAttr)
    ]
    return sum(arenas) if arenas else None


PROG = "xlir-opt"

UNUSED_XDSL_FLAGS = frozenset(("--print-between-passes", "--time-passes", "--shrink"))
"""xdsl-opt's flags that xlir-opt's own driver loop does not implement; the
debugging aids below do their work (`--print-ir-after-all`, `--pass-timing`)."""


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


def _mlir_target() -> type[Target]:
    # Imported when asked for, as the next, not found through xDSL's
    # `Universe`, which reads every installed plug-in's entry points.
    from xdsl.targets.mlir import MLIRTarget

    return MLIRTarget


def _assembly_target() -> type[Target]:
    from xlir.assembly import AssemblyTarget

    return AssemblyTarget


class XlirOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        self._sources: dict[str, str] = {}
        self._spec = ""
        self._dumper: IRPrinter | None = None
        super().__init__(description="xlir modular optimizer driver", args=args)

    # --- registration -----------------------------------------------------

    def register_all_dialects(self):
        """xlir's dialects, in xlir's context (which keeps JAX's sdy and mhlo
        attributes as opaque ones)."""
        self.ctx = make_context()

    def register_all_passes(self):
        for name in PASSES:
            self.register_pass(name, partial(PASSES.__getitem__, name))

    def register_all_targets(self):
        """`mlir`, and `asm`: the kernels of a target's own assembly dialect
        as assembly text (xlir/assembly.py). xDSL's other targets print its
        own dialects (riscv, x86, wasm, ...), which xlir's modules never
        hold; LLVM IR, assembly and objects come from `xlir-translate`."""
        self.available_targets["mlir"] = _mlir_target
        self.available_targets["asm"] = _assembly_target

    def _check_pipeline(self) -> None:
        """Unknown passes and bad options are reported before any input is
        read."""
        PassManager(self._spec)
        picture = self.args.view_graph
        if picture and self.args.split_input_file:
            raise UsageError(
                "--view-graph draws one module: not with --split-input-file"
            )
        if picture and Path(picture).suffix not in SUFFIXES:
            raise UsageError(
                f"--view-graph={picture}: expected a file ending in "
                f"{', '.join(SUFFIXES)}"
            )
        for flag, named in (
            ("--print-ir-after", self.args.print_ir_after),
            ("--print-ir-before", self.args.print_ir_before),
        ):
            unknown = [n for n in named.split(",") if n not in PASSES] if named else []
            if unknown:
                raise UsageError(
                    f"{flag}: unknown pass(es) {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(sorted(PASSES))}"
                )

    def register_all_frontends(self):
        def parse_mlir(io: IO[bytes], line_offset: int = 0) -> ModuleOp:
            name = self.get_input_name()
            text = decode_source(io.read(), name)
            self._sources[name] = text
            parser = XlirParser(self.ctx, text, name, line_offset)
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir  # type: ignore[assignment]

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input file (stdin for none or `-`), read as MLIR whatever its
        extension: xlir-opt has that one frontend."""
        name = self.args.input_file
        if name is None or name == "-":
            return sys.stdin.buffer, "mlir"
        try:
            return open(name, "rb"), "mlir"
        except OSError as error:
            raise UsageError(f"cannot read {name}: {error.strerror}") from None

    def prepare_output(self) -> IO[str]:
        name = self.args.output_file
        if name is None or name == "-":
            return sys.stdout
        try:
            return open(name, "w")
        except OSError as error:
            raise UsageError(f"cannot write {name}: {error.strerror}") from None

    def get_input_name(self) -> str:
        name = self.args.input_file
        return "<stdin>" if name is None or name == "-" else name

    def parse_chunk(self, chunk, file_extension, start_offset=0):  # type: ignore[override]
        module = self.available_frontends[file_extension](chunk, start_offset)  # type: ignore[call-arg]
        if not self.args.disable_verify:
            verify_module(module, self._sources)
        return module

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        add_argument = arg_parser.add_argument

        def add_used_argument(*names: str, **options: Any) -> argparse.Action | None:
            if UNUSED_XDSL_FLAGS.intersection(names):
                return None
            if "--verify-diagnostics" in names:
                options["help"] = (
                    "check the input's expected-error/-note/-warning annotations "
                    "as mlir-opt does; without annotations, print each chunk's "
                    "diagnostic on stdout and exit 0, for FileCheck"
                )
            return add_argument(*spellings(names), **options)

        arg_parser.add_argument = add_used_argument  # pyright: ignore[reportAttributeAccessIssue]
        try:
            super().register_all_arguments(arg_parser)
        finally:
            del arg_parser.add_argument  # pyright: ignore[reportAttributeAccessIssue]
        add_argument(
            *spellings(["--pass-pipeline"]),
            metavar="PIPELINE",
            help="the pass pipeline in MLIR's syntax, "
            "'builtin.module(inline,func.func(cse))' (instead of -p)",
        )
        add_argument(
            *spellings(["--list-passes"]),
            action="store_true",
            help="list the passes and pipelines -p can name, with their options",
        )
        aids = arg_parser.add_argument_group("debugging aids")

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

    # --- pipeline -----------------------------------------------------------

    def setup_pipeline(self):
        args = self.args
        spec = args.passes
        if args.pass_pipeline is not None:
            if spec:
                raise UsageError(
                    "give the pipeline with -p or --pass-pipeline, not both"
                )
            spec = flat_spec(args.pass_pipeline)
        if args.run_reproducer:
            spec = self._reproducer_spec()
        self._spec = spec

    def _reproducer_spec(self) -> str:
        name = self.args.input_file
        if name is None:
            raise XlirError("error: --run-reproducer needs an input file")
        spec = reproducer_pipeline(Path(name).read_text())
        if spec is None:
            raise XlirError(
                f"{name}:1:1: error: expected a reproducer header "
                f"'{REPRODUCER_HEADER}-p PIPELINE' on the first line"
            )
        return spec

    def _ir_printer(self) -> IRPrinter | None:
        """The dumps on stdout that the --print-ir-* flags ask for."""
        args = self.args

        def named(all_: bool, names: str | None) -> list[str] | None:
            return None if all_ else (names.split(",") if names else [])

        after = named(args.print_ir_after_all, args.print_ir_after)
        before = named(args.print_ir_before_all, args.print_ir_before)
        if args.print_ir_after_change and after == []:
            after = None
        if after == [] and before == []:
            return None
        return IRPrinter(
            after, sys.stdout, before=before, only_changes=args.print_ir_after_change
        )

    def _pass_manager(self) -> PassManager:
        args = self.args
        instruments: list[Instrument] = []
        printer = self._ir_printer()
        if printer is not None:
            instruments.append(printer)
        if args.dump_dir:
            self._dumper = IRPrinter(None, folder=Path(args.dump_dir))
            instruments.append(self._dumper)
        if args.pass_timing:
            instruments.append(Timing())
        if args.pass_statistics:
            instruments.append(Statistics(planned_temp_bytes))
        manager = PassManager(
            self._spec,
            instruments,
            verify_each=args.verify_each and not args.disable_verify,
            sources=self._sources,
        )
        if args.reproducer:
            manager.instruments.append(
                Reproducer(Path(args.reproducer), manager.remaining_spec)
            )
        return manager

    def apply_passes(self, prog: ModuleOp):
        manager = self._pass_manager()
        if self._dumper is not None:
            self._dumper.dump_input(prog)
        picture = self.args.view_graph
        with self._recording_refusals() as refusals:
            manager.run(self.ctx, prog)
        if manager.passes and not (manager.verify_each or self.args.disable_verify):
            verify_result(prog, self._spec, self._sources)
        if self.args.buffer_report:
            from xlir.passes.hlo.buffers.report import buffer_report

            sys.stderr.write(buffer_report(prog))
        if picture:
            from xlir.tools.graph_picture import write_picture

            title = f"{self.get_input_name()} after -p {self._spec or '(no passes)'}"
            write_picture(prog, refusals or [], Path(picture), title)

    def _recording_refusals(self) -> AbstractContextManager[list[Refusal] | None]:
        """The fusion refusals' recorder where `--view-graph` draws them
        (imported then only, as the picture's modules and the buffer
        report)."""
        if not self.args.view_graph:
            return nullcontext()
        from xlir.passes.hlo.fusion.explain import recording_refusals

        return recording_refusals()

    # --- running ------------------------------------------------------------

    def run(self):
        if self.args.list_passes:
            from xlir.tools.list_passes import list_passes

            sys.stdout.write(list_passes())
            return
        self._check_pipeline()
        chunks, file_extension = self.prepare_input()
        output = self.prepare_output()
        name = self.get_input_name()
        annotated = self.args.verify_diagnostics and self._annotated()
        if annotated:  # imported only to check annotations
            from xlir.tools.expected_diagnostics import emitted, expectations, unmet
        expected: list[Expected] = []
        diagnostics: list[Emitted] = []
        malformed: list[str] = []
        try:
            for index, (chunk, offset) in enumerate(chunks):
                if index > 0:
                    output.write("// -----\n")
                self._sources.pop(name, None)
                try:
                    module = self.parse_chunk(chunk, file_extension, offset)
                    self.apply_passes(module)
                    output.write(self.output_resulting_program(module))
                except (ParseError, XlirError, DiagnosticException) as error:
                    message = self._diagnostic(error, offset)
                    if annotated:
                        diagnostics += emitted(message)
                    else:
                        output.write(message + "\n")
                finally:
                    chunk.close()
                if annotated:
                    found, problems = expectations(
                        self._sources.get(name, ""), offset, name
                    )
                    expected += found
                    malformed += problems
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
        if annotated:
            reports = malformed + unmet(name, expected, diagnostics)
            if reports:
                raise XlirError("\n".join(reports))

    def _annotated(self) -> bool:
        """Whether the input holds `expected-*` annotations: then
        `--verify-diagnostics` checks them as mlir-opt does; without any, it
        prints the diagnostics (exit status 0) for FileCheck, as xdsl-opt
        does."""
        from xlir.tools.expected_diagnostics import has_annotations

        name = self.args.input_file
        if name is None or name == "-":
            return False
        try:
            return has_annotations(Path(name).read_text(errors="replace"))
        except OSError:
            return False

    def _diagnostic(
        self, error: ParseError | XlirError | DiagnosticException, offset: int
    ) -> str:
        """The error as a finished diagnostic; re-raised unless a
        diagnostics mode asks to go on with the next chunk."""
        args = self.args
        if isinstance(error, ParseError):
            message = format_parse_error(error, offset)
            if not (args.parsing_diagnostics or args.verify_diagnostics):
                raise XlirError(message) from None
            return message
        if not args.verify_diagnostics:
            if isinstance(error, XlirError):
                raise error
            raise XlirError(f"error: {error}") from None
        return str(error) if isinstance(error, XlirError) else f"error: {error}"


def main(args: Sequence[str] | None = None) -> None:
    def body() -> int:
        try:
            XlirOptMain(args).run()
        except ArgSpecParseError as error:
            raise UsageError(str(error)) from None
        except BrokenPipeError:
            raise
        except OSError as error:  # the input or an output file
            raise UsageError(f"{error.filename}: {error.strerror}") from None
        return 0

    run_command(PROG, body)


if __name__ == "__main__":
    main()
