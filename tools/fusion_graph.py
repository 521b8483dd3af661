"""The fused program as a graph, for `xlir-opt --view-graph`: per
computation (a function's body, each region of a while or case op in it),
one box per argument, fusion, unfused op and the results, each fusion with
its ops, kind, tensor shapes and the buffer plan of its results (arena
offset and size); edges from the op that makes a value to each op that
reads it; and the producer-consumer pairs `fuse` refused, with the rule that
refused them. `dot_text` writes it in graphviz's language, fusions as
clusters named as in the IR."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator
from xlir.dialects.hlo import FusionOp, YieldOp
from xlir.dialects.hlo_buffers import BUFFERS, PLAN, TEMP, BufferAttr, PlanAttr
from xlir.passes.hlo.fuse import COMPUTATIONS
from xlir.passes.hlo.fusion.explain import UNKNOWN, Refusal, location

from xlir.walk import walk


@dataclass
class OpNode:
    id: str
    name: str
    detail: str
    """The result types (and a count of ops in nested regions)."""


@dataclass
class Box:
    """An argument, a fusion, an op left unfused, or the results."""

    id: str
    title: str
    kind: str
    buffers: list[str] = field(default_factory=list)
    nodes: list[OpNode] = field(default_factory=list)


@dataclass
class Edge:
    source: str
    target: str
    label: str


@dataclass
class RefusedPair:
    """A refusal, with the nodes of its producer and consumer where they
    could be found (by location) in the fused program."""

    refusal: Refusal
    source: str | None
    target: str | None


@dataclass
class ComputationGraph:
    title: str
    plan: str
    boxes: list[Box]
    edges: list[Edge]
    refused: list[RefusedPair]

    def box_of(self) -> dict[str, Box]:
        return {node.id: box for box in self.boxes for node in box.nodes}


def shape(type: Attribute) -> str:
    """`64x128xf32` for `tensor<64x128xf32>`."""
    text = str(type)
    if isinstance(type, TensorType):
        return text.removeprefix("tensor<").removesuffix(">")
    return text


def buffer_text(index: int, buffer: Attribute) -> str:
    """One result's place in the buffer plan, in words."""
    if not isinstance(buffer, BufferAttr):
        return f"result {index}: {buffer}"
    if buffer.kind == TEMP:
        return (
            f"result {index}: arena offset {buffer.offset_value}, "
            f"{buffer.size_value} bytes"
        )
    return f"result {index}: {buffer.spelling()}"


def plan_text(function: Operation) -> str:
    plan = function.attributes.get(PLAN)
    if not isinstance(plan, PlanAttr):
        return "no buffer plan"
    return ", ".join(f"{key} {value}" for key, value in plan.values().items())


class _Builder:
    def __init__(self, prefix: str):
        self.prefix = prefix
        self.count = 0
        self.producer: dict[SSAValue, str] = {}
        self.at: dict[tuple[str, str], str] = {}
        """Op nodes by op name and location, to place refused pairs."""
        self.edges: list[Edge] = []

    def node(self, name: str, detail: str, op: Operation | None = None) -> OpNode:
        self.count += 1
        node = OpNode(f"{self.prefix}n{self.count}", name, detail)
        if op is not None and location(op) != UNKNOWN:
            self.at.setdefault((op.name, location(op)), node.id)
        return node

    def reads(self, node: OpNode, operands: Sequence[SSAValue]) -> None:
        for value in operands:
            source = self.producer.get(value)
            if source is not None:
                self.edges.append(Edge(source, node.id, shape(value.type)))

    def op_node(self, op: Operation) -> OpNode:
        types = ", ".join(shape(r.type) for r in op.results) or "no results"
        nested = sum(1 for inner in walk(op) if inner is not op)
        detail = types + (f" ({nested} ops in regions)" if nested else "")
        node = self.node(op.name, detail, op)
        self.reads(node, op.operands)
        for result in op.results:
            self.producer[result] = node.id
        return node


def _buffers(op: Operation) -> list[str]:
    buffers = op.attributes.get(BUFFERS)
    if not isinstance(buffers, ArrayAttr):
        return []
    return [buffer_text(i, b) for i, b in enumerate(buffers.data)]


def _fusion_box(build: _Builder, fusion: FusionOp, index: int) -> Box:
    name = fusion.attributes.get("name")
    title = name.data if isinstance(name, StringAttr) else f"fusion #{index}"
    box = Box(f"{build.prefix}b{index}", title, f"{fusion.fusion_kind} fusion")
    box.buffers = _buffers(fusion)
    for argument, operand in zip(fusion.block.args, fusion.operands, strict=True):
        source = build.producer.get(operand)
        if source is not None:
            build.producer[argument] = source
    for op in fusion.block.ops:
        if isinstance(op, YieldOp):
            for result, value in zip(fusion.results, op.operands, strict=True):
                source = build.producer.get(value)
                if source is not None:
                    build.producer[result] = source
        else:
            box.nodes.append(build.op_node(op))
    return box


def block_graph(
    block: Block, title: str, plan: str, refusals: Sequence[Refusal], prefix: str
) -> ComputationGraph:
    """The graph of one computation: a function's body, or a region of a
    while or case op left in it."""
    build = _Builder(prefix)
    boxes: list[Box] = []
    for argument in block.args:
        name = f"%{argument.name_hint or f'arg{argument.index}'}"
        box = Box(f"{prefix}a{argument.index}", name, "argument")
        node = build.node(f"arg {argument.index}", shape(argument.type))
        build.producer[argument] = node.id
        box.nodes.append(node)
        boxes.append(box)
    for index, op in enumerate(block.ops):
        if isinstance(op, FusionOp):
            boxes.append(_fusion_box(build, op, index))
        elif op.has_trait(IsTerminator):
            box = Box(f"{prefix}r", "results", f"{op.name} (results)")
            for i, value in enumerate(op.operands):
                node = build.node(f"result {i}", shape(value.type))
                build.reads(node, [value])
                box.nodes.append(node)
            boxes.append(box)
        else:
            box = Box(f"{prefix}b{index}", op.name, "unfused op")
            box.buffers = _buffers(op)
            box.nodes.append(build.op_node(op))
            boxes.append(box)
    refused: list[RefusedPair] = []
    for r in refusals:
        source = build.at.get((r.producer, r.producer_at))
        target = build.at.get((r.consumer, r.consumer_at))
        if source is not None or target is not None:
            refused.append(RefusedPair(r, source, target))
    return ComputationGraph(title, plan, boxes, build.edges, refused)


_REGION_NAMES = {"stablehlo.while": ("cond", "body")}


def _computations(op: Operation, title: str) -> Iterator[tuple[str, Block]]:
    """The blocks `fuse` fuses, each on its own, in and under `op`."""
    names = _REGION_NAMES.get(op.name, ())
    for index, region in enumerate(op.regions):
        name = names[index] if index < len(names) else f"region {index}"
        here = title if isinstance(op, func.FuncOp) else f"{title} {name}"
        for block in region.blocks:
            yield here, block
            for inner in block.ops:
                if inner.name in COMPUTATIONS:
                    yield from _computations(
                        inner, f"{here} / {inner.name} at {location(inner)}"
                    )


def module_graphs(
    module: ModuleOp, refusals: Sequence[Refusal]
) -> list[ComputationGraph]:
    """A graph per function of the module, and per region of each while
    and case op in them, in order."""
    graphs: list[ComputationGraph] = []
    for function in walk(module):
        if not isinstance(function, func.FuncOp) or not function.body.blocks:
            continue
        plan = plan_text(function)
        for title, block in _computations(function, f"@{function.sym_name.data}"):
            prefix = f"g{len(graphs)}"
            graphs.append(block_graph(block, title, plan, refusals, prefix))
            plan = ""
    return graphs


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


def dot_text(graphs: Sequence[ComputationGraph]) -> str:
    """The graphs in graphviz's language: a cluster per computation, inside it
    a cluster per box (fusions labelled with their name, kind and buffers),
    refused pairs as dashed red edges labelled with the rule."""
    lines = [
        "digraph fused_program {",
        "  rankdir=TB; compound=true;",
        '  node [shape=box, style="rounded,filled", fillcolor=white, '
        'fontname="DejaVu Sans Mono", fontsize=10, margin="0.15,0.06"];',
        '  edge [fontname="DejaVu Sans Mono", fontsize=9, color="#555555"];',
        '  graph [fontname="sans-serif", fontsize=11];',
    ]
    for index, g in enumerate(graphs):
        lines.append(f"  subgraph cluster_computation_{index} {{")
        label = f"{g.title}: {g.plan}" if g.plan else g.title
        lines.append(f"    label={_quoted(label)};")
        for box in g.boxes:
            label = "\n".join([box.title, box.kind, *box.buffers])
            colour = "#e8f0fe" if box.kind.endswith("fusion") else "#f4f4f4"
            lines.append(f"    subgraph cluster_{box.id} {{")
            lines.append(
                f'      label={_quoted(label)}; style=filled; fillcolor="{colour}";'
            )
            for node in box.nodes:
                lines.append(
                    f"      {node.id} [label={_quoted(node.name + chr(10) + node.detail)}];"
                )
            lines.append("    }")
        for edge in g.edges:
            lines.append(
                f"    {edge.source} -> {edge.target} [label={_quoted(edge.label)}];"
            )
        for pair in g.refused:
            if pair.source is None or pair.target is None:
                continue
            lines.append(
                f"    {pair.source} -> {pair.target} [style=dashed, color=red, "
                f"fontcolor=red, constraint=false, "
                f"label={_quoted('refused: ' + pair.refusal.rule)}];"
            )
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"
