"""Diagnostics in MLIR's shape: `file:line:col: error: message`, the source
line, and a caret under the column.

Every user-facing failure (bad text, a failing verifier, an unsupported op, a
failing pass) becomes an `XlirError` carrying such text, so tools print it and
exit non-zero instead of showing a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError, VerifyException

from xlir.dialects.symbols import indexed_symbols
from xlir.source_locations import NotedParseError, source_note, text_location
from xlir.terminators import check_terminators
from xlir.verified_ops import VerifiedOps
from xlir.verified_signatures import (
    Signature,
    signatures_remembered,
    signatures_to_remember,
)
from xlir.verifier import InvalidUse, check_uses, isolation_checked
from xlir.walk import walk


class XlirError(Exception):
    """A user-facing error whose message is a finished diagnostic."""


def format_at(
    file: str,
    line: int,
    column: int,
    message: str,
    source: str | None,
    severity: str = "error",
) -> str:
    """`file:line:col: error: message`, then the line and a caret if known."""
    text = f"{file}:{line}:{column}: {severity}: {message}"
    if source is not None:
        lines = source.split("\n")
        if 1 <= line <= len(lines):
            text += "\n" + lines[line - 1] + "\n" + " " * (column - 1) + "^"
    return text


def format_at_op(
    op: Operation,
    message: str,
    sources: dict[str, str] | None = None,
    severity: str = "error",
) -> str:
    """A diagnostic at the op's location (its place in the parsed text); for
    an op a pass made without one, at its nearest enclosing op's (a kernel
    takes the location of the HLO op it comes from). Where the text said
    which line of the user's program made the op (JAX's `loc(...)`), a note
    names that line (xlir/source_locations.py)."""
    location = op.location
    parent = op.parent_op()
    while text_location(location) is None and parent is not None:
        location, parent = parent.location, parent.parent_op()
    loc = text_location(location)
    if loc is None:
        return f"{severity}: {message}"
    file = loc.filename.data
    source = (sources or {}).get(file)
    text = format_at(file, loc.line.data, loc.column.data, message, source, severity)
    note = source_note(location)
    return text if note is None else text + "\n" + note


def refuse_ops(
    action: str, problems: Iterable[tuple[Operation, str]], where: str = ""
) -> None:
    """Nothing where there are no problems; else one diagnostic listing them
    all, `{action} N op(s) {where}:` then each (op, message) at the op's
    location, each line once (copies of one op, as unrolling makes, share
    its location): a pass refuses what it cannot lower in one report."""
    lines = list(dict.fromkeys(format_at_op(op, message) for op, message in problems))
    if lines:
        head = " ".join(filter(None, [action, f"{len(lines)} op(s)", where]))
        raise XlirError(f"{head}:\n" + "\n".join(lines))


def decode_source(data: bytes, file: str) -> str:
    """The UTF-8 text of a source file; bytes that are not UTF-8 (a binary
    file given as input) are an XlirError at the first one's line and
    column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise XlirError(
            f"{file}:{line}:{column}: error: the input is not UTF-8 text "
            f"(byte 0x{data[error.start]:02x}); expected StableHLO or MLIR text"
        ) from None


def format_parse_error(error: ParseError, line_offset: int = 0) -> str:
    span = error.span
    location = span.get_location()
    source = span.input.content
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    text = format_at(location.file, location.line, location.col, error.msg, source)
    if line_offset:
        # The caret context came from the chunk; only the line number moves.
        first, _, rest = text.partition(": error: ")
        file, line, col = first.rsplit(":", 2)
        text = f"{file}:{int(line) + line_offset}:{col}: error: {rest}"
    if isinstance(error, NotedParseError):
        text += "\n" + error.note
    return text


def verify_module(
    root: Operation,
    sources: dict[str, str] | None = None,
    verified: VerifiedOps | None = None,
) -> None:
    """Verify SSA dominance and region isolation (xlir/verifier.py), then
    every op, raising an XlirError located at the first op that fails
    (xDSL's own `verify` does not say which op it was). With `verified`,
    kept across the passes of a pipeline, the ops that cannot verify
    differently than last time are skipped (xlir/verified_ops.py). Symbol
    lookups are answered from an index meanwhile (dialects/symbols.py), and
    IRDL constraints once per op signature (xlir/verified_signatures.py:
    once per `signatures_shared()` context)."""
    try:
        check_uses(root)
    except InvalidUse as error:
        text = format_at_op(error.op, error.message, sources)
        for op, note in error.notes:
            text += "\n" + format_at_op(op, note, sources, "note")
        raise XlirError(text) from None
    seen: set[Signature] = (
        signatures_to_remember() if verified is None else verified.signatures
    )
    with isolation_checked(), indexed_symbols(), signatures_remembered(seen):
        for op in walk(root):
            if verified is not None and not verified.needs_verifying(op):
                continue
            try:
                op.verify(verify_nested_ops=False)
                check_terminators(op)
            except VerifyException as error:
                culprit = _redefinition(op, str(error)) or op
                raise XlirError(format_at_op(culprit, str(error), sources)) from None
    if verified is not None:
        verified.completed()


_REDEFINITION = re.compile(r'Redefinition of symbol "(.*)"')


def _redefinition(table: Operation, message: str) -> Operation | None:
    """The second definition of the symbol a symbol table's error names (the
    table itself, often an implicit module, has no place in the text)."""
    found = _REDEFINITION.match(message)
    if found is None:
        return None
    named = [
        op
        for region in table.regions
        for block in region.blocks
        for op in block.ops
        if (name := op.properties.get("sym_name", op.attributes.get("sym_name")))
        is not None
        and getattr(name, "data", None) == found.group(1)
    ]
    return named[1] if len(named) > 1 else None
