"""The XA-1 assembler (manual section 9): assembly text to an `ObjectFile`.

Every error names the line and column of the text it is about. The rodata section
is laid out first and the code second, so `rodata(name)` and labels may be used
before they are defined."""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from xlir.targets.accel.isa import (
    DMA_MODES,
    IMMEDIATE_RANGES,
    SPECS,
    Instruction,
    Kind,
    Operand,
    RegClass,
    encode,
    register_index,
)
from xlir.targets.accel.objfile import (
    FUNCTION,
    INSTRUCTION_MEMORY,
    KERNEL,
    NAME_PATTERN,
    ObjectFile,
    Symbol,
)


@dataclass(frozen=True)
class Diagnostic:
    filename: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}: error: {self.message}"


class AssemblyError(Exception):
    """The diagnostics of a text that does not assemble."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(map(str, diagnostics)))
        self.diagnostics = diagnostics


class _Error(Exception):
    def __init__(self, column: int, message: str):
        self.column = column
        self.message = message


@dataclass(frozen=True)
class _Token:
    text: str
    column: int
    """1-based column of the token's first character."""


@dataclass
class _Statement:
    line: int
    head: _Token
    operands: list[_Token]


_IMMEDIATE = re.compile(r"-?(0x[0-9a-fA-F]+|[0-9]+)")
_MEMORY = re.compile(r"(?P<offset>.*)\((?P<base>[^()]*)\)")
_RODATA = re.compile(r"rodata\((?P<name>[^()]*)\)")
PSEUDO_INSTRUCTIONS = frozenset({"li", "mv", "nop", "vmv", "j", "call", "ret"})


def _split(text: str, start: int, line: int) -> list[_Statement]:
    """The `;`-separated statements of one line, with columns."""
    statements = []
    offset = 0
    for part in text.split(";"):
        stripped = part.strip()
        if stripped:
            column = start + offset + len(part) - len(part.lstrip())
            head, _, rest = stripped.partition(" ")
            if "\t" in head:
                head, _, more = head.partition("\t")
                rest = more + " " + rest
            operands = []
            if rest.strip():
                at = column + len(head) + (len(stripped) - len(head) - len(rest))
                for piece in rest.split(","):
                    lead = len(piece) - len(piece.lstrip())
                    operands.append(_Token(piece.strip(), at + lead))
                    at += len(piece) + 1
            statements.append(_Statement(line, _Token(head, column), operands))
        offset += len(part) + 1
    return statements


@dataclass
class _Assembler:
    filename: str
    labels: dict[str, int] = field(default_factory=dict)
    """Code labels, by byte address."""
    rodata_labels: dict[str, int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, line: int, column: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.filename, line, column, message))

    # Operands.

    def integer(self, token: _Token, low: int, high: int, what: str) -> int:
        match = _RODATA.fullmatch(token.text)
        if match:
            name = match["name"].strip()
            if name not in self.rodata_labels:
                raise _Error(token.column, f"unknown rodata label '{name}'")
            value = self.rodata_labels[name]
        elif _IMMEDIATE.fullmatch(token.text):
            value = int(token.text, 0)
        else:
            raise _Error(token.column, f"expected {what}, found '{token.text}'")
        if not low <= value <= high:
            raise _Error(
                token.column, f"{what} {value} is out of range [{low}, {high}]"
            )
        return value

    def register(self, token: _Token, cls: RegClass) -> int:
        index = register_index(cls, token.text)
        if index is None:
            kinds = {RegClass.X: "scalar", RegClass.V: "vector", RegClass.M: "matrix"}
            found = next(
                (
                    f"{kinds[c]} register '{token.text}'"
                    for c in RegClass
                    if register_index(c, token.text) is not None
                ),
                f"'{token.text}'",
            )
            raise _Error(
                token.column, f"expected a {kinds[cls]} register, found {found}"
            )
        return index

    def target(self, token: _Token, kind: Kind, pc: int) -> int:
        """A label's offset from `pc` in words, or a literal word offset."""
        low, high = IMMEDIATE_RANGES[kind]
        if _IMMEDIATE.fullmatch(token.text):
            return self.integer(token, low, high, f"{kind.value} offset")
        if token.text not in self.labels:
            raise _Error(token.column, f"unknown label '{token.text}'")
        offset = (self.labels[token.text] - pc) // 4
        if not low <= offset <= high:
            raise _Error(
                token.column,
                f"{kind.value} '{token.text}' is {offset} words away, outside "
                f"[{low}, {high}]",
            )
        return offset

    def operand(
        self, operand: Operand, token: _Token, pc: int
    ) -> int | tuple[int, int]:
        kind = operand.kind
        if kind is Kind.REG:
            assert operand.cls is not None
            return self.register(token, operand.cls)
        if kind is Kind.MEM:
            match = _MEMORY.fullmatch(token.text)
            if not match:
                raise _Error(token.column, f"expected imm(reg), found '{token.text}'")
            low, high = IMMEDIATE_RANGES[Kind.MEM]
            offset = self.integer(
                _Token(match["offset"].strip() or "0", token.column),
                low,
                high,
                "offset",
            )
            base_column = token.column + match.start("base")
            return offset, self.register(
                _Token(match["base"].strip(), base_column), RegClass.X
            )
        if kind is Kind.MODE:
            if token.text not in DMA_MODES:
                raise _Error(
                    token.column,
                    f"expected a DMA mode ({', '.join(DMA_MODES)}), found '{token.text}'",
                )
            return DMA_MODES.index(token.text)
        if kind in (Kind.BRANCH16, Kind.JUMP21, Kind.LOOP16):
            return self.target(token, kind, pc)
        low, high = IMMEDIATE_RANGES[kind]
        return self.integer(token, low, high, kind.value)

    # Instructions.

    def expand(self, statement: _Statement) -> list[tuple[str, list[_Token]]]:
        """The machine instructions of a statement (pseudo-instructions expanded)."""
        name, ops = statement.head.text, statement.operands
        col = statement.head.column
        zero = _Token("zero", col)
        if name == "li":
            self.arity(statement, 2)
            value = self.integer(ops[1], -(1 << 31), (1 << 32) - 1, "immediate")
            if -(1 << 15) <= value < (1 << 15):
                return [("addi", [ops[0], zero, _Token(str(value), ops[1].column)])]
            value &= 0xFFFFFFFF
            upper = [("lui", [ops[0], _Token(str(value >> 16), ops[1].column)])]
            if value & 0xFFFF:
                low = _Token(str(value & 0xFFFF), ops[1].column)
                upper.append(("ori", [ops[0], ops[0], low]))
            return upper
        if name == "mv":
            self.arity(statement, 2)
            return [("addi", [ops[0], ops[1], _Token("0", col)])]
        if name == "vmv":
            self.arity(statement, 2)
            return [("vor", [ops[0], ops[1], ops[1]])]
        if name == "nop":
            self.arity(statement, 0)
            return [("addi", [zero, zero, _Token("0", col)])]
        if name in ("j", "call"):
            self.arity(statement, 1)
            link = zero if name == "j" else _Token("ra", col)
            return [("jal", [link, ops[0]])]
        if name == "ret":
            self.arity(statement, 0)
            return [("jalr", [zero, _Token("ra", col), _Token("0", col)])]
        if name not in SPECS:
            raise _Error(statement.head.column, f"unknown mnemonic '{name}'")
        self.arity(statement, len(SPECS[name].operands))
        return [(name, ops)]

    def arity(self, statement: _Statement, count: int) -> None:
        if len(statement.operands) != count:
            raise _Error(
                statement.head.column,
                f"'{statement.head.text}' takes {count} operands, found "
                f"{len(statement.operands)}",
            )

    def instruction(self, name: str, tokens: list[_Token], pc: int) -> int:
        spec = SPECS[name]
        values = tuple(
            self.operand(operand, token, pc)
            for operand, token in zip(spec.operands, tokens, strict=True)
        )
        return encode(Instruction(spec, values))


def _data(assembler: _Assembler, statement: _Statement) -> bytes:
    name, ops = statement.head.text, statement.operands
    if name == ".word":
        return b"".join(
            struct.pack(
                "<I",
                assembler.integer(t, -(1 << 31), (1 << 32) - 1, "word") & 0xFFFFFFFF,
            )
            for t in ops
        )
    if name == ".byte":
        return bytes(assembler.integer(t, -128, 255, "byte") & 0xFF for t in ops)
    return b"".join(_binary32(token) for token in ops)


def _binary32(token: _Token) -> bytes:
    """fl(value) of a decimal (or inf/nan) literal: rounded once, to nearest even.

    Python's float() rounds the decimal to binary64 correctly; rounding that to
    binary32 again is wrong only when it lands exactly halfway between two
    binary32 values, and then the exact decimal decides."""
    try:
        double = float(token.text)
    except ValueError:
        raise _Error(token.column, f"expected a float, found '{token.text}'") from None
    with np.errstate(over="ignore"):
        single = np.float32(double)
    if math.isfinite(double) and float(single) != double:
        other = np.nextafter(
            single, np.float32(math.copysign(math.inf, double - float(single)))
        )
        if math.isfinite(other) and double == (float(single) + float(other)) / 2:
            exact, tie = Fraction(token.text), Fraction(double)
            if exact != tie and (exact > tie) == (float(other) > float(single)):
                single = other
    return single.tobytes()


def assemble(text: str, filename: str = "<assembly>") -> ObjectFile:
    """Assemble `text`; raise AssemblyError with every diagnostic found."""
    assembler = _Assembler(filename)
    statements: list[tuple[str, _Statement]] = []
    section = "text"
    for number, raw in enumerate(text.splitlines(), 1):
        code = raw.split("#", 1)[0]
        for statement in _split(code, 1, number):
            if statement.head.text in (".text", ".rodata"):
                section = statement.head.text[1:]
            statements.append((section, statement))

    # Rodata layout.
    rodata = bytearray()
    for section, statement in statements:
        if section != "rodata" or statement.head.text == ".rodata":
            continue
        try:
            head = statement.head.text
            if head.endswith(":") and not statement.operands:
                define(assembler.rodata_labels, statement, len(rodata))
            elif head == ".align":
                assembler.arity(statement, 1)
                n = assembler.integer(statement.operands[0], 1, 1 << 16, "alignment")
                rodata += bytes(-len(rodata) % n)
            elif head in (".word", ".float", ".byte"):
                if head != ".byte" and len(rodata) % 4:
                    raise _Error(statement.head.column, f"{head} at unaligned offset")
                rodata += _data(assembler, statement)
            else:
                raise _Error(
                    statement.head.column,
                    f"'{head}' is not allowed in .rodata (labels, .align, .word, "
                    ".float, .byte are)",
                )
        except _Error as e:
            assembler.error(statement.line, e.column, e.message)

    # Code layout: addresses of labels and routines.
    layout: list[tuple[int, _Statement, list[tuple[str, list[_Token]]]]] = []
    routines: list[tuple[str, int, int, int]] = []
    pc = 0
    for section, statement in statements:
        if section != "text" or statement.head.text == ".text":
            continue
        try:
            head = statement.head.text
            if head.endswith(":") and not statement.operands:
                define(assembler.labels, statement, pc)
            elif head in (".kernel", ".func"):
                assembler.arity(statement, 2)
                name = statement.operands[0]
                if not NAME_PATTERN.fullmatch(name.text) or any(
                    r[0] == name.text for r in routines
                ):
                    raise _Error(name.column, f"invalid or repeated name '{name.text}'")
                nargs = assembler.integer(
                    statement.operands[1], 0, 64, "argument count"
                )
                kind = KERNEL if head == ".kernel" else FUNCTION
                routines.append((name.text, pc, nargs, kind))
                # A routine's name is also a label: `call name` (section 8.3).
                if name.text in assembler.labels:
                    raise _Error(name.column, f"label '{name.text}' is defined twice")
                assembler.labels[name.text] = pc
            elif head == ".word":
                layout.append((pc, statement, []))
                pc += 4 * len(statement.operands)
            elif head.startswith("."):
                raise _Error(statement.head.column, f"'{head}' is not allowed in .text")
            else:
                if head.endswith(":"):
                    raise _Error(
                        statement.head.column,
                        f"label '{head[:-1]}' must be on a line of its own",
                    )
                instructions = assembler.expand(statement)
                layout.append((pc, statement, instructions))
                pc += 4 * len(instructions)
        except _Error as e:
            assembler.error(statement.line, e.column, e.message)
    if pc > INSTRUCTION_MEMORY:
        assembler.error(1, 1, f"code of {pc} bytes exceeds {INSTRUCTION_MEMORY}")

    # Encoding.
    words: list[int] = []
    for address, statement, instructions in layout:
        try:
            if statement.head.text == ".word":
                words += struct.unpack(
                    f"<{len(statement.operands)}I", _data(assembler, statement)
                )
                continue
            for i, (name, tokens) in enumerate(instructions):
                words.append(assembler.instruction(name, tokens, address + 4 * i))
        except _Error as e:
            assembler.error(statement.line, e.column, e.message)
            words += [0] * (len(instructions) or len(statement.operands))
    if assembler.diagnostics:
        raise AssemblyError(
            sorted(assembler.diagnostics, key=lambda d: (d.line, d.column))
        )
    symbols = [
        Symbol(name, entry, end - entry, nargs, kind)
        for (name, entry, nargs, kind), end in zip(
            routines, [r[1] for r in routines[1:]] + [pc], strict=False
        )
    ]
    return ObjectFile(words, bytes(rodata), symbols)


def define(labels: dict[str, int], statement: _Statement, value: int) -> None:
    name = statement.head.text[:-1]
    if not NAME_PATTERN.fullmatch(name):
        raise _Error(statement.head.column, f"invalid label name '{name}'")
    if name in labels:
        raise _Error(statement.head.column, f"label '{name}' is defined twice")
    labels[name] = value
