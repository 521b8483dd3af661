"""Building `hlo.fusion` ops from a block's plan, and putting the block back
in an order where every value is defined before it is read.

Each group becomes one fusion: its members are cloned, in program order, into
the fusion's block (a member computed in several groups is cloned into each);
the values it reads from outside become its operands, once each; the values
of the ops it is the home of, where something outside reads them, are
yielded. The fusion takes the location of its last yielded op (its root).
Groups and the ops left unfused are ordered topologically, each as close to
its original place as the dependencies allow.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xlir.dialects.hlo import FusionOp, YieldOp
from xlir.passes.hlo.fusion.grouping import Group, Plan

from xlir.walk import walk

Node = Group | Operation


class Outliner:
    def __init__(self, plan: Plan, names: Iterator[int]):
        self.plan = plan
        self.block = plan.block
        self.names = names
        self.provided: dict[SSAValue, SSAValue] = {}
        """Original value -> the fusion result that now carries it."""
        self.kept = [op for op in plan.position if self._stays(op)]
        self.kept_set = set(self.kept)
        self.nested_reads = self._nested_reads()
        self.defined_inside: dict[int, set[SSAValue]] = {}
        """id(group) -> the values its members and their regions define:
        asking an operand's ancestors instead would climb every level of
        nesting for a value defined far outside."""

    def run(self) -> None:
        originals = list(self.plan.position)
        for node in self._schedule():
            if isinstance(node, Group):
                fusion = self._build(node)
                if fusion is not None:
                    self.block.add_op(fusion)
            else:
                node.detach()
                self.block.add_op(node)
        for value, result in self.provided.items():
            for use in list(value.uses):
                reader = use.operation
                if self._reader(reader) in self.kept_set:
                    operands = list(reader.operands)
                    operands[use.index] = result
                    reader.operands = operands
        for op in reversed(originals):
            if op not in self.kept_set:
                self.block.erase_op(op)

    # --- what stays, who reads whom -----------------------------------------

    def _stays(self, op: Operation) -> bool:
        """Ungrouped ops stay; so does a grouped op with no home that is read
        outside the groups computing it (a constant read by an unfused op)."""
        groups = self.plan.groups_of.get(op)
        if not groups:
            return True
        return op not in self.plan.home and any(
            self._read_outside(result, None) for result in op.results
        )

    def _nested_reads(self) -> dict[Operation, dict[SSAValue, None]]:
        """The values of this block's ops that each kept op reads inside its
        regions. Found from the values' uses: walking the regions instead
        would visit every op once per block around it, which is quadratic
        in the depth of nested while loops."""
        reads: dict[Operation, dict[SSAValue, None]] = {}
        for op in self.plan.position:
            for result in op.results:
                for use in result.uses:
                    if use.operation.parent is self.block:
                        continue
                    reader = self._reader(use.operation)
                    if reader is not None and reader in self.kept_set:
                        reads.setdefault(reader, {})[result] = None
        return reads

    def _reader(self, use_op: Operation) -> Operation | None:
        return self.block.find_ancestor_op_in_block(use_op)

    def _read_outside(self, value: SSAValue, group: Group | None) -> bool:
        """Whether some reader of the value does not compute it itself."""
        producer = value.owner
        assert isinstance(producer, Operation)
        for use in value.uses:
            reader = self._reader(use.operation)
            if reader is None:
                continue
            groups = self.plan.groups_of.get(reader)
            if not groups or reader is not use.operation:
                return True
            if any(producer not in g.members for g in groups if g is not group):
                return True
        return False

    def _inside(self, value: SSAValue, group: Group) -> bool:
        """Whether the value is defined by a member or inside one's regions."""
        defined = self.defined_inside.get(id(group))
        if defined is None:
            defined = self.defined_inside[id(group)] = {
                value
                for member in group.members
                for op in walk(member)
                for value in (
                    *op.results,
                    *(arg for r in op.regions for b in r.blocks for arg in b.args),
                )
            }
        return value in defined

    def _provider(self, value: SSAValue) -> Node | None:
        owner = value.owner
        if not isinstance(owner, Operation) or owner not in self.plan.position:
            return None
        if owner in self.plan.home:
            return self.plan.home[owner]
        if owner in self.kept_set:
            return owner
        raise AssertionError(f"fuse: no fusion provides the value of '{owner.name}'")

    # --- order --------------------------------------------------------------

    def _members(self, node: Node) -> list[Operation]:
        if isinstance(node, Group):
            return sorted(node.members, key=self.plan.position.__getitem__)
        return [node]

    def _reads(self, node: Node) -> Iterator[SSAValue]:
        """The values a node reads from outside itself (some more than once)."""
        if isinstance(node, Group):
            for member in self._members(node):
                for inner in walk(member):
                    for value in inner.operands:
                        if not self._inside(value, node):
                            yield value
            return
        yield from node.operands
        yield from self.nested_reads.get(node, ())

    def _schedule(self) -> list[Node]:
        nodes: list[Node] = [*self.plan.groups, *self.kept]
        key = {
            id(node): max(self.plan.position[op] for op in self._members(node))
            for node in nodes
        }
        successors: dict[int, list[Node]] = {id(node): [] for node in nodes}
        pending: dict[int, int] = {}
        for node in nodes:
            deps: dict[int, Node] = {}
            for value in self._reads(node):
                provider = self._provider(value)
                if provider is not None and provider is not node:
                    deps[id(provider)] = provider
            pending[id(node)] = len(deps)
            for dep in deps:
                successors[dep].append(node)
        ready = [(key[id(n)], i, n) for i, n in enumerate(nodes) if not pending[id(n)]]
        heapq.heapify(ready)
        order: list[Node] = []
        tie = len(nodes)
        while ready:
            _, _, node = heapq.heappop(ready)
            order.append(node)
            for successor in successors[id(node)]:
                pending[id(successor)] -= 1
                if not pending[id(successor)]:
                    tie += 1
                    heapq.heappush(ready, (key[id(successor)], tie, successor))
        assert len(order) == len(nodes), "fuse: the fusion graph has a cycle"
        return order

    # --- one fusion ---------------------------------------------------------

    def _build(self, group: Group) -> FusionOp | None:
        members = self._members(group)
        outputs = [
            result
            for op in members
            if self.plan.home.get(op) is group
            for result in op.results
            if self._read_outside(result, group)
        ]
        if not outputs:
            return None
        inputs: list[SSAValue] = []
        index: dict[SSAValue, int] = {}
        sources: dict[SSAValue, SSAValue] = {}
        for op in members:
            for inner in walk(op):
                for value in inner.operands:
                    if value in sources or self._inside(value, group):
                        continue
                    source = self.provided.get(value, value)
                    sources[value] = source
                    if source not in index:
                        index[source] = len(inputs)
                        inputs.append(source)
        body = Block(arg_types=[value.type for value in inputs])
        mapper: dict[SSAValue, SSAValue] = {
            value: body.args[index[source]] for value, source in sources.items()
        }
        for op in members:
            body.add_op(op.clone(value_mapper=mapper))
        body.add_op(YieldOp(*(mapper[value] for value in outputs)))
        fusion = FusionOp(group.kind, inputs, [v.type for v in outputs], Region(body))
        fusion.attributes["name"] = StringAttr(f"fusion.{next(self.names)}")
        root = outputs[-1].owner
        assert isinstance(root, Operation)
        fusion.location = root.location
        for value, result in zip(outputs, fusion.results, strict=True):
            self.provided[value] = result
        return fusion
