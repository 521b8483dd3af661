"""Looking up symbols from verifiers, with an index while a module verifies.

xDSL's `SymbolTable.lookup_symbol` scans the ops of the symbol table for the
name, so verifying a module of n kernels launched n times costs n² steps
(a program of 900 fusions: most of its compile time with each pass
verified). MLIR's verifier keeps a table of the symbols instead. Here,
while `indexed_symbols()` is in force (xlir's `verify_module`, which changes
no IR), `lookup_symbol` indexes each symbol table's names on first use and
answers from the index; everywhere else it is xDSL's lookup. Both return the
first op of the table with the name, as xDSL does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable

_Index = dict[Operation, dict[StringAttr, Operation]]

_indexes: ContextVar[_Index | None] = ContextVar("symbol_indexes", default=None)


@contextmanager
def indexed_symbols() -> Iterator[None]:
    """Answer `lookup_symbol` from an index of each table, for work that
    changes no symbol table (verification)."""
    token = _indexes.set({})
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
    table: Operation | None = op
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    if table is None:
        raise ValueError(f"Operation {op} has no SymbolTable ancestor")
    if isinstance(name, str | StringAttr):
        name = SymbolRefAttr(name)
    found = _index(indexes, table).get(name.root_reference)
    if found is None or not name.nested_references:
        return found
    nested_root, *nested = name.nested_references.data
    return lookup_symbol(found, SymbolRefAttr(nested_root, nested))


def _index(indexes: _Index, table: Operation) -> dict[StringAttr, Operation]:
    index = indexes.get(table)
    if index is None:
        index = indexes[table] = {}
        for op in table.regions[0].block.ops:
            symbol = op.get_trait(SymbolOpInterface)
            if symbol is not None:
                symbol_name = symbol.get_sym_attr_name(op)
                if symbol_name is not None:
                    index.setdefault(symbol_name, op)
    return index
