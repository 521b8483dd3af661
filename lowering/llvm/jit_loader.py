"""Object code loaded into this process by LLVM's MCJIT: how every target
that compiles code for this host (its executables, kernels, runtime and
support functions) runs it.

A symbol the objects use that neither they nor the process define is an
error before loading (`LoadedObject`): MCJIT would link a call of it to
address 0.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import llvmlite.binding as llvm
from xlir.lowering.llvm.llvmlite_module import jit_target_machine

from xlir.diagnostics import XlirError


class LoadedObject:
    """Object files linked into this process (they may call each other);
    `address(name)` of a symbol. A symbol they use that neither they nor
    the process define is an error here: MCJIT would link a call of it to
    address 0 (as it did `__truncdfhf2`, before the JIT's support
    functions defined it)."""

    def __init__(self, objects: Sequence[bytes]):
        # the engine compiles nothing: a generic machine for the process
        machine = jit_target_machine(llvm.get_process_triple(), "", "")
        self.objects = objects  # the engine reads the objects' bytes in place
        empty = llvm.parse_assembly("")
        self.engine = llvm.create_mcjit_compiler(empty, machine)
        # MCJIT is made with a module and would compile it when finalizing:
        # a code generator's pipeline run on nothing, most of a load's time
        # (0.6 of 0.7 ms for a small program's object).
        self.engine.remove_module(empty)
        _check_resolved(objects)
        for code in objects:
            self.engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        self.engine.finalize_object()

    def address(self, name: str) -> int:
        return self.engine.get_function_address(name)


def _check_resolved(objects: Sequence[bytes]) -> None:
    """Raise XlirError naming each symbol `objects` use that neither they
    define nor the process has (as the engine looks it up: once an engine
    exists, the process's own symbols and those `llvm.add_symbol` made)."""
    defined: set[str] = set()
    used: set[str] = set()
    for code in objects:
        more_defined, more_used = elf_symbols(code)
        defined |= more_defined
        used |= more_used
    missing = sorted(
        name for name in used - defined if llvm.address_of_symbol(name) is None
    )
    if missing:
        raise XlirError(
            "error: the generated code calls "
            + ", ".join(f"'{name}'" for name in missing)
            + ", which this process does not define"
        )


def elf_symbols(code: bytes) -> tuple[set[str], set[str]]:
    """The global symbols a 64-bit little-endian ELF object defines, and
    those it uses without defining; two empty sets for another format."""
    if code[:6] != b"\x7fELF\x02\x01":
        return set(), set()
    (table_at,) = struct.unpack_from("<Q", code, 0x28)
    entry_size, count = struct.unpack_from("<HH", code, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", code, table_at + index * entry_size)
        for index in range(count)
    ]
    defined: set[str] = set()
    used: set[str] = set()
    for _, kind, _, _, offset, size, link, _, _, _ in sections:
        if kind != SYMBOL_TABLE:
            continue
        names_at, names_size = sections[link][4], sections[link][5]
        names = code[names_at : names_at + names_size]
        for at in range(offset, offset + size, SYMBOL_SIZE):
            name_at, info, _, section = struct.unpack_from("<IBBH", code, at)
            if not name_at or info >> 4 not in GLOBAL_BINDINGS:
                continue
            name = names[name_at : names.index(b"\0", name_at)].decode()
            (used if section == 0 else defined).add(name)
    return defined, used


SYMBOL_TABLE = 2
"""ELF's `SHT_SYMTAB`."""
SYMBOL_SIZE = 24
"""Bytes of an `Elf64_Sym`."""
GLOBAL_BINDINGS = (1, 2)
"""`STB_GLOBAL`, `STB_WEAK`."""
