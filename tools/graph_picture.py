"""Writing the picture of `xlir-opt --view-graph=FILE`: `.dot` (graphviz's
language), `.svg` (laid out by graphviz's `dot`), or `.html`, one
self-contained page that needs no script: `dot`'s SVG inline where `dot`
is installed, else a layout of its own (the boxes stacked in program order,
edges as arcs on their right, refused pairs as dashed arcs on their left).
The page also lists every refused pair with its rule and reason."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp

from xlir.diagnostics import XlirError

if TYPE_CHECKING:
    from xlir.passes.hlo.fusion.explain import Refusal
    from xlir.tools.fusion_graph import ComputationGraph

SUFFIXES = (".svg", ".dot", ".html")

_LINE = 15
_CHAR = 7.2
_GAP = 26
_LEFT = 190
"""Room left of the boxes for the refused pairs' arcs and labels."""


def dot_svg(dot: str) -> str:
    """graphviz's SVG of a DOT text; an XlirError when `dot` is missing or
    fails."""
    import subprocess  # here: xlir-opt names SUFFIXES in its help, without it

    program = shutil.which("dot")
    if program is None:
        raise XlirError(
            "error: --view-graph: an .svg needs graphviz's `dot` program, which "
            "is not installed (Debian: apt-get install graphviz); write .dot or "
            ".html instead"
        )
    done = subprocess.run(
        [program, "-Tsvg"], input=dot, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        raise XlirError(f"error: --view-graph: dot failed: {done.stderr.strip()}")
    return done.stdout


def _box_lines(box) -> list[str]:
    return [box.title, box.kind, *box.buffers] + [
        f"{node.name}  {node.detail}" for node in box.nodes
    ]


def layout_svg(graph: ComputationGraph) -> str:
    """One function laid out without graphviz, as inline SVG."""
    from html import escape  # here, as subprocess in dot_svg

    tops: dict[str, float] = {}
    mids: dict[str, float] = {}
    heights: dict[str, float] = {}
    y = 10.0
    width = 0.0
    for box in graph.boxes:
        lines = _box_lines(box)
        heights[box.id] = _LINE * len(lines) + 10
        width = max(width, max(len(line) for line in lines) * _CHAR + 20)
        tops[box.id] = y
        mids[box.id] = y + heights[box.id] / 2
        y += heights[box.id] + _GAP
    order = {box.id: i for i, box in enumerate(graph.boxes)}
    box_of = graph.box_of()
    right = _LEFT + width
    arcs: list[str] = []
    pairs = dict.fromkeys(
        (box_of[e.source].id, box_of[e.target].id)
        for e in graph.edges
        if box_of[e.source] is not box_of[e.target]
    )
    reach = 0.0
    for source, target in pairs:
        bend = right + 16 + 10 * min(abs(order[target] - order[source]), 30)
        reach = max(reach, bend)
        arcs.append(
            f'<path d="M{right:.0f},{mids[source]:.0f} C{bend:.0f},{mids[source]:.0f} '
            f'{bend:.0f},{mids[target]:.0f} {right:.0f},{mids[target]:.0f}" '
            'class="edge" marker-end="url(#arrow)"/>'
        )
    for pair in graph.refused:
        if pair.source is None or pair.target is None:
            continue
        source, target = box_of[pair.source].id, box_of[pair.target].id
        bend = _LEFT - 20 - 8 * min(abs(order[target] - order[source]), 18)
        arcs.append(
            f'<path d="M{_LEFT},{mids[source]:.0f} C{bend:.0f},{mids[source]:.0f} '
            f'{bend:.0f},{mids[target]:.0f} {_LEFT},{mids[target]:.0f}" '
            'class="refused" marker-end="url(#arrow)"/>'
            f'<text x="4" y="{(mids[source] + mids[target]) / 2:.0f}" '
            f'class="rule">refused: {escape(pair.refusal.rule)}</text>'
        )
    shapes: list[str] = []
    for box in graph.boxes:
        top, lines = tops[box.id], _box_lines(box)
        fill = "fusion" if box.kind.endswith("fusion") else "plain"
        shapes.append(
            f'<g class="box {fill}"><rect x="{_LEFT}" y="{top:.0f}" rx="6" '
            f'width="{width:.0f}" height="{heights[box.id]:.0f}"/>'
        )
        for i, line in enumerate(lines):
            style = ' class="title"' if i == 0 else ""
            shapes.append(
                f'<text x="{_LEFT + 10}" y="{top + 18 + _LINE * i:.0f}"{style}>'
                f"{escape(line)}</text>"
            )
        shapes.append("</g>")
    total = max(right, reach) + 20
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total:.0f}" '
        f'height="{y:.0f}"><defs><marker id="arrow" viewBox="0 0 10 10" refX="9" '
        'refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z"/></marker></defs>'
        + "".join(shapes + arcs)
        + "</svg>"
    )


_STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
svg text { font-family: monospace; font-size: 12px; }
svg .title { font-weight: bold; }
svg .box rect { stroke: #666; }
svg .fusion rect { fill: #e8f0fe; }
svg .plain rect { fill: #f4f4f4; }
svg .edge { fill: none; stroke: #555; }
svg .refused { fill: none; stroke: red; stroke-dasharray: 5 3; }
svg .rule { fill: red; font-size: 10px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
"""


def _refusal_table(refused: Sequence[Refusal]) -> str:
    from html import escape  # here, as subprocess in dot_svg

    if not refused:
        return "<p>fuse refused no pair.</p>"
    rows = "".join(
        f"<tr><td>{escape(r.rule)}</td><td>{escape(r.producer)} "
        f"({escape(r.producer_at)})</td><td>{escape(r.consumer)} "
        f"({escape(r.consumer_at)})</td><td>{escape(r.reason)}</td></tr>"
        for r in refused
    )
    return (
        "<table><tr><th>rule</th><th>producer</th><th>consumer</th>"
        f"<th>why</th></tr>{rows}</table>"
    )


def html_page(graphs: Sequence[ComputationGraph], title: str, use_dot: bool) -> str:
    """The page: `dot`'s SVG of all functions when `use_dot`, else each
    function laid out here; then each function's refused pairs."""
    from html import escape  # here, as subprocess in dot_svg

    from xlir.tools.fusion_graph import dot_text

    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
        f"{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
    ]
    if use_dot:
        svg = dot_svg(dot_text(graphs))
        parts.append(svg[svg.index("<svg") :])
    for graph in graphs:
        parts.append(f"<h2>{escape(graph.title)}</h2>")
        if graph.plan:
            parts.append(f"<p>buffer plan: {escape(graph.plan)}</p>")
        if not use_dot:
            parts.append(layout_svg(graph))
        parts.append(_refusal_table([pair.refusal for pair in graph.refused]))
    parts.append("</body></html>\n")
    return "".join(parts)


def write_picture(
    module: ModuleOp,
    refusals: Sequence[Refusal],
    path: Path,
    title: str,
    use_dot: bool | None = None,
) -> None:
    """Writes the picture, in the format its suffix names. `use_dot` (for
    .html) defaults to whether graphviz's `dot` is installed."""
    # The graph's modules (the fusion pass's) are imported here, so that
    # xlir-opt, which names SUFFIXES in its help, starts without them.
    from xlir.tools.fusion_graph import dot_text, module_graphs

    if path.suffix not in SUFFIXES:
        raise XlirError(
            f"error: --view-graph={path}: expected a file ending in "
            f"{', '.join(SUFFIXES)}; found '{path.suffix or 'no suffix'}'"
        )
    graphs = module_graphs(module, refusals)
    if path.suffix == ".dot":
        text = dot_text(graphs)
    elif path.suffix == ".svg":
        text = dot_svg(dot_text(graphs))
    else:
        if use_dot is None:
            use_dot = shutil.which("dot") is not None
        text = html_page(graphs, title, use_dot)
    path.write_text(text)
