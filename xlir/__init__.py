"""xlir: an XLA-style compiler for StableHLO programs, built on xDSL.

`compile` and `load_executable` (a program `xlir-compile` wrote, run without
compiling) are imported on first use: it brings in the targets' runtime, which
`xlir-opt` and the other tools that never run a program do without."""

from typing import TYPE_CHECKING, Any

from xlir.context import make_context
from xlir.parsing import parse_module

if TYPE_CHECKING:
    from xlir.api import compile, load_executable

__all__ = ["compile", "load_executable", "make_context", "parse_module"]


def __getattr__(name: str) -> Any:
    if name == "compile":
        from xlir.api import compile

        return compile
    if name == "load_executable":
        from xlir.api import load_executable

        return load_executable
    raise AttributeError(f"module 'xlir' has no attribute '{name}'")
