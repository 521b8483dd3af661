"""`QuickLexer` reads every text into exactly xDSL's tokens (kinds and
spans), and fails where xDSL's lexer fails, with its message."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tests.conftest import CORPUS
from xlir.lexing import QuickLexer

LIT = Path(__file__).parents[1] / "lit"
TEXTS = sorted(CORPUS.glob("*/*.mlir")) + sorted(LIT.glob("**/*.mlir"))


def tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple[object, ...]]:
    """The tokens as (kind, start, end), ending with EOF or the error."""
    lexer = lexer_class(Input(text, "t.mlir"))
    found: list[tuple[object, ...]] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as error:
            return [*found, ("error", str(error))]
        found.append((token.kind, token.span.start, token.span.end))
        if token.kind == MLIRTokenKind.EOF:
            return found


def test_the_texts_are_there():
    assert len(TEXTS) > 100


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_corpus_and_lit_texts_lex_as_xdsl_lexes_them(path: Path):
    text = path.read_text()
    assert tokens(QuickLexer, text) == tokens(MLIRLexer, text)


PIECES = [
    " ", "\n", "\t", "// note\n", "//", "%0", "%arg1", "%x.y", "%-", "%", "@main",
    '@"quoted"', "@", "#loc3", "#-}", "{-#", "#", "!stablehlo.token", "!", "^bb0",
    "^", "stablehlo.add", "_x$1", "é", "->", "-", "...", "..", ".", "{", "}", "(",
    ")", "[", "]", "<", ">", "=", ":", ",", "+", "/", "*", "?", "|", "0", "12",
    "1.5e-3", "0x7F", '"s"', '"a\\n"', '"', "dense", "tensor<2xf32>", "~", "$",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_random_texts_lex_as_xdsl_lexes_them(pieces: list[str]):
    text = "".join(pieces)
    assert tokens(QuickLexer, text) == tokens(MLIRLexer, text)
