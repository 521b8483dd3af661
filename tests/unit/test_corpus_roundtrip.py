"""Every corpus program parses, verifies and prints back to a fixpoint, in the
pretty and the generic form."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from xdsl.ir import Operation
from xdsl.printer import Printer

from tests.conftest import CORPUS
from xlir import make_context, parse_module
from xlir.diagnostics import verify_module

PROGRAMS = sorted(
    p.relative_to(CORPUS).as_posix()
    for p in [*CORPUS.glob("small/*.mlir"), *CORPUS.glob("bench/*.mlir")]
)


def _print(op: Operation, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


@pytest.mark.parametrize("name", PROGRAMS)
def test_round_trip(name: str) -> None:
    ctx = make_context()
    text = (CORPUS / name).read_text()
    module = parse_module(ctx, text, name)
    verify_module(module, {name: text})

    printed = _print(module)
    reparsed = parse_module(ctx, printed, "printed.mlir")
    verify_module(reparsed)
    assert _print(reparsed) == printed

    generic = _print(module, generic=True)
    from_generic = parse_module(ctx, generic, "generic.mlir")
    verify_module(from_generic)
    assert _print(from_generic) == printed


def test_corpus_is_there() -> None:
    assert len(PROGRAMS) == 54, f"expected 36 small and 18 bench programs in {CORPUS}"


def test_paths_are_relative() -> None:
    assert all(not Path(p).is_absolute() for p in PROGRAMS)
