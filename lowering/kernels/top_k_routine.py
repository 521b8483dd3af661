"""A `chlo.top_k` marked by `sort-routines` as a call of the target's top_k
routine.

The kernel is a `loop.parallel` over the rows (every position of the
dimensions before the last), which threads as other kernels do; each row
calls `TOP_K[bits](n, k, row, x, values, indices, work, index_bits,
flip_negative, flip_positive)`, which writes the row's k largest elements
and their positions, largest first, the lower position first among equals
(the routine's contract: targets/cpu/top_k_routine.py). The routine orders
an element's bits as an unsigned key, its bits xor one flip where its top
bit is set and the other where not (`FLIPS`): the order of the selection
kernel (lowering/kernels/top_k.py), so the results are its bits. Its work
space (`k` keys and `k` i32 positions a row) is a scratch buffer, row after
row, so that the routine finds a row's from its number.

Which top_ks a routine takes is `sort-routines`' choice
(passes/hlo/sort_routines.py, `top_k_bits`).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import AnyFloat, IntegerType, MemRefType, i8
from xdsl.ir import Attribute
from xlir.dialects.chlo import TopKOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.types import is_unsigned
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.kernels.sort_routine import signed_pattern
from xlir.passes.hlo.sort_routines import TOP_K_BITS

TOP_K = {bits: f"xlir.top_k{bits}" for bits in TOP_K_BITS}
"""The routine for elements of each width."""

WORK_PER_ELEMENT = 6
"""Scalar ops the routine runs per element of a row, as `parallelize`
counts a nest's (a load, four to key it, a compare), so that a loop over
long rows threads."""


def flips(element: Attribute) -> tuple[int, int]:
    """(flip_negative, flip_positive) of the routine's key for this element
    type, as unsigned bit patterns: a float's totalOrder (the magnitude
    bits flipped where the sign is set, then the sign), a signed integer's
    sign flipped, an unsigned integer as it is."""
    if isinstance(element, AnyFloat):
        bits = element.bitwidth
        return (1 << bits) - 1, 1 << (bits - 1)
    assert isinstance(element, IntegerType)
    if is_unsigned(element):
        return 0, 0
    sign = 1 << (element.width.data - 1)
    return sign, sign


def lower_top_k_routine(op: TopKOp, name: str, bits: int) -> KernelOp:
    """The kernel of a top_k with k >= 1 whose elements are `bits` wide."""
    kb = KernelBuilder(op, name)
    ix = kb.ix
    (x,), (values, indices) = kb.inputs, kb.outputs
    dims = tuple(op.operand.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    element = op.operand.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    index = op.indices.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    assert isinstance(index, IntegerType)
    n, k = dims[-1], op.k.value.data
    rows = prod(dims[:-1])
    (work,) = kb.scratch([MemRefType(i8, [rows, k * (bits // 8 + 4)])])
    key = IntegerType(bits)
    negative, positive = (
        kb.const(signed_pattern(f, bits), key) for f in flips(element)
    )

    def row(idx) -> None:
        number = ix.const(0)
        for d, size in enumerate(dims[:-1]):
            number = ix.add(ix.mul(number, size), idx[d])
        kb.call(
            TOP_K[bits],
            [
                ix.const(n),
                ix.const(k),
                number,
                x,
                values,
                indices,
                work,
                ix.const(index.width.data),
                negative,
                positive,
            ],
            work=WORK_PER_ELEMENT * n,
        )

    kb.parallel([*dims[:-1], 1], row)
    return kb.finish()
