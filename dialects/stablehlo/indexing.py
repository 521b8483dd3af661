"""Indexed access: gather and scatter."""

from xdsl.irdl import IRDLOperation

INDEXING_OPS: list[type[IRDLOperation]] = []
