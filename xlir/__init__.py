"""xlir: an XLA-style compiler for StableHLO programs, built on xDSL."""

from xlir.context import make_context
from xlir.parsing import parse_module

__all__ = ["make_context", "parse_module"]
