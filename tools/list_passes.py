"""`xlir-opt --list-passes`: every registered pass and named pipeline, with a
one-line description and its options (name, type in words, default), as
mlir-opt's `--help` lists its passes."""

from __future__ import annotations

import dataclasses
import re
import sys

from xdsl.passes import ModulePass

from xlir.pass_manager import PASSES, PIPELINES, option_spelling

TYPE_WORDS = {
    "bool": "true|false",
    "int": "integer",
    "float": "number",
    "str": "string",
    "tuple[int, ...]": "integers, comma-separated",
}


def _first_sentence(text: str) -> str:
    paragraph = " ".join(text.strip().split("\n\n")[0].split())
    end = re.search(r"(?<=[a-z0-9`)])\.(\s|$)", paragraph)
    return paragraph[: end.start() + 1] if end else paragraph


def description(cls: type[ModulePass]) -> str:
    """The first sentence of the pass's module docstring, after its
    "`name{...}`:" heading (xlir's convention), else of its class
    docstring."""
    module = sys.modules[cls.__module__]
    text = (module.__doc__ or "").strip()
    heading = re.match(r"(`[^`]+`( and `[^`]+`)?):\s*", text)
    text = (cls.__doc__ or "") if heading is None else text[heading.end() :]
    return _first_sentence(text)


def options(cls: type[ModulePass]) -> list[str]:
    """`name=TYPE (default D)` for each option, as `-p 'pass{name=...}'`
    spells them."""
    lines = []
    for field in dataclasses.fields(cls):
        if field.name == "name":
            continue
        kind = field.type if isinstance(field.type, str) else field.type.__name__
        words = TYPE_WORDS.get(kind, kind)
        default = field.default
        if isinstance(default, bool):
            shown = str(default).lower()
        elif isinstance(default, tuple):
            shown = ",".join(map(str, default)) or "none"
        else:
            shown = str(default)
        lines.append(f"{option_spelling(field.name)}={words} (default {shown})")
    return lines


def list_passes() -> str:
    out = ["Passes (-p 'name{option=value ...}', comma-separated):"]
    width = max(map(len, PASSES)) + 2
    for name in sorted(PASSES):
        cls = PASSES[name]
        out.append(f"  {name:<{width}}{description(cls)}")
        out.extend(f"  {'':<{width}}  {line}" for line in options(cls))
    out.append("Pipelines (stand for their passes in -p):")
    for name, steps in sorted(PIPELINES.items()):
        out.append(f"  {name:<{width}}{','.join(steps)}")
    return "\n".join(out) + "\n"
