"""`chlo.top_k` as a selection: one pass over each row keeping its k best.

The results hold each row's best elements so far, in order (largest first,
the lower index first among equals). A `loop.parallel` over the rows runs a
`loop.for` over the row that carries the order key of the k-th best; an
element enters only if it is strictly above that key (so an equal element
seen later stays below: the selection is stable) or while fewer than k are
kept. The row is read in blocks of `BLOCK`: the largest key of a block (a
max reduction LLVM vectorizes) is compared with the k-th best's, and only a
block that holds an entering element (or one of the first k) is read again
element by element, so most elements cost a vector lane, where a full sort
touches every element log2(n) times. Entering is an insertion: a `loop.for`
over the slots whose trip count is 0 for an element that does not enter. The
insertion carries the element being placed down the slots: it takes the
first slot whose element it beats (or that is still empty), and from there
on every slot's element moves down one.

A top_k that `sort-routines` marked calls the target's top_k routine
instead, which runs the same scan compiled once (top_k_routine.py).

Floats are ordered by IEEE totalOrder (NaN above +inf, +0 above -0, as the
decomposition's `compare GT, TOTALORDER` and the evaluator order them),
integers as signed or unsigned numbers, booleans false < true.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.ir import SSAValue
from xlir.dialects.chlo import TopKOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.types import is_unsigned
from xlir.lowering.index_maps import Indices
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.kernels.top_k_routine import lower_top_k_routine
from xlir.lowering.scalar import (
    UnsupportedScalarOp,
    total_order_key,
    total_order_key_type,
)
from xlir.passes.hlo.sort_routines import TOP_K_ROUTINE, top_k_bits

BLOCK = 16
"""Elements whose largest key is compared with the k-th best's at once (16
keys of 32 bits fill a 512-bit register)."""


def lower_top_k(op: TopKOp, name: str) -> KernelOp:
    bits = top_k_bits(op) if TOP_K_ROUTINE in op.attributes else None
    if bits is not None and op.k.value.data:
        return lower_top_k_routine(op, name, bits)
    kb = KernelBuilder(op, name)
    (x,), (values, indices) = kb.inputs, kb.outputs
    dims = tuple(op.operand.type.get_shape())  # type: ignore[attr-defined]
    element = op.operand.type.get_element_type()  # type: ignore[attr-defined]
    index_type = op.indices.type.get_element_type()  # type: ignore[attr-defined]
    length, k = dims[-1], op.k.value.data
    if isinstance(element, AnyFloat):
        key_type = total_order_key_type(element)
        greater = "sgt"

        def key_of(value: SSAValue) -> SSAValue:
            return total_order_key(kb.place, value)

    elif isinstance(element, IntegerType):
        key_type = IntegerType(element.width.data)  # buffers are signless
        unsigned = element.width.data == 1 or is_unsigned(element)
        greater = "ugt" if unsigned else "sgt"

        def key_of(value: SSAValue) -> SSAValue:
            return value

    else:
        raise UnsupportedScalarOp(op, f"on {element} is not supported")
    if k == 0:
        return kb.finish()
    ix = kb.ix

    def above(a: SSAValue, b: SSAValue) -> SSAValue:
        return kb.place(arith.CmpiOp(a, b, greater))

    bits = key_type.width.data
    if greater == "sgt":
        largest: type[arith.MaxSIOp | arith.MaxUIOp] = arith.MaxSIOp
        lowest = kb.const(-(1 << (bits - 1)), key_type)
    else:
        largest = arith.MaxUIOp
        lowest = kb.const(0, key_type)

    def row(idx: Indices) -> None:
        def element_step(p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            (threshold,) = carried
            value = kb.load(x, [*idx, p])
            key = key_of(value)
            filling = ix.cmp("slt", p, k)
            enters = above(key, threshold)
            slots = kb.place(
                arith.SelectOp(
                    filling,
                    ix.add(p, 1),
                    kb.place(arith.SelectOp(enters, ix.const(k), ix.const(0))),
                )
            )
            position = kb.place(arith.IndexCastOp(p, index_type))
            false = kb.const(0, IntegerType(1))

            def slot(s: SSAValue, moving: list[SSAValue]) -> list[SSAValue]:
                new_value, new_index, new_key, shifting = moving
                at = [*idx, s]
                old_value, old_index = kb.load(values, at), kb.load(indices, at)
                old_key = key_of(old_value)
                empty = ix.cmp("sge", s, p)
                beats = kb.place(arith.OrIOp(empty, above(new_key, old_key)))
                take = kb.place(arith.OrIOp(shifting, beats))
                kb.store(
                    kb.place(arith.SelectOp(take, new_value, old_value)), values, at
                )
                kb.store(
                    kb.place(arith.SelectOp(take, new_index, old_index)), indices, at
                )
                return [
                    kb.place(arith.SelectOp(take, old_value, new_value)),
                    kb.place(arith.SelectOp(take, old_index, new_index)),
                    kb.place(arith.SelectOp(take, old_key, new_key)),
                    take,
                ]

            kb.for_loop(0, slots, [value, position, key, false], slot)
            last = kb.load_in_place(values, [*idx, ix.const(k - 1)])
            return [key_of(last)]

        threshold = kb.const(0, key_type)
        blocks = length // BLOCK
        if blocks:

            def block_step(b: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                (threshold,) = carried
                start = ix.mul(b, BLOCK)

                def widest(e: SSAValue, most: list[SSAValue]) -> list[SSAValue]:
                    key = key_of(kb.load(x, [*idx, ix.add(start, e)]))
                    return [kb.place(largest(most[0], key))]

                (most,) = kb.for_loop(0, BLOCK, [lowest], widest)
                enters = kb.place(
                    arith.OrIOp(above(most, threshold), ix.cmp("slt", start, k))
                )
                end = kb.place(arith.SelectOp(enters, ix.add(start, BLOCK), start))
                return kb.for_loop(start, end, [threshold], element_step)

            (threshold,) = kb.for_loop(0, blocks, [threshold], block_step)
        if length % BLOCK:
            kb.for_loop(blocks * BLOCK, length, [threshold], element_step)

    if len(dims) > 1:
        kb.parallel(dims[:-1], row)
    else:
        row([])
    return kb.finish()


KERNELS = {"chlo.top_k": lower_top_k}
