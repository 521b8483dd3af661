"""mlir-opt's `--verify-diagnostics`: the diagnostics a run emits against the
`expected-error {{...}}` annotations of its source.

Annotations are MLIR's: `expected-error`, `expected-warning`,
`expected-note` and `expected-remark`, each optionally `-re` (the text holds
`{{regex}}` pieces), placed with `@+N`/`@-N` (lines below/above),
`@above`/`@below` (the nearest line around without an annotation) or on the
diagnostic's own line, and followed by `{{text}}`, which must occur in the
message. Every emitted diagnostic must be expected, notes included, and
every annotation must be met; each miss is reported as mlir-opt does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ANNOTATION = re.compile(
    r"expected-(?P<severity>error|warning|note|remark)(?P<regex>-re)?"
    r"\s*(?:@(?P<where>above|below|[+-]\d+))?\s*\{\{(?P<text>.*)\}\}"
)
ANNOTATION_START = re.compile(r"expected-(error|warning|note|remark)\b")
DIAGNOSTIC = re.compile(
    r"^(?:(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): )?"
    r"(?P<severity>error|warning|note|remark): (?P<message>.*)$"
)


@dataclass
class Expected:
    """One annotation: where it is written and the line it expects."""

    severity: str
    text: str
    pattern: re.Pattern[str]
    line: int  # the diagnostic's line
    written_at: tuple[int, int]  # the annotation's own line and column
    met: bool = False


@dataclass(frozen=True)
class Emitted:
    severity: str
    message: str
    file: str | None
    line: int
    column: int


def has_annotations(source: str) -> bool:
    return ANNOTATION_START.search(source) is not None


def _pattern(text: str, regex: bool) -> re.Pattern[str]:
    """The text as a search pattern: literal, or with `-re` its `{{...}}`
    pieces as regular expressions."""
    if not regex:
        return re.compile(re.escape(text))
    pieces = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile(
        "".join(re.escape(p) if i % 2 == 0 else p for i, p in enumerate(pieces))
    )


def expectations(
    source: str, line_offset: int, file: str
) -> tuple[list[Expected], list[str]]:
    """The annotations of `source` (whose first line is `line_offset + 1` of
    `file`), and diagnostics for malformed ones."""
    found: list[Expected] = []
    problems: list[str] = []
    below: list[Expected] = []
    last_plain = 0
    for index, text in enumerate(source.split("\n")):
        line = index + 1 + line_offset
        starts = list(ANNOTATION_START.finditer(text))
        if not starts:
            for expected in below:
                expected.line = line
            below.clear()
            last_plain = line
            continue
        for start in starts:
            column = start.start() + 1
            match = ANNOTATION.match(text, start.start())
            if match is None:
                problems.append(
                    f"{file}:{line}:{column}: error: expected '{{{{' and '}}}}' "
                    f"around the text of '{start.group(0)}'"
                )
                continue
            try:
                pattern = _pattern(match["text"], bool(match["regex"]))
            except re.error as error:
                problems.append(
                    f"{file}:{line}:{column}: error: invalid regex in "
                    f"'{start.group(0)}-re': {error}"
                )
                continue
            where = match["where"]
            expected = Expected(
                match["severity"], match["text"], pattern, line, (line, column)
            )
            if where == "above":
                if last_plain == 0:
                    problems.append(
                        f"{file}:{line}:{column}: error: '@above' has no line above it"
                    )
                    continue
                expected.line = last_plain
            elif where == "below":
                below.append(expected)
            elif where is not None:
                expected.line = line + int(where)
            found.append(expected)
    for expected in below:
        line, column = expected.written_at
        problems.append(f"{file}:{line}:{column}: error: '@below' has no line below it")
        found.remove(expected)
    return found, problems


def emitted(output: str) -> list[Emitted]:
    """The diagnostics in a tool's error text (their headers: the quoted
    source lines and carets under them are not diagnostics)."""
    result = []
    for text in output.split("\n"):
        match = DIAGNOSTIC.match(text)
        if match is not None:
            located = match["line"] is not None
            result.append(
                Emitted(
                    match["severity"],
                    match["message"],
                    match["file"],
                    int(match["line"]) if located else 0,
                    int(match["column"]) if located else 0,
                )
            )
    return result


def unmet(file: str, expected: list[Expected], diagnostics: list[Emitted]) -> list[str]:
    """mlir-opt's reports: each diagnostic no annotation expects, then each
    annotation no diagnostic met."""
    reports = []
    for diagnostic in diagnostics:
        match = next(
            (
                e
                for e in expected
                if not e.met
                and e.severity == diagnostic.severity
                and diagnostic.file == file
                and e.line == diagnostic.line
                and e.pattern.search(diagnostic.message)
            ),
            None,
        )
        if match is not None:
            match.met = True
            continue
        where = (
            f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}: "
            if diagnostic.file is not None
            else ""
        )
        reports.append(
            f"{where}error: unexpected {diagnostic.severity}: {diagnostic.message}"
        )
    for e in expected:
        if not e.met:
            line, column = e.written_at
            reports.append(
                f'{file}:{line}:{column}: error: expected {e.severity} "{e.text}" '
                "was not produced"
            )
    return reports
