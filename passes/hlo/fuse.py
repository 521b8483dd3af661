"""`fuse`: XLA-style fusion of StableHLO ops into `hlo.fusion` ops.

Loop fusion (elementwise and data-movement producers into their consumers),
input fusion (producers into `stablehlo.reduce` / `reduce_window`), output
fusion (a dot or convolution with its elementwise epilogue), and multi-output
fusion (a shared producer computed once and yielded to its other readers;
sibling reductions of one shape in one fusion). `passes/hlo/fusion/` holds the
pieces; `rules.py` lists every refusal by name.

Every elementwise or data-movement op ends up in a loop fusion, even alone,
so that the lowering emits one loop nest per fusion and a library-style
kernel per remaining heavy op (dot, convolution, sort, ...). A lone
reduction is an input fusion of one op for the same reason; scalar and splat
constants are copied into the fusions that read them, larger ones are passed
in as operands.

The pass runs in every function body and, separately, in the bodies of
`stablehlo.while` and `stablehlo.case`; it never fuses across a region
boundary.

Options: `explain=true` prints a remark per producer-consumer pair on stderr
(`fused`, or the rule that refused and why); `max-ops=N` caps the ops of a
fusion; `max-duplication=N` caps the fusions a cheap producer is copied into.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xlir.dialects.hlo import FusionOp
from xlir.passes.hlo.fusion.explain import Remarks
from xlir.passes.hlo.fusion.grouping import Planner
from xlir.passes.hlo.fusion.outline import Outliner

from xlir.diagnostics import XlirError
from xlir.walk import walk

COMPUTATIONS = frozenset({"func.func", "stablehlo.while", "stablehlo.case"})
"""Ops whose blocks are fused, each on its own."""


@dataclass(frozen=True)
class FusePass(ModulePass):
    name = "fuse"

    explain: bool = False
    max_ops: int = 128
    """XLA:CPU bounds a fusion by the code its emitter duplicates; a plain
    op count is the simpler bound with the same purpose."""
    max_duplication: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_ops < 1:
            raise XlirError(
                f"error: fuse: max-ops must be at least 1, got {self.max_ops}"
            )
        if self.max_duplication < 1:
            raise XlirError(
                "error: fuse: max-duplication must be at least 1, got "
                f"{self.max_duplication}"
            )
        existing = sum(isinstance(inner, FusionOp) for inner in walk(op))
        names = itertools.count(existing + 1)
        remarks = Remarks(self.explain)
        for block in _computation_blocks(op):
            plan = Planner(block, self.max_ops, self.max_duplication, remarks).plan()
            remarks.flush()
            Outliner(plan, names).run()


def _computation_blocks(op: Operation) -> Iterator[Block]:
    """Blocks to fuse, outer ones first. The generator resumes after the
    caller has fused a block, and then walks into the while and case ops
    that stayed in it."""
    for region in op.regions:
        for block in region.blocks:
            if op.name in COMPUTATIONS:
                yield block
            for inner in list(block.ops):
                if inner.name in COMPUTATIONS or inner.name == "builtin.module":
                    yield from _computation_blocks(inner)
