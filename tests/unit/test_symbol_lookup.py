"""Symbol lookups from verifiers (dialects/symbols.py): indexed while a
module verifies, they find what xDSL's scan finds."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.traits import SymbolTable
from xlir.dialects.symbols import indexed_symbols, lookup_symbol


def _module() -> tuple[ModuleOp, FuncOp, FuncOp, FuncOp]:
    """`@f`, a second `@f` (xDSL finds the first), and `@inner::@g`."""
    first, second = FuncOp("f", ((), ())), FuncOp("f", ((), ()))
    nested = FuncOp("g", ((), ()))
    inner = ModuleOp([nested], sym_name=StringAttr("inner"))
    return ModuleOp([first, second, inner]), first, second, nested


@pytest.mark.parametrize("indexed", [False, True])
def test_lookup_finds_what_xdsl_finds(indexed: bool) -> None:
    _, first, second, nested = _module()
    names: list[str | SymbolRefAttr] = [
        "f",
        "missing",
        SymbolRefAttr("inner", ["g"]),
        SymbolRefAttr("inner", ["missing"]),
    ]
    want = [SymbolTable.lookup_symbol(second, name) for name in names]
    assert want == [first, None, nested, None]
    if indexed:
        with indexed_symbols():
            got = [lookup_symbol(second, name) for name in names]
    else:
        got = [lookup_symbol(second, name) for name in names]
    assert got == want


def test_lookup_without_a_table_is_an_error() -> None:
    with indexed_symbols(), pytest.raises(ValueError, match="no SymbolTable"):
        lookup_symbol(FuncOp("f", ((), ())), "f")
