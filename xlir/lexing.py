"""A quicker lexer for the common tokens, under xDSL's parser.

xDSL's `MLIRLexer.lex` skips whitespace with one regular expression, then
looks at the next character in Python and reads the rest of the token with a
second expression: 3-4 us a token, a third to a half of parsing a JAX
program. Most tokens of such a program are identifiers (`%0`,
`stablehlo.add`, `@main`, `#loc3`, `!stablehlo.token`) and punctuation,
which one expression (`_COMMON`) reads, whitespace and comments included, in
one match. Every other token (numbers, strings, `@"quoted"`, `{-#`, the
end of the input, and anything malformed) is left to xDSL's own `lex`, as
are the errors, so tokens, spans and diagnostics are exactly xDSL's
(tests/unit/test_lexing.py compares the two on the corpus and on random
text). One expression of xDSL's is replaced: its string literal's
(`STRING_LITERAL`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

_SUFFIX_ID = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
"""What follows `%`, `#`, `!` and `^` (xDSL's `_suffix_id`)."""

_COMMON = re.compile(
    r"(?://[^\n]*\n?|\s+)*+"  # xDSL's whitespace and comments, never given back
    r"(?:"
    r"(?P<BARE_IDENT>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    rf"|(?P<PERCENT_IDENT>%{_SUFFIX_ID})"
    r"|(?P<AT_IDENT>@[a-zA-Z_][a-zA-Z0-9_$.]*)"
    rf"|(?P<HASH_IDENT>#(?!-\}}){_SUFFIX_ID})"
    rf"|(?P<EXCLAMATION_IDENT>!{_SUFFIX_ID})"
    rf"|(?P<CARET_IDENT>\^{_SUFFIX_ID})"
    r"|(?P<ARROW>->)"
    r"|(?P<ELLIPSIS>\.\.\.)"
    r"|(?P<L_BRACE>\{(?!-#))"
    r"|(?P<single>[-:,()}\[\]<>=+/*?|])"
    r")",
    re.ASCII,
)

_KINDS = {kind.name: kind for kind in MLIRTokenKind}
_SINGLE = {
    "-": MLIRTokenKind.MINUS,
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "}": MLIRTokenKind.R_BRACE,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "+": MLIRTokenKind.PLUS,
    "/": MLIRTokenKind.SLASH,
    "*": MLIRTokenKind.STAR,
    "?": MLIRTokenKind.QUESTION,
    "|": MLIRTokenKind.VERTICAL_BAR,
}


STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')
"""xDSL's expression for a string literal (`MLIRLexer.
_unescaped_characters_regex`) with possessive repetitions: the same strings
and spans, as each character has one way to be read, but without xDSL's
backtracking through every way of cutting a run of plain characters into
pieces, which took time exponential in the run's length where no quote
closes it (an unterminated literal of 30 characters did not finish)."""


@dataclass
class TextToken(Token[MLIRTokenKind, str]):
    """A token that holds its text: xDSL's `Token.text` slices it out of the
    input through three properties each time it is read, and the parser reads
    it a few times per token (a tenth of parsing)."""

    text: str = ""
    """(A default, so that the class attribute hides `Token.text`, the
    property, and the instance's own text is read.)"""


class QuickLexer(MLIRLexer):
    """`MLIRLexer` with the common tokens read by `_COMMON` (as
    `TextToken`s), and string literals by `STRING_LITERAL`."""

    _unescaped_characters_regex = STRING_LITERAL

    def lex(self) -> MLIRToken:
        match = _COMMON.match(self.input.content, self.pos)
        if match is None or match.lastgroup is None:
            return super().lex()
        group = match.lastgroup
        start, end = match.span(group)
        self.pos = end
        text = match[group]
        kind = _SINGLE[text] if group == "single" else _KINDS[group]
        return TextToken(kind, Span(start, end, self.input), text)
