"""The XA1 object format (manual section 7): header, code, read-only data, symbol
table and string table, written and loaded with the loader's checks."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

MAGIC = b"XA1\0"
VERSION = 1
HEADER_SIZE = 64
INSTRUCTION_MEMORY = 256 * 1024
KERNEL, FUNCTION = 0, 1
NAME_PATTERN = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$]*")
_HEADER = struct.Struct("<4sHHIIIIIIII24x")
_SYMBOL = struct.Struct("<IIIHH")


class ObjectFormatError(Exception):
    """An object file the loader rejects (section 7.3)."""


@dataclass(frozen=True)
class Symbol:
    name: str
    entry: int
    """Byte offset of the routine's first instruction."""
    size: int
    nargs: int
    kind: int
    """KERNEL (launchable) or FUNCTION (reached by `jal` only)."""


@dataclass
class ObjectFile:
    code: list[int]
    """Instruction words, loaded at instruction address 0."""
    rodata: bytes = b""
    symbols: list[Symbol] = field(default_factory=list)

    def symbol(self, name: str) -> Symbol:
        for symbol in self.symbols:
            if symbol.name == name:
                return symbol
        raise KeyError(name)

    def to_bytes(self) -> bytes:
        code = b"".join(struct.pack("<I", w) for w in self.code)
        rodata_offset = _round_up(HEADER_SIZE + len(code))
        symtab_offset = _round_up(rodata_offset + len(self.rodata))
        strings = bytearray()
        entries = bytearray()
        for symbol in self.symbols:
            entries += _SYMBOL.pack(
                len(strings), symbol.entry, symbol.size, symbol.nargs, symbol.kind
            )
            strings += symbol.name.encode("ascii") + b"\0"
        header = _HEADER.pack(
            MAGIC,
            VERSION,
            0,
            HEADER_SIZE,
            len(code),
            rodata_offset,
            len(self.rodata),
            symtab_offset,
            len(self.symbols),
            symtab_offset + len(entries),
            len(strings),
        )
        out = bytearray(header + code)
        out += bytes(rodata_offset - len(out)) + self.rodata
        out += bytes(symtab_offset - len(out)) + entries + strings
        return bytes(out)

    @staticmethod
    def from_bytes(data: bytes) -> ObjectFile:
        """Load an object, rejecting what section 7.3 says a loader rejects."""
        if len(data) < HEADER_SIZE:
            raise ObjectFormatError(f"{len(data)} bytes is shorter than the header")
        (
            magic,
            version,
            _flags,
            code_offset,
            code_size,
            rodata_offset,
            rodata_size,
            symtab_offset,
            count,
            strtab_offset,
            strtab_size,
        ) = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise ObjectFormatError(f"bad magic {magic!r}, expected {MAGIC!r}")
        if version != VERSION:
            raise ObjectFormatError(f"version {version}, expected {VERSION}")
        if code_size % 4 or code_size > INSTRUCTION_MEMORY:
            raise ObjectFormatError(
                f"code size {code_size} is not a multiple of 4 of at most "
                f"{INSTRUCTION_MEMORY} bytes"
            )
        if strtab_offset != symtab_offset + 16 * count:
            raise ObjectFormatError("string table does not follow the symbol table")
        for name, offset, size in (
            ("code", code_offset, code_size),
            ("rodata", rodata_offset, rodata_size),
            ("symbol table", symtab_offset, 16 * count),
            ("string table", strtab_offset, strtab_size),
        ):
            if offset + size > len(data):
                raise ObjectFormatError(
                    f"{name} [{offset}, +{size}) is outside the file"
                )
        code = list(struct.unpack_from(f"<{code_size // 4}I", data, code_offset))
        strings = data[strtab_offset : strtab_offset + strtab_size]
        symbols: list[Symbol] = []
        for i in range(count):
            name_at, entry, size, nargs, kind = _SYMBOL.unpack_from(
                data, symtab_offset + 16 * i
            )
            end = strings.find(b"\0", name_at)
            if name_at >= len(strings) or end < 0:
                raise ObjectFormatError(f"symbol {i}: name outside the string table")
            symbols.append(
                Symbol(strings[name_at:end].decode("latin-1"), entry, size, nargs, kind)
            )
        check_symbols(symbols, code_size)
        rodata = data[rodata_offset : rodata_offset + rodata_size]
        return ObjectFile(code, bytes(rodata), symbols)


def object_size(data: bytes) -> int:
    """The bytes of the object at the start of `data`, a loaded one
    (`ObjectFile.from_bytes`): up to its last section's end. A loader
    ignores what follows (xlir-compile's program section, docs/accel.md)."""
    fields = _HEADER.unpack_from(data)
    code, rodata, strings = fields[3:5], fields[5:7], fields[9:11]
    return max(
        HEADER_SIZE, *(offset + size for offset, size in (code, rodata, strings))
    )


def check_symbols(symbols: list[Symbol], code_size: int) -> None:
    """Names unique and well formed, routines in order, inside the code, disjoint."""
    end = 0
    seen: set[str] = set()
    for symbol in symbols:
        if not NAME_PATTERN.fullmatch(symbol.name) or symbol.name in seen:
            raise ObjectFormatError(
                f"symbol name {symbol.name!r} is invalid or repeated"
            )
        seen.add(symbol.name)
        if symbol.kind not in (KERNEL, FUNCTION) or symbol.nargs > 64:
            raise ObjectFormatError(
                f"symbol {symbol.name}: kind {symbol.kind} / {symbol.nargs} arguments"
            )
        if (
            symbol.entry % 4
            or symbol.entry < end
            or symbol.entry + symbol.size > code_size
        ):
            raise ObjectFormatError(
                f"symbol {symbol.name} [{symbol.entry}, +{symbol.size}) overlaps another "
                f"or is outside the {code_size}-byte code"
            )
        end = symbol.entry + symbol.size


def _round_up(n: int, to: int = 64) -> int:
    return -(-n // to) * to
