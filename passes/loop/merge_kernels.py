"""`merge-kernels`: a kernel equal to an earlier one of the module, up to its
name, is dropped, and its launches launch the earlier one.

A program that repeats a layer (a transformer's projections, a GRU's two
directions, the rounds of a random number generator) lowers each copy to a
kernel of its own, and each became an LLVM function that the rest of the
compile (the llvm dialect, translation, LLVM's optimization and code
generation) paid for again. Equal means: the same argument types, argument
attributes and kernel attributes, and bodies whose ops match one for one
in name, operands (as positions in the body), result types, properties,
attributes, successors and regions (block argument types included).
Locations are not compared: nothing below the loop level reads them except
bounds checks, whose messages name the source, so a target that checks
bounds leaves this pass out.

The surviving kernel keeps its name and its place; a launch of a dropped
one names the survivor. `loop-to-llvm` marks a kernel's buffer `noalias`
from all its launches (`kernel_aliasing.distinct_arguments`), so the
merged kernel is `noalias` only where every launch of either copy keeps
that buffer apart: never less safe, and the same where the copies were
launched alike. Runs after the other loop passes, which decide per kernel
and per launch (`fuse-kernels` needs each kernel launched once).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import KernelOp

from xlir.walk import walk


@dataclass(frozen=True)
class MergeKernelsPass(ModulePass):
    """See the module docstring."""

    name = "merge-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        survivors: dict[Attribute, list[KernelOp]] = {}  # by signature
        renamed: dict[str, SymbolRefAttr] = {}
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            alike = survivors.setdefault(kernel.function_type, [])
            survivor = next((s for s in alike if same_kernel(s, kernel)), None)
            if survivor is None:
                alike.append(kernel)
                continue
            renamed[kernel.sym_name.data] = SymbolRefAttr(survivor.sym_name)
            kernel.detach()
        if not renamed:
            return
        for top in op.body.block.ops:
            if isinstance(top, KernelOp):
                continue
            for inner in walk(top):
                if isinstance(inner, LaunchOp):
                    target = renamed.get(inner.kernel.root_reference.data)
                    if target is not None:
                        inner.kernel = target


def same_kernel(a: KernelOp, b: KernelOp) -> bool:
    """Whether two kernels are equal up to their names and locations (the
    module docstring). Compared op by op, stopping at the first difference
    (kernels of one signature mostly differ within their first ops), rather
    than hashed whole: a hash walks every op of every kernel and hashes
    every value's type, dearer than the lowering of the copies it saves."""
    return (
        a.function_type == b.function_type
        and a.arg_attrs == b.arg_attrs
        and a.attributes == b.attributes
        and _Match().regions(a.body, b.body)
    )


class _Match:
    """Two bodies compared in step; `pairs` maps each value and block of the
    first to its counterpart in the second, as they are met (a kernel is
    isolated from above: every operand is the body's own, defined before
    its use or, in a block met later, not matched: the kernels are kept
    apart)."""

    def __init__(self) -> None:
        self.pairs: dict[SSAValue | Block, SSAValue | Block] = {}

    def regions(self, a: Region, b: Region) -> bool:
        blocks_a, blocks_b = a.blocks, b.blocks
        if len(blocks_a) != len(blocks_b):
            return False
        self.pairs.update(
            zip(blocks_a, blocks_b, strict=True)
        )  # a branch may name a later block
        return all(map(self.blocks, blocks_a, blocks_b))

    def blocks(self, a: Block, b: Block) -> bool:
        if len(a.args) != len(b.args):
            return False
        for x, y in zip(a.args, b.args, strict=True):
            if x.type != y.type:
                return False
            self.pairs[x] = y
        ops_a, ops_b = tuple(a.ops), tuple(b.ops)
        return len(ops_a) == len(ops_b) and all(map(self.ops, ops_a, ops_b))

    def ops(self, a: Operation, b: Operation) -> bool:
        pairs = self.pairs
        if (
            a.name != b.name
            or len(a.operands) != len(b.operands)
            or len(a.results) != len(b.results)
            or len(a.successors) != len(b.successors)
            or len(a.regions) != len(b.regions)
            or any(
                pairs.get(x) is not y
                for x, y in zip(a.operands, b.operands, strict=True)
            )
            or any(
                pairs.get(x) is not y
                for x, y in zip(a.successors, b.successors, strict=True)
            )
            or a.properties != b.properties
            or a.attributes != b.attributes
        ):
            return False
        for x, y in zip(a.results, b.results, strict=True):
            if x.type != y.type:
                return False
            pairs[x] = y
        return all(map(self.regions, a.regions, b.regions))
