"""`passes/hlo/fusion/reachability.py` against a search of the graph, on random
graphs built the way fusion builds them: nodes added consumers first, new
edges from a node, and unrelated nodes merged."""

from __future__ import annotations

import random

import pytest
from xlir.passes.hlo.fusion.reachability import Reachability


class Graph:
    def __init__(self) -> None:
        self.edges: dict[int, set[int]] = {}

    def successors(self, node: int) -> set[int]:
        return self.edges[node]

    def leads(self, source: int, target: int) -> bool:
        stack, seen = [source], {source}
        while stack:
            for successor in self.edges[stack.pop()]:
                if successor == target:
                    return True
                if successor not in seen:
                    seen.add(successor)
                    stack.append(successor)
        return False


def check(graph: Graph, reachability: Reachability[int]) -> None:
    for source in graph.edges:
        for target in graph.edges:
            assert reachability.leads(source, target) == graph.leads(source, target)
        others = [n for n in graph.edges if n != source]
        assert [others[i] for i in reachability.unrelated(source, others)] == [
            n
            for n in others
            if not graph.leads(source, n) and not graph.leads(n, source)
        ]


@pytest.mark.parametrize("seed", range(20))
def test_reachability_follows_the_graph(seed: int) -> None:
    rng = random.Random(seed)
    graph = Graph()
    reachability = Reachability[int](graph.successors)
    for node in range(40):
        known = list(graph.edges)
        graph.edges[node] = set(rng.sample(known, min(len(known), rng.randrange(3))))
        reachability.add_first(node)
        if rng.random() < 0.3 and len(known) > 2:
            # A new edge from an older node to one it does not lie below.
            source = rng.choice(known)
            targets = [n for n in known if n != source and not graph.leads(n, source)]
            if targets:
                graph.edges[source].add(rng.choice(targets))
                reachability.add_edges(source)
        if rng.random() < 0.3:
            nodes = list(graph.edges)
            pairs = [
                (a, b)
                for a in nodes
                for b in nodes
                if a != b and not graph.leads(a, b) and not graph.leads(b, a)
            ]
            if pairs:
                kept, dropped = rng.choice(pairs)
                reachability.merge(kept, dropped)
                graph.edges[kept] |= graph.edges.pop(dropped)
                for successors in graph.edges.values():
                    if dropped in successors:
                        successors.discard(dropped)
                        successors.add(kept)
        check(graph, reachability)


def test_reaches_names_the_first_source_that_leads_there() -> None:
    graph = Graph()
    graph.edges = {0: set(), 1: {0}, 2: set(), 3: {1}}
    reachability = Reachability[int](graph.successors)
    for node in range(4):
        reachability.add_first(node)
    assert reachability.reaches([2, 3, 1], 0) == 3
    assert reachability.reaches([2], 0) is None
