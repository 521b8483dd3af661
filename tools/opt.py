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
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from io import BytesIO, StringIO
from itertools import accumulate
from pathlib import Path
from typing import IO, TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)
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
from xlir.tools.opt_arguments import add_arguments

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


def _mlir_target() -> type[Target]:
    # Imported when asked for, as the next, not found through xDSL's
    # `Universe`, which reads every installed plug-in's entry points.
    from xlir.printing import BitExactMLIRTarget

    return BitExactMLIRTarget


def _assembly_target() -> type[Target]:
    from xlir.assembly import AssemblyTarget

    return AssemblyTarget


TARGETS: dict[str, Callable[[], type[Target]]] = {
    "mlir": _mlir_target,
    "asm": _assembly_target,
}
"""The output forms `-t` names: MLIR text, and `asm`, the kernels of a
target's own assembly dialect as assembly text (xlir/assembly.py). xDSL's
other targets print its own dialects (riscv, x86, wasm, ...), which xlir's
modules never hold; LLVM IR, assembly and objects come from
`xlir-translate`."""


def _unverified_attribute(self: Attribute) -> None:
    """What `--disable-verify` makes of attributes' verification on
    construction (as xdsl-opt does)."""


class XlirOptMain:
    """xdsl-opt's driver, on xlir's context (xlir's dialects, JAX's sdy and
    mhlo attributes kept as opaque ones), passes and diagnostics. It does
    without xDSL's own driver class, which imports `importlib.metadata`
    (with `email`, `csv` and `zipfile`) for its `--version` on every run."""

    def __init__(self, args: Sequence[str] | None = None):
        self._sources: dict[str, str] = {}
        self._spec = ""
        self._dumper: IRPrinter | None = None
        self.ctx = make_context()
        parser = argparse.ArgumentParser(description="xlir modular optimizer driver")
        add_arguments(parser, PASSES, TARGETS)
        self.args = parser.parse_args(args)
        target = parse_spec(self.args.target).name
        if target not in TARGETS:
            parser.error(
                f"argument -t/--target: invalid choice: '{target}' "
                f"(choose from {', '.join(TARGETS)})"
            )
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        if self.args.disable_verify:
            Attribute.__post_init__ = _unverified_attribute
        if self.args.syntax_highlight:
            from xdsl.utils.diagnostic import Diagnostic

            Diagnostic.colored = True
        self.setup_pipeline()

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

    # --- input and output ---------------------------------------------------

    def get_input_stream(self) -> IO[bytes]:
        """The input file (stdin for none or `-`), read as MLIR whatever its
        extension: xlir-opt has that one frontend."""
        name = self.args.input_file
        if name is None or name == "-":
            return sys.stdin.buffer
        try:
            return open(name, "rb")
        except OSError as error:
            raise UsageError(f"cannot read {name}: {error.strerror}") from None

    def prepare_input(self) -> list[tuple[IO[bytes], int]]:
        """The input's chunks, each with the number of lines before it: the
        whole input, or under `--split-input-file` its pieces between
        `// -----` lines."""
        stream = self.get_input_stream()
        if not self.args.split_input_file:
            return [(stream, 0)]
        with stream:
            pieces = stream.read().split(b"// -----")
        starts = accumulate([0, *(piece.count(b"\n") for piece in pieces[:-1])])
        return [
            (BytesIO(piece), start) for piece, start in zip(pieces, starts, strict=True)
        ]

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

    def parse_chunk(self, chunk: IO[bytes], line_offset: int = 0) -> ModuleOp:
        """A chunk parsed (and verified, unless `--disable-verify`)."""
        name = self.get_input_name()
        text = decode_source(chunk.read(), name)
        self._sources[name] = text
        parser = XlirParser(self.ctx, text, name, line_offset)
        module = parser.parse_module(not self.args.no_implicit_module)
        if not self.args.disable_verify:
            verify_module(module, self._sources)
        return module

    def output_resulting_program(self, module: ModuleOp) -> str:
        """The module in the form `-t` names, with the printing flags."""
        spec = parse_spec(self.args.target)
        target = TARGETS[spec.name]().from_spec(spec)
        if spec.name == "mlir":
            target = replace(
                target,
                print_generic_format=self.args.print_op_generic,
                print_properties_as_attributes=self.args.print_no_properties,
                print_debuginfo=self.args.print_debuginfo,
                syntax_highlight=self.args.syntax_highlight,
            )
        output = StringIO()
        target.emit(self.ctx, module, output)
        return output.getvalue()

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
        chunks = self.prepare_input()
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
                    module = self.parse_chunk(chunk, offset)
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
