"""How each op takes part in fusion, by op name.

The classes follow XLA:CPU (`CanBeLoopFused`, `IsExpensive` in
cpu_instruction_fusion.cc), with one deliberate difference: every
transcendental (sine, cosine, tan as well as exp, log, tanh, ...) counts as
expensive, because each is a range reduction plus a polynomial, as costly as
exp; XLA calls the real sine and cosine cheap.
"""

from __future__ import annotations

from enum import Enum

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation
from xlir.dialects.stablehlo.types import element_type, is_float, shape
from xlir.dialects.syntax import array_values


class Role(Enum):
    LOOP = "loop"
    """Elementwise or data movement: fuses into consumers, one output element
    per iteration of a loop nest."""
    REDUCTION = "reduction"
    """The root of an input fusion; producers fuse into it."""
    CONTRACTION = "contraction"
    """dot/convolution: the root of an output fusion; only elementwise
    consumers fuse with it, nothing fuses into its operands."""
    CONSTANT = "constant"
    """Scalar or splat constants: copied into every fusion that reads them."""
    OPAQUE = "opaque"
    """Everything else (control flow, sort, scatter, custom calls, calls, large
    constants, ops of other dialects): never fused."""


ELEMENTWISE_CHEAP = frozenset(
    "stablehlo." + name
    for name in [
        "abs",
        "add",
        "and",
        "bitcast_convert",
        "ceil",
        "clamp",
        "compare",
        "convert",
        "count_leading_zeros",
        "floor",
        "is_finite",
        "maximum",
        "minimum",
        "multiply",
        "negate",
        "not",
        "or",
        "popcnt",
        "round_nearest_afz",
        "round_nearest_even",
        "select",
        "shift_left",
        "shift_right_arithmetic",
        "shift_right_logical",
        "sign",
        "subtract",
        "xor",
    ]
) | {
    "chlo.conj",
    "chlo.is_inf",
    "chlo.is_neg_inf",
    "chlo.is_pos_inf",
    "chlo.next_after",
}

ELEMENTWISE_EXPENSIVE = frozenset(
    "stablehlo." + name
    for name in [
        "atan2",
        "cbrt",
        "cosine",
        "exponential",
        "exponential_minus_one",
        "log",
        "log_plus_one",
        "logistic",
        "power",
        "rsqrt",
        "sine",
        "sqrt",
        "tan",
        "tanh",
    ]
) | frozenset(
    "chlo." + name
    for name in [
        "erf",
        "erfc",
        "erf_inv",
        "lgamma",
        "digamma",
        "bessel_i1e",
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atan",
        "atanh",
        "cosh",
        "sinh",
        "tan",
    ]
)

DIVISIONS = frozenset({"stablehlo.divide", "stablehlo.remainder"})
"""Expensive, except an integer division by a constant (multiplies and
shifts once compiled), as in XLA."""

DATA_MOVEMENT = frozenset(
    "stablehlo." + name
    for name in [
        "broadcast_in_dim",
        "reshape",
        "transpose",
        "slice",
        "pad",
        "concatenate",
        "iota",
        "reverse",
        "dynamic_slice",
        "dynamic_update_slice",
    ]
)

GATHER = "stablehlo.gather"
"""Loop-fusible as a consumer (XLA:CPU emits it elementally), expensive as a
producer: it may read any element of its operand, any number of times."""

DYNAMIC_UPDATE_SLICE = "stablehlo.dynamic_update_slice"
REDUCTIONS = frozenset({"stablehlo.reduce", "stablehlo.reduce_window"})
CONTRACTIONS = frozenset(
    {"stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution"}
)
CONSTANT = "stablehlo.constant"
BROADCAST = "stablehlo.broadcast_in_dim"


def role(op: Operation) -> Role:
    name = op.name
    if name == CONSTANT:
        return Role.CONSTANT if is_small_constant(op) else Role.OPAQUE
    if (
        name in ELEMENTWISE_CHEAP
        or name in ELEMENTWISE_EXPENSIVE
        or name in DIVISIONS
        or name in DATA_MOVEMENT
        or name == GATHER
    ):
        return Role.LOOP
    if name in REDUCTIONS:
        return Role.REDUCTION
    if name in CONTRACTIONS:
        return Role.CONTRACTION
    return Role.OPAQUE


def is_small_constant(op: Operation) -> bool:
    """A scalar, splat or empty constant: cheaper to rematerialize in each
    fusion than to read from memory."""
    value = op.properties.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    dims = shape(op.results[0].type)
    if len(dims) == 0 or 0 in dims:  # a scalar, or no elements at all
        return True
    return value.is_splat()


def is_expensive(op: Operation) -> bool:
    """Whether recomputing the op per use costs more than reading its result
    (XLA's IsExpensive)."""
    name = op.name
    if name in ELEMENTWISE_CHEAP or name in DATA_MOVEMENT or name == CONSTANT:
        return False
    if name in DIVISIONS:
        if is_float(element_type(op.results[0].type)):
            return True
        divisor = op.operands[1].owner
        if isinstance(divisor, Operation) and divisor.name == BROADCAST:
            divisor = divisor.operands[0].owner
        return not (isinstance(divisor, Operation) and role(divisor) == Role.CONSTANT)
    return True


def element_count(value_type: Attribute) -> int:
    count = 1
    for dim in shape(value_type):
        count *= dim
    return count


def reuse_factor(consumer: Operation, operand_index: int) -> int:
    """How many times the consumer reads each element of that operand, at
    most (1: each element once or not at all)."""
    name = consumer.name
    operand = consumer.operands[operand_index]
    if name == BROADCAST:
        return max(
            1,
            element_count(consumer.results[0].type)
            // max(1, element_count(operand.type)),
        )
    if name in CONTRACTIONS or (name == GATHER and operand_index == 0):
        return max(2, element_count(consumer.results[0].type))
    if name == "stablehlo.reduce_window":
        return _window_reuse(consumer)
    return 1


def _window_reuse(op: Operation) -> int:
    """Overlapping windows read an element once per window that covers it."""
    window = array_values(op.properties["window_dimensions"])  # type: ignore[arg-type]
    strides_attr = op.properties.get("window_strides")
    strides = array_values(strides_attr) if strides_attr else (1,) * len(window)  # type: ignore[arg-type]
    factor = 1
    for size, stride in zip(window, strides, strict=True):
        factor *= max(1, -(-size // stride))
    return factor
