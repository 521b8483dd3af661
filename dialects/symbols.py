"""Looking up symbols from verifiers, with an index while a module verifies.

xDSL's `SymbolTable.lookup_symbol` scans the ops of the symbol table for the
name, so verifying a module of n kernels launched n times costs n² steps
(a program of 900 fusions: most of its compile time with each pass
verified). MLIR's verifier keeps a table of the symbols instead. Here,
while `indexed_symbols()` is in force (xlir's `verify_module`, which changes
no IR), `lookup_symbol` indexes each symbol table's names on first use, and
remembers the table around each op it climbed through; everywhere else it
is xDSL's lookup. Both return the
first op of the table with the name, as xDSL does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable


class _Indexes:
    """The symbol table around each op asked about, and each table's names."""

    def __init__(self) -> None:
        self.tables: dict[Operation, Operation | None] = {}
        self.names: dict[Operation, dict[StringAttr, Operation]] = {}

    def table_of(self, op: Operation) -> Operation | None:
        """The nearest op around `op` (itself included) with the SymbolTable
        trait, remembered for every op on the way up: a launch nested in a
        thousand loops climbs them once, not once per launch."""
        climbed: list[Operation] = []
        anchor: Operation | None = op
        table: Operation | None = None
        while anchor is not None:
            if anchor in self.tables:
                table = self.tables[anchor]
                break
            if anchor.has_trait(SymbolTable):
                table = anchor
                break
            climbed.append(anchor)
            anchor = anchor.parent_op()
        for passed in climbed:
            self.tables[passed] = table
        return table

    def names_in(self, table: Operation) -> dict[StringAttr, Operation]:
        names = self.names.get(table)
        if names is None:
            names = self.names[table] = {}
            for op in table.regions[0].block.ops:
                symbol = op.get_trait(SymbolOpInterface)
                if symbol is not None:
                    name = symbol.get_sym_attr_name(op)
                    if name is not None:
                        names.setdefault(name, op)
        return names


_indexes: ContextVar[_Indexes | None] = ContextVar("symbol_indexes", default=None)


@contextmanager
def indexed_symbols() -> Iterator[None]:
    """Answer `lookup_symbol` from an index of each table, for work that
    changes no symbol table (verification)."""
    token = _indexes.set(_Indexes())
    try:
        yield
    finally:
        _indexes.reset(token)


def lookup_symbol(
    op: Operation, name: str | StringAttr | SymbolRefAttr
) -> Operation | None:
    """The op `name` refers to, from the symbol table nearest `op` (as
    `SymbolTable.lookup_symbol`; a ValueError when there is none)."""
    indexes = _indexes.get()
    if indexes is None:
        return SymbolTable.lookup_symbol(op, name)
    table = indexes.table_of(op)
    if table is None:
        raise ValueError(f"Operation {op} has no SymbolTable ancestor")
    if isinstance(name, str | StringAttr):
        name = SymbolRefAttr(name)
    found = indexes.names_in(table).get(name.root_reference)
    if found is None or not name.nested_references:
        return found
    nested_root, *nested = name.nested_references.data
    return lookup_symbol(found, SymbolRefAttr(nested_root, nested))
