"""Every code block of docs/new-hardware.md is the file it quotes, or a
command with what it prints (tests/doc_quotes.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doc_quotes import ROOT, quoted, quotes

DOC = ROOT / "docs" / "new-hardware.md"
TEXT = DOC.read_text()


@pytest.mark.parametrize(
    ("path", "what", "block"), quotes(TEXT), ids=lambda v: str(v)[:40]
)
def test_the_block_is_the_code_it_quotes(path: str, what: str, block: str) -> None:
    assert block == quoted(path, what), (
        f"{DOC.name} quotes {path} {what} as it no longer is; "
        f"`python -m tests.doc_quotes {DOC.relative_to(ROOT)}` refreshes it"
    )


def test_every_block_is_a_quote_or_a_command() -> None:
    """A block follows `<!-- quote: FILE WHAT -->` or `<!-- shell -->`."""
    lines = TEXT.splitlines()
    opening = [
        i for i, line in enumerate(lines) if line.startswith("```") and line != "```"
    ]
    for index in sorted(set(opening)):
        marker = lines[index - 1]
        assert re.fullmatch(r"<!-- (quote: \S+ \S+|shell) -->", marker), (
            f"{DOC.name}:{index + 1}: a code block without a quote or shell marker"
        )


def test_a_quoted_method_keeps_its_blank_lines(tmp_path: Path) -> None:
    """A method is quoted as its lines dedented, blank lines and all, so that
    the quote of ruff-formatted code is ruff-formatted code."""
    source = tmp_path / "module.py"
    source.write_text(
        "class A:\n    def f(self):\n        x = 1\n\n        def g():\n"
        "            return x\n\n        return g\n"
    )
    expected = (
        "def f(self):\n    x = 1\n\n    def g():\n        return x\n\n    return g\n"
    )
    assert quoted(str(source), "A.f") == expected


def test_the_quoted_code_stays_as_ruff_formats_it() -> None:
    """ruff formats the doc's Python blocks as it formats the files they
    quote: a quoted method's line that the file wraps but that fits once
    dedented would come out otherwise (a ruff that leaves Markdown alone
    finds nothing to check)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--diff", str(DOC)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
