"""`int8-calls{mr lanes threads min-work vector-bits vector-registers
byte-dot-bits}`: int8 dots on byte quads call the prebuilt int8 GEMM
routine (int8_routine.py) instead of being register-tiled and packed
inline.

`int-dot-quads` and `dot-quads` leave an int8 dot (i8 x i8, u8 x i8 or
i8 x u8 into i32) as a nest over its rows and columns whose sum is one
`arith.dot_quads` per word of four bytes of k:

    loop.parallel (%i, %j) = (0, 0) to (M, N) {
      %s = loop.for %q = 0 to Kq iter_args(%acc = 0 : i32) {
        %w = arith.dot_quads %acc, U[.., ..], S[.., ..]   (u8 and s8 words)
        loop.yield %w
      }
      %r = epilogue(%s)                    (arith, math, loads; optional)
      loop.store %r, %C[%i, %j]
    }

(A read `[i, q]`, B `[q, j]`, either of them the unsigned operand). Inline,
its tile of `vpdpbusd`s costs each compile `register-tile` and
`pack-panels` in Python and LLVM 25-30 ms. This pass, run with
`gemm-calls`, turns it into a loop over panels of `nr` columns, each a
loop over blocks of `ROW_BLOCK` rows, each block a `loop.call` of the
routine (the panel's first packs it into a scratch slice of its own). With
no epilogue the sums go to C (i32); with one, to a scratch block of the
panel's that a nest after the call reads back while it is in L1, running
the epilogue's ops on each sum (`gemm_calls.run_epilogue`), as vector
copies along the panel's columns (`jam`) where every panel is whole. The
panels' loop is marked for threads (`parallelize`'s `{threads}`) where
the inline kernel's work (about `4 M N Kq / nr` vector ops) reaches
`min-work`. i32 sums wrap in any order, so the results are the inline
kernel's bits. Left inline: vectors wider than the machine's `vpdpbusd`
(`byte-dot-bits`), shapes `gemm_panels.panels_cover` leaves out, batched
dots (`int-dot-quads` makes none), A's words not contiguous along k or
B's along its columns (`int-dot-quads` lays them out so), A and B one
buffer, a kernel that reads C or writes A or B, and any other nest.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, MemRefType, i32
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.loop_utils import delinearize, index_constant
from xlir.dialects.arith import DotQuadsOp
from xlir.dialects.loop.calls import CallOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp
from xlir.passes.loop.jam import jam
from xlir.targets.cpu.gemm_calls import Gemm, gemm_of, run_epilogue
from xlir.targets.cpu.int8_routine import int8_routine_name
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    Term,
    calls_loop,
    covered,
    static_sizes,
    terminator,
)

ROW_BLOCK = 64
"""Rows per call: a call's sums (64 rows of a panel, 8 KiB) stay in L1 for
the epilogue after it."""


def _is_zero(value: SSAValue) -> bool:
    """Whether `value` is the i32 constant 0 (a sum's start)."""
    owner = value.owner
    return isinstance(owner, arith.ConstantOp) and owner.value == IntegerAttr(0, i32)


def quads_sum(loop: ForOp) -> tuple[int, Term, Term] | None:
    """(its trips, its unsigned term, its signed term) of a `loop.for` from
    0 by 1 to a constant whose one carried value, from 0, is each trip's
    `arith.dot_quads` of two scalar i32 loads and nothing else (the
    module docstring's sum), else None."""
    sizes = static_sizes(loop)
    if sizes is None or len(loop.iter_args) != 1 or not _is_zero(loop.iter_args[0]):
        return None
    ops = list(loop.body.block.ops)
    if len(ops) != 4 or not isinstance(ops[-1], YieldOp):
        return None
    *loads, dot, yielded = ops
    (acc,) = loop.carried
    if not (
        isinstance(dot, DotQuadsOp)
        and dot.acc is acc
        and list(yielded.operands) == [dot.result]
        and dot.result.type == i32
    ):
        return None
    unsigned, signed = dot.lhs.owner, dot.rhs.owner
    if not (isinstance(unsigned, LoadOp) and isinstance(signed, LoadOp)):
        return None
    if set(loads) != {unsigned, signed}:
        return None
    (trips,) = sizes
    return trips, (unsigned, ()), (signed, ())


def _unsigned_buffer(gemm: Gemm) -> SSAValue:
    """The buffer of the sum's unsigned words."""
    loop = next(op for op in gemm.nest.body.block.ops if isinstance(op, ForOp))
    dot = next(op for op in loop.body.block.ops if isinstance(op, DotQuadsOp))
    load = dot.lhs.owner
    assert isinstance(load, LoadOp)
    return load.buffer


@dataclass(frozen=True)
class Int8CallsPass(RoutineCallsPass):
    """int8 dots on byte quads call the prebuilt int8 routine (module
    docstring)."""

    name = "int8-calls"

    byte_dot_bits: int = 512
    """The widest `vpdpbusd` of the machine compiled for
    (`TargetInfo.byte_dot_bits`): the routine's vectors must fit it."""

    def call(self, nest: ParallelOp, site: Site) -> None:
        if 32 * site.lanes > self.byte_dot_bits:
            return
        gemm = gemm_of(nest, quads_sum, operand_types=("i32",))
        if (
            gemm is None
            or gemm.batch
            or gemm.a_k != 1
            or gemm.b_col != 1
            or gemm.a is gemm.b
            or not covered(site.kernel, gemm.a, gemm.b, gemm.c, gemm.m, gemm.n, site.nr)
        ):
            return
        nr = site.nr
        panels = -(-gemm.n // nr)
        scratch = site.scratch(MemRefType(i32, [panels, gemm.k, nr]))
        outer = ParallelOp([0], [gemm.n], [nr])
        threads = self.threads_for(gemm.m * gemm.n * gemm.k, nr)
        b = calls_loop(nest, outer, threads, panels)
        (column,) = outer.induction_vars
        slot = b.insert(arith.DivUIOp(column, index_constant(b, nr))).result
        block = min(gemm.m, ROW_BLOCK)
        blocks = b.insert(ForOp(0, gemm.m, block))
        first = blocks.induction_var
        b = Builder(InsertPoint.before(terminator(blocks)))
        left = b.insert(arith.SubiOp(index_constant(b, gemm.m), first)).result
        count = b.insert(arith.MinUIOp(left, index_constant(b, block))).result
        if gemm.epilogue:
            sums = site.scratch(MemRefType(i32, [panels, block, nr]))
            c_row = index_constant(b, nr)
            c_at = b.insert(arith.MuliOp(slot, index_constant(b, block * nr)))
        else:
            sums = gemm.c
            c_row = index_constant(b, gemm.c_row)
            c_at = b.insert(arith.AddiOp(b.insert(arith.MuliOp(first, c_row)), column))
        sizes = (gemm.n, gemm.k, gemm.a_row, gemm.b_k)
        rows_unsigned = int(_unsigned_buffer(gemm) is gemm.a)
        arguments = [
            gemm.a, gemm.b, sums, scratch, first, count,
            *(index_constant(b, size) for size in sizes), c_row, c_at.results[0],
            slot, column, index_constant(b, rows_unsigned),
        ]  # fmt: skip
        b.insert(CallOp(int8_routine_name(site.mr, site.lanes), arguments))
        if gemm.epilogue:
            _epilogue(b, gemm, site, sums, (slot, first, count, column))
        Rewriter.erase_op(nest)


def _epilogue(
    b: Builder,
    gemm: Gemm,
    site: Site,
    sums: SSAValue,
    at: tuple[SSAValue, SSAValue, SSAValue, SSAValue],
) -> None:
    """The nest's epilogue on a call's block of sums (`sums[slot, :count,
    :nr]`, rows `first :` of the panel at `column`), while they are in L1:
    a nest over the block's rows and the panel's columns, vector copies
    along the columns (`jam`) where every panel is whole."""
    slot, first, count, column = at
    nr = site.nr
    end = b.insert(arith.AddiOp(first, count)).result
    if gemm.n % nr == 0:
        width: SSAValue | int = nr
    else:
        left = b.insert(arith.SubiOp(index_constant(b, gemm.n), column)).result
        width = b.insert(arith.MinUIOp(left, index_constant(b, nr))).result
    nest = b.insert(ParallelOp([first, 0], [end, width], [1, 1]))
    inside = Builder(InsertPoint.before(terminator(nest)))
    row, offset = nest.induction_vars
    at_row = inside.insert(arith.SubiOp(row, first)).result
    total = inside.insert(LoadOp(sums, [slot, at_row, offset])).result
    sizes = gemm.row_sizes
    rows = delinearize(inside, [0] * len(sizes), [1] * len(sizes), sizes, row)
    col = inside.insert(arith.AddiOp(column, offset)).result
    run_epilogue(inside, gemm, [*rows, col], total)
    if gemm.n % nr == 0:
        jam(nest, {1: nr}, (1, site.lanes))
