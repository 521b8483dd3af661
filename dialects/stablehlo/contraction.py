"""Contractions: dot_general, dot and convolution."""

from xdsl.irdl import IRDLOperation

CONTRACTION_OPS: list[type[IRDLOperation]] = []
