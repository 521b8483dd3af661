"""`xlir-opt`: parse, run a pass pipeline, print — xdsl-opt with xlir's
dialects and passes, MLIR-style diagnostics, and debugging aids:

* `--print-ir-after-all`, `--print-ir-after=PASS`: the IR after passes;
* `--dump-dir DIR`: the input and the IR after each pass as numbered files;
* `--pass-timing`, `--pass-statistics`: tables per pass, on stderr;
* `--buffer-report`: the buffer plan's figures and buffers, on stderr;
* `--reproducer FILE`: the input of a failing pass and the rest of the
  pipeline, replayed by `--run-reproducer`.

Pipelines may name the pipelines of `xlir.pass_manager.PIPELINES` (`hlo-opt`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)
from xdsl.xdsl_opt_main import xDSLOptMain
from xlir.dialects.hlo_buffers import PLAN, PlanAttr
from xlir.passes.buffers.report import buffer_report
from xlir.passes.registry import PASSES
from xlir.tools.instruments import (
    REPRODUCER_HEADER,
    IRPrinter,
    Reproducer,
    Statistics,
    Timing,
    reproducer_pipeline,
)

from xlir.context import DIALECTS
from xlir.deep_stack import run_deep
from xlir.diagnostics import XlirError, format_parse_error, verify_module
from xlir.parsing import XlirParser
from xlir.pass_manager import Instrument, PassManager, expand, verify_result


def planned_temp_bytes(module: ModuleOp) -> int | None:
    """The temp arena bytes of the buffer plans (on the module's functions),
    if planned."""
    arenas = [
        plan.arena.data
        for op in module.ops
        if isinstance(plan := op.attributes.get(PLAN), PlanAttr)
    ]
    return sum(arenas) if arenas else None


class XlirOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        self._sources: dict[str, str] = {}
        self._spec = ""
        self._dumper: IRPrinter | None = None
        super().__init__(description="xlir modular optimizer driver", args=args)

    # --- registration -----------------------------------------------------

    def register_all_dialects(self):
        for name, factory in DIALECTS.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        for name, factory in PASSES.items():
            self.register_pass(name, factory)

    def _check_pipeline(self) -> None:
        """Unknown passes are reported before any input is read."""
        expand(self._spec)

    def register_all_frontends(self):
        def parse_mlir(io: IO[bytes], line_offset: int = 0) -> ModuleOp:
            text = io.read().decode()
            name = self.get_input_name()
            self._sources[name] = text
            parser = XlirParser(self.ctx, text, name, line_offset)
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir  # type: ignore[assignment]

    def parse_chunk(self, chunk, file_extension, start_offset=0):  # type: ignore[override]
        module = self.available_frontends[file_extension](chunk, start_offset)  # type: ignore[call-arg]
        if not self.args.disable_verify:
            verify_module(module, self._sources)
        return module

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        aids = arg_parser.add_argument_group("debugging aids")
        aids.add_argument(
            "--verify-each",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="verify the IR after every pass and name the pass that breaks "
            "it (on by default, as in mlir-opt; --no-verify-each verifies the "
            "input and the final result only)",
        )
        aids.add_argument(
            "--print-ir-after-all",
            action="store_true",
            help="print the IR after every pass on stdout",
        )
        aids.add_argument(
            "--print-ir-after",
            metavar="PASS[,PASS]",
            help="print the IR after each run of the named passes on stdout",
        )
        aids.add_argument(
            "--dump-dir",
            metavar="DIR",
            help="write the input and the IR after every pass as numbered files "
            "DIR/00-input.mlir, DIR/01-PASS.mlir, ...",
        )
        aids.add_argument(
            "--pass-timing",
            action="store_true",
            help="print a table of the wall time of each pass on stderr",
        )
        aids.add_argument(
            "--pass-statistics",
            action="store_true",
            help="print, per pass, ops before and after, fusions and planned temp "
            "bytes on stderr",
        )
        aids.add_argument(
            "--buffer-report",
            action="store_true",
            help="print the buffer plan's figures (argument, output, alias, temp, "
            "constant bytes) and its buffers per function on stderr",
        )
        aids.add_argument(
            "--reproducer",
            metavar="FILE",
            help="when a pass fails, write the IR it was given and the rest of the "
            "pipeline to FILE",
        )
        aids.add_argument(
            "--run-reproducer",
            action="store_true",
            help="take the pipeline from the input file's reproducer header",
        )

    # --- pipeline -----------------------------------------------------------

    def setup_pipeline(self):
        spec = self.args.passes
        if self.args.run_reproducer:
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

    def _pass_manager(self) -> PassManager:
        args = self.args
        instruments: list[Instrument] = []
        if args.print_ir_after_all or args.print_ir_after:
            after = None if args.print_ir_after_all else args.print_ir_after.split(",")
            instruments.append(IRPrinter(after, stream=sys.stdout))
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
        manager.run(self.ctx, prog)
        if manager.passes and not (manager.verify_each or self.args.disable_verify):
            verify_result(prog, self._spec, self._sources)
        if self.args.buffer_report:
            sys.stderr.write(buffer_report(prog))

    # --- running ------------------------------------------------------------

    def run(self):
        self._check_pipeline()
        chunks, file_extension = self.prepare_input()
        output = self.prepare_output()
        try:
            for index, (chunk, offset) in enumerate(chunks):
                if index > 0:
                    output.write("// -----\n")
                try:
                    module = self.parse_chunk(chunk, file_extension, offset)
                    self.apply_passes(module)
                    output.write(self.output_resulting_program(module))
                except ParseError as error:
                    message = format_parse_error(error, offset)
                    if not (
                        self.args.parsing_diagnostics or self.args.verify_diagnostics
                    ):
                        raise XlirError(message) from None
                    output.write(message + "\n")
                except XlirError as error:
                    if not self.args.verify_diagnostics:
                        raise
                    output.write(str(error) + "\n")
                except DiagnosticException as error:
                    if not self.args.verify_diagnostics:
                        raise XlirError(f"error: {error}") from None
                    output.write(f"error: {error}\n")
                finally:
                    chunk.close()
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()


def main(args: Sequence[str] | None = None) -> None:
    try:
        run_deep(XlirOptMain(args).run)
    except XlirError as error:
        sys.stdout.flush()
        print(error, file=sys.stderr)
        raise SystemExit(1) from None
    except ArgSpecParseError as error:
        print(f"xlir-opt: error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    except FileNotFoundError as error:
        print(f"xlir-opt: error: {error.strerror}: {error.filename}", file=sys.stderr)
        raise SystemExit(1) from None
    except ValueError as error:
        print(f"xlir-opt: error: {error}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
