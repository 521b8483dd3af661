"""Programs at the loop level for the loop passes' tests. A text goes through
`hlo-opt,hlo-to-loop` once per session; each caller gets a copy of that
module with the loop passes it compares run on the copy, so a test that
compares several pipelines on one program (or several tests on one
program) does not lower it again for each."""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import ModuleOp

from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline


@cache
def _lowered(text: str, name: str) -> ModuleOp:
    module = parse_module(make_context(), text, name)
    run_pipeline(make_context(), module, "hlo-opt,hlo-to-loop")
    return module


def loop_level(text: str, name: str = "test", pipeline: str = "") -> ModuleOp:
    """A new copy of `text` (StableHLO, diagnostics naming `name`) after
    `hlo-opt,hlo-to-loop`, then `pipeline` (loop passes; "": none). A program
    that does not lower raises its XlirError on every call."""
    module = _lowered(text, name).clone()
    if pipeline:
        run_pipeline(make_context(), module, pipeline)
    return module
