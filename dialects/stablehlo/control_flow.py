"""Control flow and structural ops: while, case, return, optimization_barrier,
composite, custom_call, rng_bit_generator."""

from xdsl.irdl import IRDLOperation

CONTROL_FLOW_OPS: list[type[IRDLOperation]] = []
