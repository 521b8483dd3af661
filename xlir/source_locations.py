"""An op's two locations: where it stands in the text xlir parsed, and where
the program that wrote the text says it came from.

JAX's export flavour ends every op with `loc(...)`: a name for the traced
primitive (`"jit(f)/mul"`) around the Python call stack that made it
(`callsite("f"("model.py":12:8) at ...)`). The parser keeps both as one
`FusedLoc` whose metadata is `TEXT_AND_SOURCE`: first the text position,
which every diagnostic's caret needs, then the exported location. An op
without a `loc(...)` (or with `loc(unknown)`) keeps the plain text position.
Passes copy `op.location`, so kernels and fusions carry both along.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import ParseError

TEXT_AND_SOURCE = StringAttr("xlir.text_and_source")
"""The metadata of a `FusedLoc` made by the parser: [text position, source]."""


def with_source(text: FileLineColLoc, source: Attribute) -> FileLineColLoc | FusedLoc:
    """The location of an op at `text` whose `loc(...)` said `source` (a
    location printed by `--print-debuginfo` and read again keeps its
    source)."""
    parts = _parts(source)
    if parts is not None:
        source = parts[1]
    if isinstance(source, UnknownLoc):
        return text
    return FusedLoc((text, source), TEXT_AND_SOURCE)


def _locations(fused: FusedLoc) -> tuple[Attribute, ...]:
    assert isinstance(fused.locations, ArrayAttr)
    return tuple(fused.locations.data)


def _parts(location: Attribute) -> tuple[Attribute, ...] | None:
    if isinstance(location, FusedLoc) and location.metadata == TEXT_AND_SOURCE:
        return _locations(location)
    return None


def text_location(location: Attribute) -> FileLineColLoc | None:
    """Where the op stands in the parsed text, if known."""
    parts = _parts(location)
    if parts is not None:
        location = parts[0]
    return location if isinstance(location, FileLineColLoc) else None


def source_location(location: Attribute) -> Attribute | None:
    """The location the text gave the op (`loc(...)`), if it gave one."""
    parts = _parts(location)
    return parts[1] if parts is not None else None


def user_frame(location: Attribute) -> tuple[FileLineColLoc, str | None] | None:
    """The innermost file:line:col of an exported location (the line of the
    user's program that made the op) and the name around it (JAX's
    `jit(f)/mul`), if the location has a file position."""
    name: str | None = None
    while True:
        if isinstance(location, NameLoc):
            name = name or location.desc.data
            location = location.location
        elif isinstance(location, CallSiteLoc):
            location = location.callee
        elif isinstance(location, FusedLoc):
            frames = [user_frame(part) for part in _locations(location)]
            found = next((frame for frame in frames if frame is not None), None)
            if found is None:
                return None
            return found[0], name or found[1]
        elif isinstance(location, FileLineColLoc):
            return location, name
        else:
            return None


def describe_source(location: Attribute) -> str | None:
    """`model.py:12:8 (jit(f)/mul)`: where the user's program made the op."""
    source = source_location(location)
    frame = None if source is None else user_frame(source)
    if frame is None:
        return None
    at, name = frame
    text = f"{at.filename.data}:{at.line.data}:{at.column.data}"
    return f"{text} ({name})" if name else text


def source_note(location: Attribute) -> str | None:
    """A `note:` naming the user's line that made the op, in the
    `file:line:col: note: ...` shape, with that line and a caret when the
    file can be read (the caret under the column as JAX writes it: Python's
    0-based column offset)."""
    source = source_location(location)
    frame = None if source is None else user_frame(source)
    if frame is None:
        return None
    at, name = frame
    file, line, column = at.filename.data, at.line.data, at.column.data
    made = f" as '{name}'" if name else ""
    text = f"{file}:{line}:{column}: note: made here{made}"
    source_line = linecache.getline(file, line).rstrip("\n")
    if source_line:
        text += "\n" + source_line + "\n" + " " * column + "^"
    return text


@dataclass
class NotedParseError(ParseError):
    """A parse error in an op that JAX located, with the `source_note` of
    its `loc(...)`."""

    note: str
