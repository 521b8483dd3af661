"""`combine-all-reduces`: neighbouring independent all_reduces of the same
groups and reduction become one variadic all_reduce (XLA's all-reduce
combiner).

Each collective synchronises its group at run time; across processes that
costs a round trip whatever the size, so a training step that sums each
gradient with its own all_reduce pays one per gradient. One variadic op
pays one, and the runtime moves its operands as one message
(`Communicator.all_reduce_many`).

All_reduces combine when they have the same `replica_groups`, the same
grouping mode (channel id > 0 or not, `use_global_device_ids`), the same
element type and equal computations, none reads another's result, and
only pure ops lie between them. The combined op takes the place of the last
of them and the first's attributes (its channel handle, its location); the
pure ops between them that read an earlier one's result move to just after
it. Any other op with effects (another collective, a custom_call, a send)
ends the combining there: no collective moves past it. Every process runs
the same program and so combines alike, and each still reaches each
collective.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xlir.dialects.stablehlo.collectives import AllReduceOp, grouping_mode
from xlir.dialects.stablehlo.types import element_type
from xlir.passes.hlo.cse import same_nested_types


@dataclass
class _Group:
    """All_reduces to combine, and what must follow the combined op: their
    results and the pure ops after the first that read them."""

    members: list[AllReduceOp]
    later: set[SSAValue] = field(default_factory=set[SSAValue])
    readers: list[Operation] = field(default_factory=list[Operation])

    @staticmethod
    def starting_at(op: AllReduceOp) -> _Group:
        return _Group([op], set(op.results))

    def add(self, op: Operation) -> None:
        """A member (an all_reduce) or a reader of the members' results."""
        if isinstance(op, AllReduceOp):
            self.members.append(op)
        else:
            self.readers.append(op)
        self.later.update(op.results)


def _combinable(first: AllReduceOp, op: AllReduceOp) -> bool:
    return (
        first.replica_groups == op.replica_groups
        and grouping_mode(first) == grouping_mode(op)
        and element_type(first.inputs[0].type) == element_type(op.inputs[0].type)
        and first.computation.is_structurally_equivalent(op.computation)
        and same_nested_types(first.computation, op.computation)
    )


def _reads_any(op: Operation, values: set[SSAValue]) -> bool:
    """Whether the op, or an op in its regions, reads one of `values`."""
    return any(v in values for nested in op.walk() for v in nested.operands)


def _combine(group: _Group) -> None:
    """Replace the group's members by one all_reduce where the last was."""
    members = group.members
    if len(members) < 2:
        return
    first, last = members[0], members[-1]
    combined = AllReduceOp.create(
        operands=[v for m in members for v in m.inputs],
        result_types=[t for m in members for t in m.result_types],
        properties=dict(first.properties),
        attributes=dict(first.attributes),
        regions=[first.computation.clone()],
    )
    combined.location = first.location
    Rewriter.insert_op(combined, InsertPoint.before(last))
    results = iter(combined.results)
    for member in members:
        for result in member.results:
            result.replace_all_uses_with(next(results))
        Rewriter.erase_op(member)
    anchor: Operation = combined
    for reader in group.readers:
        if reader.is_before_in_block(combined):
            reader.detach()
            Rewriter.insert_op(reader, InsertPoint.after(anchor))
            anchor = reader


def combine_in_block(block: Block) -> None:
    """Combine the all_reduces of one block (module docstring)."""
    group: _Group | None = None
    for op in list(block.ops):
        if group is None:
            if isinstance(op, AllReduceOp):
                group = _Group.starting_at(op)
            continue
        reads = _reads_any(op, group.later)
        if isinstance(op, AllReduceOp) and not reads:
            if _combinable(group.members[0], op):
                group.add(op)
                continue
        elif is_side_effect_free(op):
            if reads:
                group.add(op)
            continue
        _combine(group)
        group = _Group.starting_at(op) if isinstance(op, AllReduceOp) else None
    if group is not None:
        _combine(group)


class CombineAllReducesPass(ModulePass):
    name = "combine-all-reduces"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [
            block
            for nested in op.walk()
            if not isinstance(nested, AllReduceOp)
            for region in nested.regions
            for block in region.blocks
        ]
        for block in blocks:
            combine_in_block(block)
