"""Code blocks of the docs that quote the repository's files, so that a doc
and the code it shows cannot drift. A quoting block follows a marker line
naming a file and what of it: a Python file's top-level definition or
assignment (`Name`, or `Class.method`), or a line range (`12-20`):

    <!-- quote: examples/new_target/xlir_qdsp/target.py QdspTarget -->
    ```python
    ...
    ```

`python -m tests.doc_quotes docs/new-hardware.md` rewrites the doc's
quoting blocks from the files (after the code changed)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUOTE = re.compile(r"<!-- quote: (\S+) (\S+) -->\n```(\w*)\n(.*?)```\n", re.S)


def _definition(body: list[ast.stmt], name: str) -> ast.stmt | None:
    for node in body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == name:
            return node
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node
    return None


def quoted(path: str, what: str) -> str:
    """The text of `what` in the repository's file `path`."""
    lines = (ROOT / path).read_text().splitlines(keepends=True)
    if re.fullmatch(r"\d+-\d+", what):
        first, last = map(int, what.split("-"))
        return "".join(lines[first - 1 : last])
    body: list[ast.stmt] = ast.parse("".join(lines)).body
    node = None
    for name in what.split("."):
        node = _definition(body, name)
        if node is None:
            raise KeyError(f"{path} has no top-level {what}")
        body = getattr(node, "body", [])
    assert node is not None and node.end_lineno is not None
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    text = "".join(lines[first - 1 : node.end_lineno])
    indent = len(text) - len(text.lstrip(" "))
    lines = text.splitlines(keepends=True)
    return "".join(line[indent:] if line.strip() else line for line in lines)


def quotes(doc: str) -> list[tuple[str, str, str]]:
    """(path, what, the block's text) of each quoting block of a doc."""
    return [(m[1], m[2], m[4]) for m in QUOTE.finditer(doc)]


def refreshed(doc: str) -> str:
    return QUOTE.sub(
        lambda m: (
            f"<!-- quote: {m[1]} {m[2]} -->\n```{m[3]}\n{quoted(m[1], m[2])}```\n"
        ),
        doc,
    )


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(refreshed(path.read_text()))
