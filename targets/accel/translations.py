"""XA-1's translations for `xlir-translate` (entry points of the group
`xlir.translations`): the accel dialect to assembly text or an object file,
and an object file back to assembly (a program file's program section as
comments). They call what `xlir-accel`'s asm, obj and disasm commands call
(cli.py)."""

from __future__ import annotations

from xlir.targets.accel.cli import assemble_text, file_disassembly, module_assembly
from xlir.targets.accel.objfile import MAGIC
from xlir.targets.translations import Translation, TranslationInput

from xlir.diagnostics import decode_source


def _assembly(source: TranslationInput) -> str:
    return module_assembly(*source.parse_module())


def _object(source: TranslationInput) -> bytes:
    """An object file of an accel-dialect module, or of an assembly file
    (`.s`: the assembler's diagnostics point into it)."""
    if source.name.endswith(".s"):
        text = decode_source(source.data, source.name)
    else:
        text = _assembly(source)
    return assemble_text(text, source.name).to_bytes()


def _disassembly(source: TranslationInput) -> str:
    return file_disassembly(source.data, source.name)


ACCEL_ASM = Translation("XA-1 assembly text of an accel-dialect module", _assembly)
ACCEL_OBJ = Translation(
    "XA-1 object file (.xa1) of an accel-dialect module or a .s file",
    _object,
    writes_binary=True,
)
ACCEL_DISASM = Translation(
    "XA-1 assembly text of an object file (.xa1)", _disassembly, reads_magic=MAGIC
)
