"""Reading StableHLO text: xDSL's parser, adapted to what JAX prints.

How it differs from xDSL's own `Parser`:

* Every op gets the location where it stands in the text being parsed
  (`loc("file.mlir":line:col)`), which is what diagnostics need. JAX's export
  flavour puts `loc(...)` after every op, pointing into the Python program
  that produced the text, and defines the `#locN` aliases it uses *after*
  the module: each op's `loc(...)` is kept beside its text position
  (`xlir/source_locations.py`), read once the whole text, aliases included,
  has been seen. JAX's ranges (`"f.py":3:4 to :9`) keep their start.
* Tensor types repeat thousands of times in a large module, and dense
  literals (`dense<0.000000e+00> : tensor<f32>`) dozens of
  times; each distinct spelling is parsed once and then looked up.
* Float elements written as bit patterns (`dense<0xFF800000> : tensor<f32>`,
  JAX's spelling of -inf and NaN) are read as bits, and those bits are what
  the attribute holds (a NaN's payload and quiet bit too); xDSL 0.74 reads
  them as integer values, and packs floats through Python floats.
* xDSL rebuilds a type constraint for every `dense<...>` literal (about
  5 ms each); the constraint is built once here.
* Errors carry the file name, so tools print `file:line:col`; a name used
  but never defined in scope is reported at its first use, not at the end of
  the module.
* An empty text (or one of comments only) is an empty module, as in MLIR.
* Regions nested deeper than `deep_stack.MAX_REGION_DEPTH` are refused where
  the limit is crossed, and running out of Python frames (a literal nested
  100,000 deep) is an error at the token reached, not a `RecursionError`.
* Identifiers and punctuation are lexed by `lexing.QuickLexer` (the same
  tokens, each in one regular-expression match: parsing 0.80-0.88x).
* What xDSL 0.74 turns into an exception without a location is an error where
  it stands: a type an op's syntax does not accept (`arith.subf ... : i64`),
  an integer type wider than MLIR's limit (`i99999999999999999999`), elements
  of a dense array, literal or float attribute that xDSL cannot store (i0,
  integers over 64 bits, f80, f128), a complex literal element that is not a `(re, im)` pair, and an
  operand defined inside the op's own regions (xDSL leaves the op holding a
  placeholder; the verifier then reports that the definition does not
  dominate the use), and a block defined twice after a branch to it.
* A splat literal (`dense<0.0> : tensor<...>`, a blob of one element, or
  either where an op gave the type first, as `loop.global`'s memref) of
  more than `MAX_SPLAT_ELEMENTS` elements is refused: xDSL expands it
  element by element, so a typo in its shape would exhaust memory.
"""

from __future__ import annotations

import math
import re
import struct
import sys
from bisect import bisect_right
from collections.abc import Sequence
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BytesAttr,
    CallSiteLoc,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FloatAttr,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    RankedStructure,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import (
    Attribute,
    AttributeInvT,
    Block,
    Operation,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import base
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xlir.deep_stack import MAX_REGION_DEPTH
from xlir.lexing import QuickLexer
from xlir.source_locations import NotedParseError, source_note, with_source

_TYPED_LITERAL = re.compile(r"<[^<>]*>\s*:\s*tensor<[^<>]*>")
"""A dense literal's contents and its tensor type, as `dense<` ... spells
them when neither has angle brackets inside."""

_HEX_BLOB = re.compile(r'<\s*"0[xX]([^"]*)"\s*>')
"""`dense<"0x...">`: a literal given as raw bytes (group 1: the digits)."""

_STRING_LITERAL = re.compile(r'<\s*"([^"]*)"\s*>')
"""`dense<"...">`: a literal given as a string (group 1), which must be a
hex blob."""

_VALUE_ERRORS = (VerifyException, ValueError, OverflowError, struct.error)
"""What xDSL raises for a value its attribute or type cannot hold (struct's
error: a complex literal's part that its integer element type cannot hold)."""

_BLANK = re.compile(r"(?:\s|//[^\n]*)*")
"""Blanks and comments: what may stand between an op's `loc(...)` and its end."""

_LOCATION_ALIAS = re.compile(r"^(#loc[\w$.-]*)\s*=\s*loc\(", re.MULTILINE)
"""A location alias's definition, up to where its contents start."""

_OP_NAME = re.compile(r'(?:%[^=]*=\s*)?"?([\w.$-]+)')
"""The name of the op whose text starts at a position (after its results)."""

MAX_INTEGER_WIDTH = (1 << 24) - 1
"""MLIR's widest integer type."""

MAX_SPLAT_ELEMENTS = 1 << 24
"""The most elements a splat literal may give (64 MiB of f32)."""

_DENSE_LITERAL_TYPE = base(
    RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]
)


class XlirParser(Parser):
    def __init__(
        self, ctx: Context, text: str, name: str = "<unknown>", line_offset: int = 0
    ):
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(QuickLexer(self.lexer.input))
        self._file = StringAttr(name)
        self._line_offset = line_offset
        self._line_starts = [0]
        index = text.find("\n")
        while index != -1:
            self._line_starts.append(index + 1)
            index = text.find("\n", index + 1)
        self._type_cache: dict[str, TypeAttribute] = {}
        self._dense_cache: dict[str, DenseIntOrFPElementsAttr] = {}
        self._first_uses: dict[str, Span] = {}
        self._region_depth = 0
        self._definitions: dict[ForwardDeclaredValue, SSAValue] = {}
        self._splat_literal = False
        self._typed_literal_count: int | None = None
        self._element_bits: list[bytes | None] | None = None
        """Per float (or complex part) of the dense literal being parsed, in
        order: the bits a bit pattern gave, or None."""
        """The element count of the type an op gave the literal being parsed
        (`parse_dense_int_or_fp_elements_attr`), for its splat check."""
        self._trailing_location: tuple[int, int] | None = None
        """Where the contents of the last `loc(...)` start, and where it ends."""
        self._op_locations: list[tuple[Operation, FileLineColLoc, int]] = []
        self._location_aliases: dict[str, int] = {}
        self._resolved_aliases: dict[str, Attribute | None] = {}

    def parse_optional_region(self, arguments=None):  # type: ignore[override]
        """A region, refused where it would nest deeper than
        `MAX_REGION_DEPTH` (every later pass and target recurses as deep)."""
        if self._current_token.text == "{" and self._region_depth >= MAX_REGION_DEPTH:
            self.raise_error(
                f"regions nested more than {MAX_REGION_DEPTH} deep; xlir accepts "
                f"at most {MAX_REGION_DEPTH} levels"
            )
        self._region_depth += 1
        try:
            return super().parse_optional_region(arguments)
        finally:
            self._region_depth -= 1

    def source_location(self, offset: int) -> FileLineColLoc:
        line = bisect_right(self._line_starts, offset)
        column = offset - self._line_starts[line - 1] + 1
        return FileLineColLoc(
            self._file, IntAttr(line + self._line_offset), IntAttr(column)
        )

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """As xDSL's, but a text with nothing but comments is an empty module
        (as in MLIR), and an undefined name is reported at its first use."""
        if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:
            return ModuleOp([])
        try:
            module = super().parse_module(allow_implicit_module)
            self._attach_source_locations()
            return module
        except RecursionError:
            self.raise_error(
                "nesting too deep: the parser ran out of its "
                f"{sys.getrecursionlimit()} Python frames here"
            )
        except ParseError as error:
            undefined = next(iter(self.forward_ssa_references), None)
            if error.msg.startswith("values used but not defined") and (
                undefined in self._first_uses
            ):
                error = ParseError(
                    self._first_uses[undefined],
                    f"use of undefined value '%{undefined}' (no definition in scope)",
                )
            raise self._noted(error) from None

    def _noted(self, error: ParseError) -> ParseError:
        """A parse error on a line that ends in `loc(...)` (an op JAX
        located: `chlo.zeta`, which xlir does not know), with a note naming
        the line of the user's program that made the op. The op was not
        made, so its location is read here, the aliases found by their
        lines."""
        text = self.lexer.input.content
        start = error.span.start
        line_end = text.find("\n", start)
        line_end = len(text) if line_end == -1 else line_end
        line_start = text.rfind("\n", 0, start) + 1
        at = text.rfind(" loc(", line_start, line_end)
        if at == -1 or text[line_start:at].lstrip().startswith("#"):
            return error  # no location, or an alias's own
        for alias in _LOCATION_ALIAS.finditer(text):
            self._location_aliases.setdefault(alias.group(1), alias.end())
        try:
            self._resume_from(at + len(" loc("))
            source = self._parse_location_body()
        except ParseError:
            return error
        note = source_note(with_source(self.source_location(start), source))
        if note is None:
            return error
        return NotedParseError(error.span, error.msg, note)

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        """Resolve an operand, remembering where each name was first used."""
        if operand.operand_name not in self.ssa_values:
            self._first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def _register_ssa_definition(
        self, name: str, values: Sequence[SSAValue], span: Span
    ) -> None:
        """Remember which value each forward reference became."""
        references = dict(self.forward_ssa_references.get(name, {}))
        super()._register_ssa_definition(name, values, span)
        for index, placeholder in references.items():
            self._definitions[placeholder] = values[index]

    def _parse_block(self) -> Block:
        """A block; one used by a branch before its definition is noted as
        defined too (xDSL 0.74 forgets to, and then fails on a second
        definition with a KeyError instead of reporting the re-declaration)."""
        token = self._current_token
        name = token.text[1:]
        referenced = token.kind == MLIRTokenKind.CARET_IDENT and name in self.blocks
        block = super()._parse_block()
        if referenced and self.blocks[name][1] is None:
            self.blocks[name] = (block, token.span)
        return block

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self._trailing_location = None
        try:
            op = super().parse_operation()
        except VerifyException as error:  # a type its syntax does not accept
            name = _OP_NAME.match(self.lexer.input.content, start)
            self.raise_error(
                f"'{name.group(1) if name else '?'}' op: {error} (not a type or "
                "attribute this op accepts)",
                start,
                max(self.pos, start + 1),
            )
        except (
            ValueError,
            OverflowError,
        ) as error:  # an op's syntax built a bad attribute
            self.raise_error(str(error), start, max(self.pos, start + 1))
        # An operand defined in the op's own regions was a forward reference
        # while the operands were read, and the op did not exist yet when the
        # definition replaced the reference's uses.
        for index, operand in enumerate(op.operands):
            if isinstance(operand, ForwardDeclaredValue):
                defined = self._definitions.get(operand)
                if defined is not None:
                    op.operands[index] = defined
        op.location = self.source_location(start)
        trailing, self._trailing_location = self._trailing_location, None
        if trailing is not None and _BLANK.fullmatch(
            self.lexer.input.content, trailing[1], self.pos
        ):
            self._op_locations.append((op, op.location, trailing[0]))
        return op

    def parse_optional_attribute(self):  # type: ignore[override]
        """An attribute; one whose value its type cannot hold (`dense<-2147483649>
        : tensor<i32>`, `0x1FFFFFFFF : i32`) is an error where it starts."""
        start = self.pos
        try:
            return super().parse_optional_attribute()
        except _VALUE_ERRORS as error:
            message = str(error)
            if isinstance(error, struct.error):
                message = (
                    f"a value of this literal does not fit its element type ({message})"
                )
            self.raise_error(message, start, max(self.pos, start + 1))

    def _parse_optional_integer_or_float_type(self) -> TypeAttribute | None:
        token = self._current_token
        parsed = super()._parse_optional_integer_or_float_type()
        if isinstance(parsed, IntegerType) and parsed.width.data > MAX_INTEGER_WIDTH:
            self.raise_error(
                f"integer type {token.text} is too wide: at most "
                f"{MAX_INTEGER_WIDTH} bits",
                token.span,
            )
        return parsed

    def _check_storable(self, type: Attribute, pos: int, end: int) -> None:
        """Elements of dense arrays and literals are packed into bytes, which
        xDSL cannot do for some types (i0, integers over 64 bits, f80, f128)."""
        element = type.element_type if isinstance(type, ComplexType) else type
        if not isinstance(element, IntegerType | AnyFloat):
            return
        try:  # bf16 has no format: xDSL packs it its own way
            getattr(element, "format", None)
            storable = element.bitwidth > 0
        except NotImplementedError:
            storable = False
        if not storable:
            self.raise_error(
                f"elements of type {type} cannot be stored: xlir stores integers "
                "of 1 to 64 bits and floats of at most 64",
                pos,
                end,
            )

    def parse_optional_builtin_int_or_float_attr(self):  # type: ignore[override]
        """A float attribute's value is stored in bytes too (printing an f128
        one in a diagnostic failed)."""
        start = self.pos
        attr = super().parse_optional_builtin_int_or_float_attr()
        if isinstance(attr, FloatAttr):
            self._check_storable(attr.type, start, self.pos)
        return attr

    def parse_dense_int_or_fp_elements_attr(self, type):  # type: ignore[override]
        """The literal with the bits of its float bit patterns put back
        (`_with_bit_patterns`)."""
        self._check_blob_is_hex()
        outer, self._element_bits = self._element_bits, []
        try:
            attr = self._parse_checked_dense(type)
            return _with_bit_patterns(attr, self._element_bits)
        finally:
            self._element_bits = outer

    def _check_blob_is_hex(self) -> None:
        """A string literal is bytes in hex, `"0x..."`: xDSL skipped its
        first two characters whatever they were (`"1x0000803F"` read as
        1.0)."""
        start = self._current_token.span.start
        string = _STRING_LITERAL.match(self.lexer.input.content, start)
        if string is not None and string.group(1)[:2] not in ("0x", "0X"):
            self.raise_error(
                'a dense literal given as a string must be hex bytes, "0x..."; '
                f'got "{string.group(1)[:20]}"',
                string.start(1) - 1,
                string.end(1) + 1,
            )

    def _parse_checked_dense(self, type):
        """A literal whose type an op parsed before it (`loop.global`'s
        memref) is checked here, before xDSL packs its elements: their type,
        and the size of a splat (a blob's here, a literal's once read,
        `_parse_tensor_literal`)."""
        if type is None:
            return super().parse_dense_int_or_fp_elements_attr(type)
        span = self._current_token.span
        self._check_storable(type.element_type, span.start, span.end)
        count = math.prod(type.get_shape())
        blob = _HEX_BLOB.match(self.lexer.input.content, span.start)
        if blob is not None:
            size = type.element_type.compile_time_size
            if len(blob.group(1)) == 2 * size:
                self._check_splat_size(count, blob.start(1) - 3, blob.end(1) + 1)
        self._typed_literal_count = count
        try:
            return super().parse_dense_int_or_fp_elements_attr(type)
        finally:
            self._typed_literal_count = None

    def _check_splat_size(self, count: int, start: int, end: int) -> None:
        """xDSL expands a splat element by element: one too large would
        exhaust memory (a typo in its shape)."""
        if count > MAX_SPLAT_ELEMENTS:
            self.raise_error(
                f"a splat literal of {count} elements is too large: xlir accepts "
                f"at most {MAX_SPLAT_ELEMENTS}",
                start,
                end,
            )

    def _parse_builtin_densearray_attr(self):  # type: ignore[override]
        start = self.pos
        self.parse_characters("<", " in dense array")
        pos = self.pos
        element = self.parse_attribute()
        self._check_storable(element, pos, self.pos)
        self._resume_from(start)
        return super()._parse_builtin_densearray_attr()

    def _parse_tensor_literal(self):  # type: ignore[override]
        """Also notes whether the (outermost) literal is a splat, and checks
        its size where an op gave its type first."""
        start = self.pos
        values, shape = super()._parse_tensor_literal()
        self._splat_literal = not shape
        if not shape and self._typed_literal_count is not None:
            self._check_splat_size(self._typed_literal_count, start, self.pos)
        return values, shape

    def parse_optional_location(self):  # type: ignore[override]
        """Skip a `loc(...)` annotation, noting where its contents start: the
        aliases it may name are defined later (after the module, in JAX's
        text), so it is read at the end (`_attach_source_locations`). The op
        it ends takes it there (not an op whose argument it follows: only
        blanks and comments stand between it and the op's end); ops take
        their place in the text meanwhile."""
        if self._current_token.text != "loc":
            return None
        start = self._current_token.span.end
        text = self.lexer.input.content
        if start >= len(text) or text[start] != "(":
            return None
        depth, pos = 0, start
        while pos < len(text):
            char = text[pos]
            if char == '"':
                pos += 1
                while pos < len(text) and text[pos] != '"':
                    pos += 2 if text[pos] == "\\" else 1
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    break
            pos += 1
        else:
            self.raise_error("unterminated location: `loc(` without `)`")
        self._trailing_location = (start + 1, pos + 1)
        self._resume_from(pos + 1)
        return None

    def _parse_alias_def(self) -> None:
        """Location aliases (`#loc3 = loc(...)`) are noted, to be read once
        every alias is known."""
        token = self._current_token
        if token.kind == MLIRTokenKind.HASH_IDENT and token.text.startswith("#loc"):
            after = self.lexer.input.content[token.span.end :].lstrip()
            if after.startswith("=") and after[1:].lstrip().startswith("loc"):
                if token.text in self._location_aliases:
                    self.raise_error(
                        f"location alias {token.text} is defined twice", token.span
                    )
                self._consume_token()
                self.parse_punctuation("=")
                self._trailing_location = None
                self.parse_optional_location()
                if self._trailing_location is None:
                    self.raise_error(
                        f"expected 'loc(...)' defining location alias {token.text}"
                    )
                self._location_aliases[token.text] = self._trailing_location[0]
                self._trailing_location = None
                return
        super()._parse_alias_def()

    def _attach_source_locations(self) -> None:
        """Each op that ended in `loc(...)` takes that location beside its
        text position."""
        for op, text, start in self._op_locations:
            self._resume_from(start)
            op.location = with_source(text, self._parse_location_body())
        self._op_locations.clear()

    def _parse_location_body(self) -> Attribute:
        """What `loc(` ... `)` holds: `unknown`, `"file":line:col` (with
        JAX's `to [line]:col` range end, dropped), `"name"` or
        `"name"(location)`, `callsite(location at location)`,
        `fused[...]` (with `<metadata>`), or a `#alias`."""
        token = self._current_token
        if self.parse_optional_keyword("unknown"):
            return UnknownLoc()
        if (name := self.parse_optional_str_literal()) is not None:
            if self.parse_optional_punctuation(":") is not None:
                line = self.parse_integer(False, False)
                self.parse_punctuation(":", " between a location's line and column")
                column = self.parse_integer(False, False)
                if self.parse_optional_keyword("to"):
                    if self.parse_optional_punctuation(":") is None:
                        self.parse_integer(False, False)
                        self.parse_punctuation(":")
                    self.parse_integer(False, False)
                return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(column))
            inner: Attribute = NoneAttr()
            if self.parse_optional_punctuation("(") is not None:
                inner = self._parse_location_body()
                self.parse_punctuation(")", " closing a named location")
            return NameLoc(StringAttr(name), inner)
        if token.kind == MLIRTokenKind.HASH_IDENT:
            self._consume_token()
            return self._location_alias(token.text, token.span)
        if self.parse_optional_keyword("callsite"):
            self.parse_punctuation("(")
            callee = self._parse_location_body()
            self.parse_keyword("at")
            caller = self._parse_location_body()
            self.parse_punctuation(")")
            return CallSiteLoc(callee, caller)
        if self.parse_optional_keyword("fused"):
            metadata: Attribute = NoneAttr()
            if self.parse_optional_punctuation("<") is not None:
                metadata = self.parse_attribute()
                self.parse_punctuation(">")
            parts = self.parse_comma_separated_list(
                self.Delimiter.SQUARE, self._parse_location_body
            )
            return FusedLoc(tuple(parts), metadata)
        self.raise_error(
            'expected a location: unknown, "file":line:col, "name", '
            '"name"(location), callsite(location at location), fused[...] '
            f"or a #loc alias; found '{token.text}'",
            token.span,
        )

    def _location_alias(self, name: str, span: Span) -> Attribute:
        """The location a `#locN` alias stands for (read on first use)."""
        if name in self._resolved_aliases:
            resolved = self._resolved_aliases[name]
            if resolved is None:
                self.raise_error(f"location alias {name} refers to itself", span)
            return resolved
        start = self._location_aliases.get(name)
        if start is None:
            self.raise_error(
                f"undefined location alias {name}: expected a line "
                f"`{name} = loc(...)` in this text",
                span,
            )
        after = self.pos
        self._resolved_aliases[name] = None
        self._resume_from(start)
        resolved = self._parse_location_body()
        self._resolved_aliases[name] = resolved
        self._resume_from(after)
        return resolved

    def _parse_tensor_literal_element(self):  # type: ignore[override]
        start = self.pos
        try:
            element = super()._parse_tensor_literal_element()
        except AssertionError:  # xDSL 0.74 asserts on `(re, im` not closed by `)`
            self.raise_error(
                "expected ')' closing a complex literal (real, imaginary)",
                start,
                max(self.pos, start + 1),
            )
        text = element.span.text
        if text.lstrip("-").startswith(("0x", "0X")):
            return _BitPatternElement(False, element.value, element.span)
        if text.startswith("(") and "0x" in text.lower():
            return _BitPatternElement(False, element.value, element.span)
        return _ComplexCheckedElement(element.is_negative, element.value, element.span)

    def _parse_dense_literal_type(self):  # type: ignore[override]
        pos = self.pos
        type = self.expect(self.parse_optional_type, "dense attribute must be typed")
        if not _DENSE_LITERAL_TYPE.verifies(type):
            self.raise_error(
                "expected a tensor, memref or vector type of integer, index, float "
                f"or complex elements, found {type}",
                pos,
            )
        if any(dim == DYNAMIC_INDEX for dim in type.get_shape()):  # type: ignore[attr-defined]
            self.raise_error("a dense literal needs a static shape", pos)
        self._check_storable(type.get_element_type(), pos, self.pos)  # type: ignore[attr-defined]
        splat, self._splat_literal = self._splat_literal, False
        if splat:
            self._check_splat_size(prod(type.get_shape()), pos, self.pos)  # type: ignore[attr-defined]
        return type

    def _parse_builtin_dense_attr(self) -> DenseIntOrFPElementsAttr:  # type: ignore[override]
        """After `dense`: a literal without nested brackets, typed by a
        tensor type of its own (`<1.0> : tensor<f32>`), is looked up by its
        spelling."""
        text = self.lexer.input.content
        start = self._current_token.span.start
        blob = _HEX_BLOB.match(text, start)
        if blob is not None:
            return self._checked_blob(blob)
        typed = _TYPED_LITERAL.match(text, start)
        if typed is None:
            return super()._parse_builtin_dense_attr()
        key = typed.group()
        cached = self._dense_cache.get(key)
        if cached is not None:
            self._resume_from(typed.end())
            return cached
        parsed = super()._parse_builtin_dense_attr()
        self._dense_cache[key] = parsed
        return parsed

    def _checked_blob(self, blob: re.Match[str]) -> DenseIntOrFPElementsAttr:
        """`dense<"0x...">`: the bytes must be one element (a splat) or every
        element of the type, as in MLIR. The type after the blob is read
        first, to say so."""
        self._resume_from(blob.end())
        self.parse_punctuation(":", " in dense attribute")
        type = self._parse_dense_literal_type()
        size = type.element_type.compile_time_size  # type: ignore[attr-defined]
        count = math.prod(type.get_shape())  # type: ignore[attr-defined]
        digits = blob.group(1)
        here = (blob.start(1) - 3, blob.end(1) + 1)  # the string, quotes included
        if re.fullmatch("[0-9a-fA-F]*", digits) is None:
            self.raise_error(f"expected hex digits after '0x', found '{digits}'", *here)
        element = type.element_type  # type: ignore[attr-defined]
        expected = f"{size} bytes (one {element})"
        if count != 1:
            expected = (
                f"{size * count} bytes ({count} x {element}) or {size} (one, repeated)"
            )
        if len(digits) % 2 or len(digits) // 2 not in (size, size * count):
            self.raise_error(
                f"hex data of {len(digits) / 2:g} bytes does not fit {type}: "
                f"expected {expected}",
                *here,
            )
        if len(digits) // 2 == size:
            self._check_splat_size(count, *here)
        self._resume_from(blob.start())
        return super()._parse_builtin_dense_attr()

    def parse_optional_type(self) -> TypeAttribute | None:
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT or token.text != "tensor":
            return super().parse_optional_type()
        text = self.lexer.input.content
        start = token.span.start
        end = text.find(">", start)
        if end == -1 or "<" in text[start + 7 : end]:
            return super().parse_optional_type()
        key = text[start : end + 1]
        cached = self._type_cache.get(key)
        if cached is not None:
            self._resume_from(end + 1)
            return cached
        parsed = super().parse_optional_type()
        if parsed is not None:
            self._type_cache[key] = parsed
        return parsed


class _ComplexCheckedElement(Parser._TensorLiteralElement):
    """A literal element: one for a complex type must be a `(re, im)` pair."""

    def to_type(self, parser, type):  # type: ignore[override]
        if isinstance(type, ComplexType) and not isinstance(self.value, tuple):
            parser.raise_error(
                f"expected a complex literal (real, imaginary) for {type}, "
                f"found {self.span.text}",
                self.span,
            )
        _note_bits(parser, [None, None] if isinstance(type, ComplexType) else [None])
        return super().to_type(parser, type)


class _BitPatternElement(_ComplexCheckedElement):
    """A hex literal in a dense attribute: for float elements (and the parts
    of complex ones), the raw bits, which must fit in the type's width and
    have no sign (MLIR's rules)."""

    def to_type(self, parser, type):  # type: ignore[override]
        if isinstance(type, AnyFloat):
            assert isinstance(self.value, int)
            _note_bits(parser, [_bits_of(parser, self.value, type, self.span)])
            return _float_from_bits(type, self.value)
        if (
            isinstance(type, ComplexType)
            and isinstance(type.element_type, AnyFloat)
            and isinstance(self.value, tuple)
        ):
            part_type = type.element_type
            inside = self.span.text.strip("()").split(",")
            hex_parts = [p.strip().lower().startswith("0x") for p in inside]
            _note_bits(
                parser,
                [
                    _bits_of(parser, int(value), part_type, self.span)
                    if is_hex
                    else None
                    for is_hex, value in zip(hex_parts, self.value, strict=True)
                ],
            )
            return tuple(
                _float_from_bits(part_type, int(value)) if is_hex else float(value)
                for is_hex, value in zip(hex_parts, self.value, strict=True)
            )
        return super().to_type(parser, type)


def _note_bits(parser: AttrParser, parts: list[bytes | None]) -> None:
    bits = getattr(parser, "_element_bits", None)
    if bits is not None:
        bits.extend(parts)


def _with_bit_patterns(
    attr: DenseIntOrFPElementsAttr, parts: list[bytes | None]
) -> DenseIntOrFPElementsAttr:
    """`attr` with the bits its literal gave as bit patterns: xDSL packs a
    float element from a Python float, which quiets a signaling NaN of
    f32 or bf16 and drops an f16 NaN's payload (CPython packs every f16 NaN
    as 0x7e00 with its sign). A splat's one element stands for all."""
    if all(part is None for part in parts):
        return attr
    data = bytearray(attr.data.data)
    size = len(next(part for part in parts if part is not None))
    for index in range(len(data) // size):
        part = parts[index % len(parts)]
        if part is not None:
            data[index * size : (index + 1) * size] = part
    return DenseIntOrFPElementsAttr(attr.type, BytesAttr(bytes(data)))


def _float_from_bits(type: AnyFloat, bits: int) -> float:
    """The float of `type` with these bits (`_bits_of` checked them)."""
    return next(iter(type.iter_unpack(bits.to_bytes(type.compile_time_size, "little"))))


def _bits_of(parser: AttrParser, bits: int, type: AnyFloat, span: Span) -> bytes:
    """The bytes of an element of `type` with these bits; an error at the
    literal's `span` where the bits are signed or wider than the type."""
    if bits < 0:
        parser.raise_error(
            "a hexadecimal float literal gives the bits of the value and "
            f"takes no sign: found {span.text}",
            span,
        )
    if bits.bit_length() > type.bitwidth:
        parser.raise_error(
            f"hexadecimal float literal {span.text} does not fit in {type}: "
            f"expected at most {type.bitwidth // 4} hex digits ({type.bitwidth} bits)",
            span,
        )
    return bits.to_bytes(type.compile_time_size, "little")


def parse_module(ctx: Context, text: str, name: str = "<unknown>") -> ModuleOp:
    """Parse a whole module (an implicit one is made around bare functions)."""
    return XlirParser(ctx, text, name).parse_module()
