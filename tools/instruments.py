"""xlir-opt's debugging aids, as pass-manager instruments: IR dumps before
and after passes, a timing table, a statistics table and a reproducer on failure."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xlir.pass_manager import Instrument
from xlir.printing import module_text
from xlir.walk import walk

RULE = "===" + "-" * 60 + "==="


class IRPrinter(Instrument):
    """The IR before and after the named passes (None: all), on a stream as
    MLIR's `// -----// IR Dump After` blocks, or as numbered files in a
    folder; with `only_changes`, an after-dump only where the pass changed
    the IR (MLIR's `--print-ir-after-change`)."""

    def __init__(
        self,
        passes: Collection[str] | None,
        stream: TextIO | None = None,
        folder: Path | None = None,
        before: Collection[str] | None = (),
        only_changes: bool = False,
    ):
        self.passes = passes
        self.before_passes = before
        self.only_changes = only_changes
        self.stream = stream
        self.folder = folder
        self.index = 0
        self.text_before = ""

    def dump_input(self, module: ModuleOp) -> None:
        """Write the parsed input as `00-input.mlir` (folders only)."""
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / "00-input.mlir").write_text(module_text(module))

    @staticmethod
    def _named(pass_: ModulePass, names: Collection[str] | None) -> bool:
        return names is None or pass_.name in names

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        if self.only_changes:
            self.text_before = module_text(module)
        if self.stream is not None and self._named(pass_, self.before_passes):
            self.stream.write(f"// -----// IR Dump Before {pass_.name} //----- //\n")
            self.stream.write(self.text_before or module_text(module))

    def after(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.index += 1
        if not self._named(pass_, self.passes):
            return
        text = module_text(module)
        if self.only_changes and text == self.text_before:
            return
        if self.stream is not None:
            self.stream.write(f"// -----// IR Dump After {pass_.name} //----- //\n")
            self.stream.write(text)
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / f"{self.index:02d}-{pass_.name}.mlir").write_text(text)


class Timing(Instrument):
    """Wall time per pass, printed as a table when the pipeline ends."""

    def __init__(self, stream: TextIO = sys.stderr):
        self.stream = stream
        self.rows: list[tuple[str, float]] = []
        self.started = 0.0

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.started = time.perf_counter()

    def after(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.rows.append((pass_.name, time.perf_counter() - self.started))

    def finish(self) -> None:
        if not self.rows:
            return
        total = sum(t for _, t in self.rows) or 1e-12
        out = self.stream
        print(f"{RULE}\n  xlir-opt pass timing report\n{RULE}", file=out)
        print(f"  {'wall time (s)':>14}  {'share':>7}  pass", file=out)
        for name, seconds in self.rows:
            print(f"  {seconds:14.6f}  {100 * seconds / total:6.1f}%  {name}", file=out)
        print(f"  {total:14.6f}  {100.0:6.1f}%  total", file=out)
        self.rows = []


def _count(module: ModuleOp) -> tuple[int, int]:
    """(ops, fusions) in the module, nested ops included."""
    ops = fusions = 0
    for op in walk(module):
        ops += 1
        fusions += op.name == "hlo.fusion"
    return ops - 1, fusions


class Statistics(Instrument):
    """Per pass: ops before and after, fusions in the module after it, and the
    bytes the buffer plan reserves (temp arena) once one is attached."""

    def __init__(
        self,
        planned_bytes: Callable[[ModuleOp], int | None],
        stream: TextIO = sys.stderr,
    ):
        self.planned_bytes = planned_bytes
        self.stream = stream
        self.rows: list[tuple[str, int, int, int, int | None]] = []
        self.ops_before: int | None = None
        """The count after the previous pass: the module is walked once per pass."""

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        if self.ops_before is None:
            self.ops_before = _count(module)[0]

    def after(self, pass_: ModulePass, module: ModuleOp) -> None:
        ops, fusions = _count(module)
        planned = self.planned_bytes(module)
        self.rows.append((pass_.name, self.ops_before or 0, ops, fusions, planned))
        self.ops_before = ops

    def finish(self) -> None:
        if not self.rows:
            return
        out = self.stream
        print(f"{RULE}\n  xlir-opt pass statistics report\n{RULE}", file=out)
        header = ("ops before", "ops after", "fusions", "temp bytes")
        print("  " + "  ".join(f"{h:>10}" for h in header) + "  pass", file=out)
        for name, before, after, fusions, planned in self.rows:
            temp = "-" if planned is None else str(planned)
            cells = (before, after, fusions, temp)
            print("  " + "  ".join(f"{c:>10}" for c in cells) + f"  {name}", file=out)
        self.rows = []
        self.ops_before = None


REPRODUCER_HEADER = "// xlir-opt reproducer: "


class Reproducer(Instrument):
    """Keeps the IR before each pass; when a pass fails, writes it to a file
    headed by the pipeline from the failing pass on, so that
    `xlir-opt --run-reproducer FILE` replays the failure."""

    def __init__(self, path: Path, remaining: Callable[[int], str]):
        self.path = path
        self.remaining = remaining
        self.index = -1
        self.before_text = ""

    def before(self, pass_: ModulePass, module: ModuleOp) -> None:
        self.index += 1
        self.before_text = module_text(module)

    def failed(self, pass_: ModulePass, module: ModuleOp, message: str) -> None:
        comment = "\n".join(f"// {line}" for line in message.splitlines())
        self.path.write_text(
            f"{REPRODUCER_HEADER}-p '{self.remaining(self.index)}'\n"
            f"{comment}\n{self.before_text}"
        )
        print(
            f"note: reproducer written to {self.path}; "
            f"replay with: xlir-opt --run-reproducer {self.path}",
            file=sys.stderr,
        )


def reproducer_pipeline(text: str) -> str | None:
    """The pipeline named by a reproducer file's first line, if it has one."""
    first = text.split("\n", 1)[0]
    if not first.startswith(REPRODUCER_HEADER):
        return None
    spec = first[len(REPRODUCER_HEADER) :].strip()
    if spec.startswith("-p "):
        spec = spec[3:].strip()
    return spec.strip("'")
