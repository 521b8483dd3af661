"""The XA-1 disassembler: an `ObjectFile` back to assembly text that assembles to
the same bytes (branch targets print as word offsets, with the target address as
a comment; words that are no instruction print as `.word`)."""

from __future__ import annotations

from xlir.targets.accel.isa import IllegalInstruction, Kind, decode
from xlir.targets.accel.objfile import KERNEL, ObjectFile


def disassemble_word(word: int, pc: int) -> tuple[str, str]:
    """The instruction of `word` at byte address `pc`, and a note on it (the
    target of a branch, why a word is illegal)."""
    try:
        instruction = decode(word)
    except IllegalInstruction as e:
        return f".word {word:#010x}", f"illegal: {e}"
    for operand, value in zip(
        instruction.spec.operands, instruction.operands, strict=True
    ):
        if operand.kind in (Kind.BRANCH16, Kind.JUMP21, Kind.LOOP16):
            assert isinstance(value, int)
            return str(instruction), f"-> {pc + 4 * value:#06x}"
    return str(instruction), ""


def disassemble(obj: ObjectFile) -> str:
    entries = {s.entry: s for s in obj.symbols}
    lines: list[str] = []
    for index, word in enumerate(obj.code):
        pc = 4 * index
        if pc in entries:
            symbol = entries[pc]
            directive = ".kernel" if symbol.kind == KERNEL else ".func"
            lines.append(f"{directive} {symbol.name}, {symbol.nargs}")
        text, note = disassemble_word(word, pc)
        lines.append(f"    {text:40s}# {pc:#06x}: {word:08x} {note}".rstrip())
    if obj.rodata:
        lines.append(".rodata")
        for at in range(0, len(obj.rodata), 16):
            chunk = obj.rodata[at : at + 16]
            lines.append(f"    .byte {', '.join(str(b) for b in chunk)}")
    return "\n".join(lines) + "\n"
