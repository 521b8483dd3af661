"""Which fusion groups lead to which, kept up to date while they form, so
that a cycle check is one bit test rather than a search of the graph
(XLA's HloReachabilityMap plays this part in its fusion passes).

Every node has a bit, and the set of nodes it leads to is a Python int with
their bits set. Nodes come into being before every node they lead to is
known (fusion places ops consumers first), so a new node's set is its
successors' sets joined. New edges from a node, and two nodes becoming one,
add to the sets of the nodes that lead there: a pass over the nodes, which
are fusion groups and the ops outside them, far fewer than the ops.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

Node = TypeVar("Node", bound=Hashable)


class Reachability(Generic[Node]):
    """Descendants of the nodes of a DAG that its owner builds up
    (`add_first`, `add_edges`) and contracts (`merge`); `successors` reads the
    graph as it stands."""

    def __init__(self, successors: Callable[[Node], Iterable[Node]]) -> None:
        self.successors = successors
        self.bit: dict[Node, int] = {}
        self.below: dict[Node, int] = {}
        """The bits of the nodes each node leads to (itself excluded)."""
        self._indices = itertools.count()

    def add_first(self, node: Node) -> None:
        """A node that no known node leads into; its successors are known."""
        self.bit[node] = 1 << next(self._indices)
        self.below[node] = self._reached_from(node)

    def reaches(self, sources: Iterable[Node], target: Node) -> Node | None:
        """The first source from which a path leads into `target`. A source
        that is not a node (an op inside a group that reads a value in a
        nested region) leads where its successors lead."""
        bit = self.bit[target]
        for source in sources:
            below = self.below.get(source)
            if below is None:
                below = self._reached_from(source)
            if below & bit:
                return source
        return None

    def leads(self, source: Node, target: Node) -> bool:
        """Whether a path leads from the node `source` into `target`."""
        return bool(self.below[source] & self.bit[target])

    def unrelated(self, node: Node, others: Sequence[Node]) -> list[int]:
        """The indices of the `others` that neither lead into `node` nor are
        led to from it."""
        bit, below = self.bit[node], self.below[node]
        bits, belows = self.bit, self.below
        return [
            index
            for index, other in enumerate(others)
            if not (below & bits[other] or belows[other] & bit)
        ]

    def add_edges(self, source: Node) -> None:
        """`source` has new successors (and no cycle arises)."""
        added = self._reached_from(source) & ~self.below[source]
        if added:
            self.below[source] |= added
            self._spread(self.bit[source], added)

    def merge(self, kept: Node, dropped: Node) -> None:
        """`dropped` became part of `kept` (neither led to the other): what
        led to either leads to `kept` and on to where either led."""
        below = self.below[kept] | self.below.pop(dropped)
        bits = self.bit[kept] | self.bit.pop(dropped)
        self.below[kept] = below
        self._spread(bits, below | self.bit[kept])

    def _spread(self, bits: int, added: int) -> None:
        """The nodes leading to any of `bits` now also lead to `added`."""
        for node, below in self.below.items():
            if below & bits:
                self.below[node] = below | added

    def _reached_from(self, node: Node) -> int:
        reached = 0
        for successor in self.successors(node):
            reached |= self.below[successor] | self.bit[successor]
        return reached
