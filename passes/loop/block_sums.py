"""`block-sums{block=256}`: long float sums added up in blocks.

A reduction adds its terms one after another into one accumulator, and
each add rounds: the error of n terms summed in order grows with n (in the
worst case like n ulps), so a sum or a contraction over millions of f32
terms loses several digits that a blocked or pairwise sum (XLA's, numpy's)
keeps. This pass bounds how many adds any one accumulator takes to
`block`: a loop that would add more into its accumulator is strip-mined
into chunks, each summed from zero into a partial that is then added to the
accumulator; the loop over the chunks is split the same way when it has
more than `block` of them (a tree of fan-out at most `block`, as numpy's
pairwise sum is a tree of fan-out 2 above its blocks). The error is then
that of a sum of about `block` terms per level, a few levels deep.

The order is fixed by the loop nest and `block` alone, not by the vector
width, the threads or the data, so results are deterministic; they are not
bit for bit the sequential order's for sums of more than `block` terms,
which is why the split is here and not under `vectorize`'s `reassociate`
(that one also changes with the vector width). Sums of at most `block`
terms are left alone.

A nest counts as a whole: inner loops that continue an outer loop's
accumulator add their terms to it. Chunks take as many whole iterations of
a loop as fit in `block` adds; where one iteration alone adds more than half
of `block`, each iteration's inner sum starts from zero instead and is
added to the accumulator once. A chunk's partial starts at -0.0, the
identity of IEEE addition (+0.0 would turn a sum of -0.0s into +0.0).

A loop is rewritten when every value it carries is such an accumulator (a
float or vector of floats whose only use in an iteration is a chain of
`arith.addf`, of `math.fma` as the addend, or of inner loops of the same
kind, ending in the loop's yield at its own position), and its bounds are
static. Loops carrying anything else (a max, an argmax's index, a scan) are
left alone; max and min are exact in any order. An inner loop that adds at
most `block` terms into its accumulators still counts as adding them where
it also carries other values (`row_lanes`' loop over a tile's columns
carries the columns), so the loop around it is split as if its
body were written out.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import AnyFloat, FloatAttr, ModuleOp, VectorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.loop_utils import index_constant, static_trip_count
from xlir.dialects.loop.loops import ForOp, YieldOp

from xlir.diagnostics import XlirError
from xlir.walk import walk

DEFAULT_BLOCK = 256
"""Terms per block of a long sum (the CPU pipeline's; the prebuilt GEMM
routine splits its sums by it too, so that both give the same bits)."""


def _is_float(type_: Attribute) -> bool:
    if isinstance(type_, VectorType):
        type_ = type_.get_element_type()
    return isinstance(type_, AnyFloat)


class _Blocker:
    """Rewrites the accumulation loops of one module, innermost first,
    remembering how many adds each loop makes into its accumulators."""

    def __init__(self, block: int):
        self.block = block
        self.adds: dict[ForOp, int] = {}
        self.riders: dict[ForOp, set[int]] = {}
        """The positions of the values that are not accumulators in a loop
        that also carries some (`row_lanes`' columns)."""

    def chain_adds(self, loop: ForOp, position: int) -> int | None:
        """The adds one iteration of `loop` makes into its accumulator at
        `position`, or None when that value is not an accumulator."""
        value: SSAValue = loop.carried[position]
        if not _is_float(value.type):
            return None
        adds = 0
        while True:
            uses = list(value.uses)
            if len(uses) != 1:
                return None
            (use,) = uses
            user = use.operation
            if isinstance(user, YieldOp):
                return (
                    adds
                    if user.parent is loop.body.block and use.index == position
                    else None
                )
            if isinstance(user, arith.AddfOp) or (
                isinstance(user, math.FmaOp) and use.index == 2
            ):
                adds += 1
            elif isinstance(user, ForOp) and user in self.adds:
                index = use.index - (len(user.operands) - len(user.iter_args))
                if index < 0 or index in self.riders.get(user, ()):
                    return None
                adds += self.adds[user]
                value = user.results[index]
                continue
            else:
                return None
            value = user.results[0]

    def rewrite(self, loop: ForOp) -> ForOp:
        """Bound the adds of `loop` if it is an accumulation loop; the loop
        that stands in its place, its adds recorded."""
        count = static_trip_count(loop.lower, loop.upper, loop.step)
        if count is None or not loop.iter_args:
            return loop
        per_iteration = [self.chain_adds(loop, k) for k in range(len(loop.carried))]
        summed = [a for a in per_iteration if a is not None]
        if not summed:
            return loop
        adds = max(1, *summed)
        if len(summed) < len(per_iteration):
            if count * adds <= self.block:  # carries other values along
                self.adds[loop] = count * adds
                self.riders[loop] = {
                    k for k, a in enumerate(per_iteration) if a is None
                }
            return loop
        chunk = self.block // adds
        if count * adds > self.block and chunk < 2:
            _restart_each_iteration(loop)
            adds, chunk = 1, self.block
        if count * adds <= self.block:
            self.adds[loop] = count * adds
            return loop
        return self._strip_mine(loop, count, chunk, adds)

    def _strip_mine(self, loop: ForOp, count: int, chunk: int, adds: int) -> ForOp:
        """`loop` as a loop over chunks of `chunk` iterations, each summed
        from zero and added to the accumulators, then the iterations left;
        the last of these loops."""
        lower, upper, step = loop.lower, loop.upper, loop.step
        assert isinstance(lower, int) and isinstance(upper, int)
        assert isinstance(step, int)
        chunks = count // chunk
        split = lower + chunks * chunk * step
        remainder_body = loop.body.clone() if split != upper else None
        builder = Builder(InsertPoint.before(loop))
        zero: dict[Attribute, SSAValue] = {}
        for value in loop.iter_args:
            if value.type not in zero:
                zero[value.type] = _negative_zero(builder, value.type)
        zeros = [zero[value.type] for value in loop.iter_args]
        outer_block = Block(arg_types=[a.type for a in loop.body.block.args])
        outer = builder.insert(
            ForOp(lower, split, chunk * step, list(loop.iter_args), Region(outer_block))
        )
        inside = Builder(InsertPoint.at_end(outer_block))
        body = loop.body.block
        loop.body.detach_block(body)
        partial = inside.insert(ForOp(0, chunk, 1, zeros, Region(body)))
        _offset_induction_var(partial, outer.induction_var, step)
        sums = [
            inside.insert(arith.AddfOp(acc, p)).result
            for acc, p in zip(outer.carried, partial.results, strict=True)
        ]
        inside.insert(YieldOp(*sums))
        last = self.rewrite(outer)  # more chunks than `block`: chunks of chunks
        if remainder_body is not None:
            rest = builder.insert(
                ForOp(split, upper, step, list(last.results), remainder_body)
            )
            self.adds[rest] = self.adds[last] + (count - chunks * chunk) * adds
            last = rest
        for old, new in zip(loop.results, last.results, strict=True):
            old.replace_all_uses_with(new)
        loop.detach()
        loop.erase()
        return last


def _restart_each_iteration(loop: ForOp) -> None:
    """Each iteration sums its terms from zero and adds that partial to the
    accumulator once."""
    body = loop.body.block
    yielded = body.last_op
    assert isinstance(yielded, YieldOp)
    front = Builder(InsertPoint.at_start(body))
    back = Builder(InsertPoint.before(yielded))
    for position, acc in enumerate(loop.carried):
        (use,) = list(acc.uses)
        use.operation.operands[use.index] = _negative_zero(front, acc.type)
        total = back.insert(arith.AddfOp(acc, yielded.operands[position])).result
        yielded.operands[position] = total


def _offset_induction_var(loop: ForOp, base: SSAValue, step: int) -> None:
    """`loop` runs 0, 1, ...: its body sees `base + iv * step` as before."""
    iv = loop.induction_var
    uses = list(iv.uses)
    builder = Builder(InsertPoint.at_start(loop.body.block))
    offset: SSAValue = iv
    if step != 1:
        offset = builder.insert(arith.MuliOp(iv, index_constant(builder, step))).result
    index = builder.insert(arith.AddiOp(base, offset)).result
    for use in uses:
        use.operation.operands[use.index] = index


def _negative_zero(builder: Builder, type_: Attribute) -> SSAValue:
    if isinstance(type_, VectorType):
        scalar = _negative_zero(builder, type_.get_element_type())
        return builder.insert(vector.BroadcastOp(scalar, type_)).vector
    assert isinstance(type_, AnyFloat)
    return builder.insert(arith.ConstantOp(FloatAttr(-0.0, type_))).result


def block_sums(module: Operation, block: int) -> None:
    blocker = _Blocker(block)
    loops = [op for op in walk(module) if isinstance(op, ForOp)]
    for loop in reversed(loops):  # inner loops first
        blocker.rewrite(loop)


@dataclass(frozen=True)
class BlockSumsPass(ModulePass):
    """Float sums of more than `block` adds into one accumulator, in blocks
    (module docstring)."""

    name = "block-sums"

    block: int = DEFAULT_BLOCK

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.block < 2:
            raise XlirError(
                f"error: block-sums: block must be at least 2, got {self.block}"
            )
        block_sums(op, self.block)
