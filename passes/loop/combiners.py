"""Reductions' combiners: which reorder exactly, and their identities.

A reduction `loop.for` carries values each combined with one element per
step (`acc = acc + x`). `vectorize` splits such loops into partial results
and `row_lanes` reduces rows a vector at a time; both need each carried
value's combiner, whether it gives the same bits in any order, and the
value to start a partial result from.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation
from xlir.dialects.loop.loops import ForOp

EXACT_COMBINERS = {
    "arith.maximumf",
    "arith.minimumf",
    "arith.addi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
}
"""Combiners whose partial results combine to the same bits in any order."""

REASSOCIATING_COMBINERS = {"arith.addf", "arith.mulf"}
"""Combiners that round differently when reordered."""


def identity(combiner: str, type_: Attribute) -> FloatAttr | IntegerAttr:
    """The value x with combiner(x, y) == y for every y of `type_`."""
    if isinstance(type_, AnyFloat):
        value = {
            "arith.addf": -0.0,
            "arith.mulf": 1.0,
            "arith.maximumf": float("-inf"),
            "arith.minimumf": float("inf"),
        }[combiner]
        return FloatAttr(value, type_)
    assert isinstance(type_, IntegerType)
    bits = type_.width.data
    value = {
        "arith.addi": 0,
        "arith.muli": 1,
        "arith.andi": -1,
        "arith.ori": 0,
        "arith.xori": 0,
        "arith.maxsi": -(1 << (bits - 1)),
        "arith.minsi": (1 << (bits - 1)) - 1,
        "arith.maxui": 0,
        "arith.minui": -1,
    }[combiner]
    return IntegerAttr(value, type_)


def combiners_of(loop: ForOp) -> list[Operation] | None:
    """Each carried value's combiner, or None unless every carried value is
    used only by its combiner and that only by the yield, at its place."""
    yielded = loop.yield_op().arguments
    found: list[Operation] = []
    for index, arg in enumerate(loop.carried):
        if not arg.has_one_use():
            return None
        combiner = arg.get_user_of_unique_use()
        if (
            combiner is None
            or len(combiner.results) != 1
            or not combiner.results[0].has_one_use()
            or yielded[index] is not combiner.results[0]
        ):
            return None
        found.append(combiner)
    return found


def exact_combiners(loop: ForOp) -> list[Operation] | None:
    """The loop's combiners (`combiners_of`) where every one gives the same
    bits in any order; else None."""
    combiners = combiners_of(loop)
    if combiners is None or not all(c.name in EXACT_COMBINERS for c in combiners):
        return None
    return combiners
