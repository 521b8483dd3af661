"""`QuickLexer` reads every text into exactly xDSL's tokens (kinds, spans
and texts), and fails where xDSL's lexer fails, with its message; its string
literal expression matches what xDSL's does, in time linear in the text
where xDSL's is exponential."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

import xlir
from tests.conftest import CORPUS
from xlir.diagnostics import XlirError
from xlir.lexing import STRING_LITERAL, QuickLexer

LIT = Path(__file__).parents[1] / "lit"
TEXTS = sorted(CORPUS.glob("*/*.mlir")) + sorted(LIT.glob("**/*.mlir"))


def tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple[object, ...]]:
    """The tokens as (kind, start, end, text), ending with EOF or the error."""
    lexer = lexer_class(Input(text, "t.mlir"))
    found: list[tuple[object, ...]] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as error:
            return [*found, ("error", str(error))]
        found.append((token.kind, token.span.start, token.span.end, token.text))
        if token.kind == MLIRTokenKind.EOF:
            return found


class LinearStringsLexer(MLIRLexer):
    """xDSL's lexer with `STRING_LITERAL` (`test_string_literal_matches_as_
    xdsl_matches` shows it matches what xDSL's expression matches): random
    texts and tools/Inputs/unterminated_string.mlir hold unterminated string
    literals long enough for xDSL's own to take minutes."""

    _unescaped_characters_regex = STRING_LITERAL


def test_the_texts_are_there():
    assert len(TEXTS) > 100


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_corpus_and_lit_texts_lex_as_xdsl_lexes_them(path: Path):
    text = path.read_text()
    assert tokens(QuickLexer, text) == tokens(LinearStringsLexer, text)


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
    assert tokens(QuickLexer, text) == tokens(LinearStringsLexer, text)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='"\\ntaF0\n\x0c\x0b\u00e9', max_size=14))
def test_string_literal_matches_as_xdsl_matches(text: str):
    """Short enough for xDSL's backtracking to finish."""
    text = '"' + text
    ours = STRING_LITERAL.match(text)
    theirs = MLIRLexer._unescaped_characters_regex.match(text)
    assert (ours and ours.span()) == (theirs and theirs.span())


def test_unterminated_string_is_a_diagnostic_at_once():
    text = 'func.func @main() attributes {note = "' + "a" * 5000 + "\\q"
    with pytest.raises(XlirError, match="1:38: error: End of file reached before"):
        xlir.compile(text, target="interpreter")
