"""`xlir-opt`: parse, run a pass pipeline, print — xdsl-opt with xlir's
dialects and passes, MLIR-style diagnostics, and debugging aids:

* `--print-ir-after-all [DIR]`: the IR after each pass, on stdout or as
  numbered files `DIR/NN-pass.mlir`;
* `--pass-timing`: a table of wall time per pass, on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)
from xdsl.xdsl_opt_main import xDSLOptMain
from xlir.passes.registry import PASSES

from xlir.context import DIALECTS
from xlir.diagnostics import XlirError, format_parse_error, verify_module
from xlir.parsing import XlirParser


class XlirOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        self._sources: dict[str, str] = {}
        self._timings: list[tuple[str, float]] = []
        self._dump_index = 0
        super().__init__(description="xlir modular optimizer driver", args=args)

    # --- registration -----------------------------------------------------

    def register_all_dialects(self):
        for name, factory in DIALECTS.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        for name, factory in PASSES.items():
            self.register_pass(name, factory)

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
        arg_parser.add_argument(
            "--print-ir-after-all",
            nargs="?",
            const="-",
            default=None,
            metavar="DIR",
            help="print the IR after every pass: to stdout, or with a DIR as "
            "numbered files DIR/NN-pass.mlir",
        )
        arg_parser.add_argument(
            "--pass-timing",
            action="store_true",
            help="print a table of the wall time of each pass on stderr",
        )

    # --- pipeline -----------------------------------------------------------

    def setup_pipeline(self):
        started = time.perf_counter()

        def callback(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            nonlocal started
            if previous is not None:
                self._timings.append((previous.name, time.perf_counter() - started))
                if not self.args.disable_verify:
                    verify_module(module, self._sources)
                if self.args.print_ir_after_all is not None:
                    self._dump_after(previous, module)
            started = time.perf_counter()

        self.pipeline = PassPipeline.parse_spec(
            self.available_passes, self.args.passes, callback
        )

    def _dump_after(self, pass_: ModulePass, module: ModuleOp) -> None:
        self._dump_index += 1
        text = StringIO()
        Printer(stream=text).print_op(module)
        target = self.args.print_ir_after_all
        if target == "-":
            print(f"// -----// IR Dump After {pass_.name} //----- //", file=sys.stdout)
            print(text.getvalue(), file=sys.stdout)
            return
        folder = Path(target)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self._dump_index:02d}-{pass_.name}.mlir").write_text(
            text.getvalue() + "\n"
        )

    def print_pass_timing(self) -> None:
        if not self.args.pass_timing:
            return
        total = sum(t for _, t in self._timings) or 1e-12
        err = sys.stderr
        print("===" + "-" * 60 + "===", file=err)
        print("  xlir-opt pass timing report", file=err)
        print("===" + "-" * 60 + "===", file=err)
        print(f"  {'wall time (s)':>14}  {'share':>7}  pass", file=err)
        for name, seconds in self._timings:
            print(f"  {seconds:14.6f}  {100 * seconds / total:6.1f}%  {name}", file=err)
        print(f"  {total:14.6f}  {100.0:6.1f}%  total", file=err)

    # --- running ------------------------------------------------------------

    def run(self):
        try:
            self._run_chunks()
        finally:
            self.print_pass_timing()

    def _run_chunks(self) -> None:
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
        XlirOptMain(args).run()
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
