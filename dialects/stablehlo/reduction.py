"""Ops with a reducer or comparator region: reduce, reduce_window,
select_and_scatter, sort."""

from xdsl.irdl import IRDLOperation

REDUCTION_OPS: list[type[IRDLOperation]] = []
