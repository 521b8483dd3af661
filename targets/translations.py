"""Named translations for `xlir-translate`, as mlir-translate registers them.

A translation turns one input file into text or bytes: an MLIR module into
LLVM IR or a target's assembly, an object file back into assembly. Each is an
entry point of the group `xlir.translations` (a name and a `Translation`),
so a target adds its own (accel-asm, accel-obj, accel-disasm) from its own
folder, and a package outside xlir adds more without an edit here. Like the
other registries, a translation's module is imported only when it is used.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from xlir.diagnostics import XlirError
from xlir.registry import Registry


@dataclass(frozen=True)
class TranslationInput:
    """One input file: its name (for messages), its bytes, a parser of it as
    an MLIR module (diagnostics with file:line:col), and the tool's options."""

    name: str
    data: bytes
    parse_module: Callable[[], tuple[ModuleOp, dict[str, str]]]
    options: argparse.Namespace


@dataclass(frozen=True)
class Translation:
    """What a translation does (`description`, one line for the listing) and
    how: `translate` gives text or bytes. `writes_binary` ones write to a
    file only; `reads_magic` names the first bytes of the binary files a
    disassembling translation reads (`xlir-translate --disassemble` picks the
    one whose magic the file starts with); `takes_llvm_options` ones use
    --backend, --triple, --cpu, --features and -O."""

    description: str
    translate: Callable[[TranslationInput], str | bytes]
    writes_binary: bool = False
    reads_magic: bytes | None = None
    takes_llvm_options: bool = False


TRANSLATIONS: Registry[Translation] = Registry("xlir.translations", "translation")


def get_translation(name: str) -> Translation:
    """The translation registered as `name`, or a diagnostic listing the
    known ones."""
    if name not in TRANSLATIONS:
        known = ", ".join(sorted(TRANSLATIONS))
        raise XlirError(
            f"error: unknown translation '{name}' (known translations: {known})"
        )
    return TRANSLATIONS[name]


def disassembler_for(data: bytes, name: str) -> str:
    """The name of the translation whose `reads_magic` `data` starts with."""
    readers = {
        key: translation.reads_magic
        for key, translation in sorted(TRANSLATIONS.items())
        if translation.reads_magic is not None
    }
    for key, magic in readers.items():
        if data.startswith(magic):
            return key
    known = ", ".join(f"{key} ({magic!r})" for key, magic in readers.items())
    raise XlirError(
        f"error: {name}: no registered translation reads a file that starts "
        f"with {data[:4]!r} (disassemblers and the magic they read: {known})"
    )


def list_translations() -> str:
    """Every registered translation with its one-line description."""
    lines = [
        f"  {key:<14} {TRANSLATIONS[key].description}" for key in sorted(TRANSLATIONS)
    ]
    return "Translations (--target NAME):\n" + "\n".join(lines) + "\n"
