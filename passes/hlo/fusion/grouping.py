"""Forming fusion groups in one block, consumers first, as XLA's
InstructionFusion does (reverse post order).

Every op is placed once all its users are placed. A group is a future
`hlo.fusion`: the ops it computes (`members`) and the ops whose values it
hands to readers outside (`provides`; the op's `home`). An op may be a member
of several groups (a duplicated cheap producer); constants are copied into
every group that reads them.

A producer whose users all sit in one group joins it, if the join rules
allow. A producer read by several groups is, in this order: a reason to merge
sibling reductions; duplicated into each, if cheap and at most
`max-duplication` of them; computed once in one of them and yielded as an
extra output (multi-output fusion) if its shape fits that fusion's one loop
nest (`rules.multi_output_shape`) and no cycle arises; else a group of its
own. Plain fusion and duplication cannot create a cycle between groups;
multi-output and sibling merges are checked by reachability.

The graph of groups and ungrouped ops keeps, for each node, the set of the
nodes it leads to (`reachability.Reachability`), so a cycle check is a bit
test. Ops are placed last to first: a new group or op leads only to nodes
placed before it; a multi-output producer adds edges from its home, and a
sibling merge makes two nodes one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue
from xlir.dialects.hlo import FusionKind
from xlir.passes.hlo.fusion import rules
from xlir.passes.hlo.fusion.explain import Remarks, refused
from xlir.passes.hlo.fusion.op_classes import (
    CONTRACTIONS,
    DYNAMIC_UPDATE_SLICE,
    Role,
    is_expensive,
    reuse_factor,
    role,
)
from xlir.passes.hlo.fusion.reachability import Reachability
from xlir.passes.hlo.fusion.rules import Use

_KIND_PREFERENCE = {FusionKind.INPUT: 0, FusionKind.LOOP: 1, FusionKind.OUTPUT: 2}
"""Where a shared producer is computed once: in a reduction's fusion first."""


@dataclass(eq=False)
class Group:
    kind: FusionKind
    root: Operation
    members: set[Operation] = field(default_factory=set[Operation])
    provides: list[Operation] = field(default_factory=list[Operation])
    reused: dict[Operation, bool] = field(default_factory=dict[Operation, bool])
    """Whether the fusion reads a member's result more than once per element."""
    in_place_buffers: dict[SSAValue, Operation] = field(
        default_factory=dict[SSAValue, Operation]
    )
    """Operand buffer -> the dynamic_update_slice that writes it in place."""
    alive: bool = True


@dataclass
class Plan:
    block: Block
    position: dict[Operation, int]
    groups: list[Group]
    groups_of: dict[Operation, list[Group]]
    home: dict[Operation, Group]


class Planner:
    def __init__(
        self, block: Block, max_ops: int, max_duplication: int, remarks: Remarks
    ):
        self.block = block
        self.ops = list(block.ops)
        self.position = {op: index for index, op in enumerate(self.ops)}
        self.max_ops = max_ops
        self.max_duplication = max_duplication
        self.remarks = remarks
        self.join_rules = rules.join_rules(max_ops)
        self.groups: list[Group] = []
        self.groups_of: dict[Operation, list[Group]] = {}
        self.home: dict[Operation, Group] = {}
        self.reachability = Reachability[Group | Operation](self._successors)
        """Between the groups and the placed ops in none (nodes themselves)."""
        self._signatures: dict[Operation, tuple[object, ...]] = {}

    def plan(self) -> Plan:
        for op in reversed(self.ops):
            self._place(op)
            if op not in self.groups_of:
                self.reachability.add_first(op)
        self._merge_siblings_on_shared_inputs()
        alive = [group for group in self.groups if group.alive]
        return Plan(self.block, self.position, alive, self.groups_of, self.home)

    # --- reading the graph --------------------------------------------------

    def _uses(
        self, producer: Operation
    ) -> tuple[dict[Group, list[Use]], list[Operation]]:
        """The producer's readers: by the group that computes them, and the
        ops outside any group. A use from inside a nested region counts as
        an outside read (the value is passed in)."""
        by_group: dict[Group, list[Use]] = {}
        external: list[Operation] = []
        for result in producer.results:
            for use in result.uses:
                user = self.block.find_ancestor_op_in_block(use.operation)
                if user is None:
                    continue
                groups = self.groups_of.get(user)
                if groups is None or user is not use.operation:
                    external.append(user)
                    continue
                for group in groups:
                    by_group.setdefault(group, []).append((user, use.index))
        return by_group, external

    def _successors(self, node: Group | Operation) -> Iterator[Group | Operation]:
        """Edges between groups and ungrouped ops, as they stand: a group
        feeds the readers of the values it provides."""
        sources = node.provides if isinstance(node, Group) else [node]
        for source in sources:
            for result in source.results:
                for use in result.uses:
                    user = self.block.find_ancestor_op_in_block(use.operation)
                    if user is None:
                        continue
                    groups = self.groups_of.get(user)
                    if groups is None:
                        yield user
                        continue
                    for group in groups:
                        if source not in group.members:
                            yield group

    def _reaches(
        self, sources: Iterable[Group | Operation], target: Group
    ) -> Group | Operation | None:
        """The first source from which a path leads into the target."""
        return self.reachability.reaches(sources, target)

    # --- placing one op -----------------------------------------------------

    def _place(self, producer: Operation) -> None:
        if not any(result.uses for result in producer.results):
            return
        by_group, external = self._uses(producer)
        kind = role(producer)
        if kind is Role.OPAQUE:
            for uses in by_group.values():
                self._remark(
                    producer, uses, refused("not-fusible", rules.not_fusible(producer))
                )
            return
        if kind is Role.CONSTANT:
            for group, uses in by_group.items():
                self._add(producer, group, uses)
            return
        if kind is Role.REDUCTION:
            for uses in by_group.values():
                self._remark(
                    producer, uses, refused("reduce-root", rules.reduce_root(producer))
                )
            self._new_group(producer, FusionKind.INPUT)
            return
        if kind is Role.CONTRACTION:
            self._place_contraction(producer, by_group, external)
            return
        self._remark_contraction_operands(producer, external)
        if len(by_group) > 1 and self._merge_reductions(producer, by_group):
            by_group, external = self._uses(producer)
        if not by_group:
            self._new_group(producer, FusionKind.LOOP)
        elif len(by_group) == 1 and not external:
            ((group, uses),) = by_group.items()
            refusal = self._check_join(producer, group, uses)
            if refusal is None:
                self._add(producer, group, uses)
                self._remark(producer, uses, "fused")
            else:
                self._remark(producer, uses, refused(*refusal))
                self._new_group(producer, FusionKind.LOOP)
        else:
            self._place_shared(producer, by_group, external)

    def _remark_contraction_operands(
        self, producer: Operation, external: list[Operation]
    ) -> None:
        """A dot or convolution outside any fusion reads the producer: say
        why the producer is not fused into it."""
        for user in external:
            if user.name in CONTRACTIONS and any(
                operand.owner is producer for operand in user.operands
            ):
                reason = rules.contraction_operand(producer, None, [(user, 0)])
                assert reason is not None
                self._remark(
                    producer, [(user, 0)], refused("contraction-operand", reason)
                )

    def _place_contraction(
        self,
        producer: Operation,
        by_group: dict[Group, list[Use]],
        external: list[Operation],
    ) -> None:
        if len(by_group) == 1 and not external:
            ((group, uses),) = by_group.items()
            reason = rules.output_fusion(producer, group, uses)
            refusal = ("output-fusion", reason) if reason else None
            if refusal is None and len(group.members) >= self.max_ops:
                refusal = (
                    "max-ops",
                    f"the fusion already has {len(group.members)} ops (max-ops={self.max_ops})",
                )
            if refusal is None:
                self._add(producer, group, uses)
                group.kind = FusionKind.OUTPUT
                self._remark(producer, uses, "fused (output fusion)")
                return
            self._remark(producer, uses, refused(*refusal))
            return
        readers = len(by_group) + len(external)
        for uses in by_group.values():
            self._remark(
                producer,
                uses,
                refused("output-fusion", rules.shared_contraction(readers)),
            )

    def _place_shared(
        self,
        producer: Operation,
        by_group: dict[Group, list[Use]],
        external: list[Operation],
    ) -> None:
        duplicable = (
            not is_expensive(producer) and producer.name != DYNAMIC_UPDATE_SLICE
        )
        fits = len(by_group) <= self.max_duplication
        if (
            duplicable
            and fits
            and not external
            and not any(self._check_join(producer, g, u) for g, u in by_group.items())
        ):
            for group, uses in by_group.items():
                self._add(producer, group, uses)
                self._remark(
                    producer,
                    uses,
                    f"fused (duplicated into {len(by_group)} fusions)",
                )
            return
        home, refusals = self._multi_output_home(producer, by_group, external)
        if home is not None:
            self._add(producer, home, by_group[home])
            self.home[producer] = home
            home.provides.append(producer)
            self.reachability.add_edges(home)
            others = len(by_group) - 1 + len(external)
            self._remark(
                producer,
                by_group[home],
                f"fused (multi-output: also yielded for {others} other reader"
                f"{'s' if others != 1 else ''})",
            )
            for group, uses in by_group.items():
                if group is not home:
                    reason = (
                        rules.no_duplication(producer, home.root)
                        if not duplicable
                        else rules.max_duplication(
                            producer, len(by_group), self.max_duplication
                        )
                        if not fits
                        else f"read from the multi-output fusion at {rules.location(home.root)}"
                    )
                    rule = (
                        "max-duplication" if duplicable and not fits else "multi-output"
                    )
                    self._remark(producer, uses, refused(rule, reason))
            return
        if duplicable and fits:
            self._duplicate(producer, by_group, external)
            return
        for group, uses in by_group.items():
            refusal = refusals.get(group) or (
                (
                    "max-duplication",
                    rules.max_duplication(
                        producer, len(by_group), self.max_duplication
                    ),
                )
                if duplicable
                else ("no-duplication", rules.no_duplication(producer, None))
            )
            self._remark(producer, uses, refused(*refusal))
        self._new_group(producer, FusionKind.LOOP)

    def _duplicate(
        self,
        producer: Operation,
        by_group: dict[Group, list[Use]],
        external: list[Operation],
    ) -> None:
        """A copy in each consumer group that takes it, and a group of its
        own for the readers that still need the value materialized (then
        the others read it too, where `rules.materialized` says so)."""
        refusals = {g: self._check_join(producer, g, u) for g, u in by_group.items()}
        materialize = bool(external) or any(refusals.values())
        reason = rules.materialized(producer) if materialize else None
        for group, uses in by_group.items():
            refusal = refusals[group] or (("materialized", reason) if reason else None)
            if refusal is None:
                self._add(producer, group, uses)
                self._remark(
                    producer, uses, f"fused (duplicated into {len(by_group)} fusions)"
                )
            else:
                self._remark(producer, uses, refused(*refusal))
        if materialize:
            self._new_group(producer, FusionKind.LOOP)

    def _multi_output_home(
        self,
        producer: Operation,
        by_group: dict[Group, list[Use]],
        external: list[Operation],
    ) -> tuple[Group | None, dict[Group, tuple[str, str]]]:
        refusals: dict[Group, tuple[str, str]] = {}
        candidates = sorted(
            by_group,
            key=lambda g: (_KIND_PREFERENCE[g.kind], self.position[g.root]),
        )
        for group in candidates:
            refusal = self._check_join(producer, group, by_group[group])
            if refusal is None:
                reason = rules.multi_output_shape(producer, group)
                refusal = ("multi-output-shape", reason) if reason else None
            if refusal is None:
                others: list[Group | Operation] = [
                    g for g in by_group if g is not group
                ]
                blocker = self._reaches([*others, *external], group)
                if blocker is not None:
                    via = blocker.root if isinstance(blocker, Group) else blocker
                    refusal = ("cycle", rules.cycle(producer, via))
            if refusal is None:
                return group, refusals
            refusals[group] = refusal
        return None, refusals

    # --- sibling reductions -------------------------------------------------

    def _merge_reductions(
        self, producer: Operation, by_group: dict[Group, list[Use]]
    ) -> bool:
        """Input fusions reading the same producer with the same reduction
        shape become one multi-output input fusion."""
        inputs = [g for g in by_group if g.kind is FusionKind.INPUT]
        return self._merge_all(inputs, producer)

    def _merge_siblings_on_shared_inputs(self) -> None:
        """The same for reductions that read one value from outside (an
        argument, an unfused op's result)."""
        readers: dict[SSAValue, dict[Group, None]] = {}
        for group in self.groups:
            if group.alive and group.kind is FusionKind.INPUT:
                for member in sorted(group.members, key=self.position.__getitem__):
                    for value in member.operands:
                        owner = value.owner
                        if isinstance(owner, Operation) and owner in group.members:
                            continue
                        if (
                            isinstance(owner, Operation)
                            and role(owner) is Role.CONSTANT
                        ):
                            continue
                        readers.setdefault(value, {})[group] = None
        for groups in readers.values():
            self._merge_all([g for g in groups if g.alive], None)

    def _merge_all(self, groups: Sequence[Group], producer: Operation | None) -> bool:
        merged = False
        pending = list(groups)
        while len(pending) > 1:
            first, rest = pending[0], pending[1:]
            # Each pair gets a remark; else only groups unrelated to the first
            # may merge with it (merging only adds paths), and a parameter
            # read by every reduction of a large program makes many pairs.
            candidates = (
                rest
                if producer is not None and self.remarks.enabled
                else [rest[i] for i in self.reachability.unrelated(first, rest)]
            )
            for other in candidates:
                refusal = self._sibling_refusal(first, other)
                if refusal is None:
                    self._remark_sibling(
                        other,
                        first,
                        "fused (sibling reductions, one multi-output input fusion)",
                    )
                    self._absorb(first, other)
                    merged = True
                    continue
                if producer is not None and self.remarks.enabled:
                    rule, reason = refusal
                    self._remark_sibling(other, first, refused(rule, reason()))
            pending = [other for other in rest if other.alive]
        return merged

    def _sibling_refusal(
        self, a: Group, b: Group
    ) -> tuple[str, Callable[[], str]] | None:
        """The rule refusing to merge two sibling groups, and a function
        writing why (only `explain` reads it)."""
        if self._signature(a.root) != self._signature(b.root):
            return ("sibling-shape", rules.sibling_shapes)
        if len(a.members) + len(b.members) > self.max_ops:
            size = len(a.members | b.members)
            if size > self.max_ops:
                return (
                    "max-ops",
                    lambda: (
                        f"together they would have {size} ops (max-ops={self.max_ops})"
                    ),
                )
        for source, target in ((a, b), (b, a)):
            if self.reachability.leads(source, target):
                return ("cycle", lambda t=target, s=source: rules.cycle(t.root, s.root))
        return None

    def _signature(self, op: Operation) -> tuple[object, ...]:
        signature = self._signatures.get(op)
        if signature is None:
            signature = self._signatures[op] = _signature(op)
        return signature

    def _remark_sibling(self, other: Group, first: Group, verdict: str) -> None:
        self.remarks.pair(self.position[other.root], other.root, first.root, verdict)

    def _absorb(self, into: Group, other: Group) -> None:
        self.reachability.merge(into, other)
        other.alive = False
        for op in other.members:
            groups = self.groups_of[op]
            groups[:] = [g for g in groups if g is not other]
            if into not in groups:
                groups.append(into)
            into.reused[op] = into.reused.get(op, False) or other.reused.get(op, False)
        into.members |= other.members
        into.in_place_buffers.update(other.in_place_buffers)
        for op in other.provides:
            self.home[op] = into
        into.provides += other.provides

    # --- bookkeeping --------------------------------------------------------

    def _check_join(
        self, producer: Operation, group: Group, uses: Sequence[Use]
    ) -> tuple[str, str] | None:
        for name, rule in self.join_rules:
            reason = rule(producer, group, uses)
            if reason is not None:
                return name, reason
        return None

    def _add(self, producer: Operation, group: Group, uses: Sequence[Use]) -> None:
        group.members.add(producer)
        self.groups_of.setdefault(producer, []).append(group)
        group.reused[producer] = any(
            reuse_factor(user, index) > 1 or group.reused.get(user, False)
            for user, index in uses
        )
        if producer.name == DYNAMIC_UPDATE_SLICE:
            group.in_place_buffers[producer.operands[0]] = producer

    def _new_group(self, root: Operation, kind: FusionKind) -> None:
        group = Group(kind, root)
        self.groups.append(group)
        self._add(root, group, ())
        self.home[root] = group
        group.provides.append(root)
        self.reachability.add_first(group)

    def _remark(self, producer: Operation, uses: Sequence[Use], verdict: str) -> None:
        self.remarks.pair(self.position[producer], producer, uses[0][0], verdict)


def _signature(op: Operation) -> tuple[object, ...]:
    """Reductions fuse as siblings when they iterate the same space."""
    return (
        op.name,
        tuple(operand.type for operand in op.operands),
        tuple(result.type for result in op.results),
        tuple(sorted(op.properties.items())),
    )
