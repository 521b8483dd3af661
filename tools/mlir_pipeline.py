"""MLIR's textual pass pipelines (`--pass-pipeline='builtin.module(inline,
func.func(cse,canonicalize))'`) as the flat `-p` spec xlir's pass manager
runs.

xlir's passes are module passes that visit every function, so an anchor
(`builtin.module(...)`, `func.func(...)`) only groups its passes: they run
in the order written, each over the whole module.
"""

from __future__ import annotations

ANCHORS = ("builtin.module", "func.func")
NAME_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
)


class PipelineSyntaxError(ValueError):
    """A malformed pipeline; the message names the column."""


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, expected: str) -> PipelineSyntaxError:
        found = repr(self.text[self.at]) if self.at < len(self.text) else "the end"
        return PipelineSyntaxError(
            f"--pass-pipeline: expected {expected} at column {self.at + 1}, "
            f"found {found}"
        )

    def peek(self) -> str:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1
        return self.text[self.at] if self.at < len(self.text) else ""

    def name(self) -> str:
        self.peek()
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in NAME_CHARACTERS:
            self.at += 1
        if self.at == start:
            raise self.fail("a pass or op name")
        return self.text[start : self.at]

    def options(self) -> str:
        """`{...}` with nested braces, kept as written."""
        start, depth = self.at, 0
        while self.at < len(self.text):
            depth += {"{": 1, "}": -1}.get(self.text[self.at], 0)
            self.at += 1
            if depth == 0:
                return self.text[start : self.at]
        self.at = start
        raise self.fail("'}' closing the options that start")

    def pipeline(self, closing: str) -> list[str]:
        """Elements up to `closing` (')' or the end), each a pass with its
        options; anchors' passes are spliced in."""
        passes: list[str] = []
        while True:
            start = self.at
            name = self.name()
            if self.peek() == "{":
                name += self.options()
            if self.peek() == "(":
                if name not in ANCHORS:
                    self.at = start
                    raise self.fail(f"a pass, or an anchor among {', '.join(ANCHORS)}")
                self.at += 1
                if self.peek() == ")":
                    self.at += 1
                else:
                    passes += self.pipeline(")")
            else:
                passes.append(name)
            following = self.peek()
            if following == ",":
                self.at += 1
                continue
            if following == closing:
                self.at += 1 if closing else 0
                return passes
            raise self.fail(f"',' or {repr(closing) if closing else 'the end'}")


def flat_spec(pipeline: str) -> str:
    """The `-p` spec of an MLIR pipeline string; an empty pipeline (`''`,
    `builtin.module()`) runs no pass."""
    reader = _Reader(pipeline)
    if reader.peek() == "":
        return ""
    return ",".join(reader.pipeline(""))
