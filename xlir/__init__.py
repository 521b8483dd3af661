"""xlir: an XLA-style compiler for StableHLO programs, built on xDSL."""

from xlir.api import compile
from xlir.context import make_context
from xlir.parsing import parse_module

__all__ = ["compile", "make_context", "parse_module"]
