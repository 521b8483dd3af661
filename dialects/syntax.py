"""Pieces of custom assembly syntax shared by xlir's dialects.

StableHLO's pretty forms repeat a few patterns: operand lists, `[1, 2]` integer
lists, and a trailing type that is either one type (all operands and results
alike) or a function type. They live here once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects.builtin import DenseArrayBase, UnregisteredOp, i64
from xdsl.ir import Attribute, Data, Operation, SSAValue
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer


@irdl_attr_definition
class I64Tuple(Data[tuple[int, ...]]):
    """A tuple of integers, used as a field of structured attributes."""

    name = "xlir.i64_tuple"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        return parse_int_list(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(print_int_list(self.data))


I64_RANGE = range(-(2**63), 2**63)
"""The values of StableHLO's (signed) i64 dimension lists."""


def parse_i64(parser: AttrParser) -> int:
    """An integer literal that fits in i64; an error at the literal if not."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False)
    if value not in I64_RANGE:
        parser.raise_error(
            f"integer literal {value} does not fit in i64: expected a value from "
            f"{I64_RANGE.start} to {I64_RANGE.stop - 1}",
            start,
            parser.pos,
        )
    return value


def parse_int_list(parser: AttrParser) -> tuple[int, ...]:
    """`[1, 2, 3]` or `[]`, of i64 values."""
    return tuple(
        parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parse_i64(parser)
        )
    )


def print_int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    """The `array<i64: ...>` attribute StableHLO uses for dimension lists
    (and the loop level for static bounds), made once per list: xDSL builds
    and verifies each one anew, and lowering makes the same few lists over
    and over."""
    return _i64_array(tuple(values))


@lru_cache(maxsize=4096)
def _i64_array(values: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def array_values(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.iter_values())  # pyright: ignore[reportAttributeAccessIssue]


def parse_keyword_int_list(parser: Parser, keyword: str) -> tuple[int, ...]:
    """`keyword = [1, 2]`."""
    parser.parse_characters(keyword)
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """One or more comma-separated operands, with no delimiters."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )


def parse_optional_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    operands = [first]
    while parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    return operands


def parse_type_list(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def parse_function_type_tail(
    parser: Parser,
) -> tuple[Sequence[Attribute], Sequence[Attribute]]:
    """`(T, T) -> T` or `(T) -> (T, T)`; the `(` is the current token."""
    inputs = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_type
    )
    parser.parse_punctuation("->")
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return inputs, []
        outputs = parse_type_list(parser)
        parser.parse_punctuation(")")
        return inputs, outputs
    return inputs, [parser.parse_type()]


def parse_trailing_types(
    parser: Parser, num_operands: int, num_results: int = 1
) -> tuple[Sequence[Attribute], Sequence[Attribute]]:
    """After `:`: either one type shared by every operand and result, or a
    function type `(operand types) -> result types`."""
    parser.parse_punctuation(":")
    if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
        return parse_function_type_tail(parser)
    shared = parser.parse_type()
    return [shared] * num_operands, [shared] * num_results


def print_trailing_types(
    printer: Printer,
    operand_types: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> None:
    """Print ` : T` when every type is the same, else ` : (T, T) -> T`."""
    printer.print_string(" : ")
    everything = [*operand_types, *result_types]
    if len(result_types) == 1 and all(t == everything[0] for t in everything):
        printer.print_attribute(everything[0])
        return
    print_function_type(printer, operand_types, result_types)


def print_function_type(
    printer: Printer,
    operand_types: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> None:
    printer.print_string("(")
    printer.print_list(operand_types, printer.print_attribute)
    printer.print_string(") -> ")
    if len(result_types) == 1:
        printer.print_attribute(result_types[0])
    else:
        printer.print_string("(")
        printer.print_list(result_types, printer.print_attribute)
        printer.print_string(")")


def resolve_operands(
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    types: Sequence[Attribute],
    pos: int,
) -> Sequence[SSAValue]:
    """Give each operand its type from the trailing type list."""
    if len(operands) != len(types):
        parser.raise_error(
            f"expected {len(operands)} operand types but the type list has "
            f"{len(types)}",
            pos,
        )
    return parser.resolve_operands(operands, types, parser.pos)


def print_operands(printer: Printer, operands: Sequence[SSAValue]) -> None:
    printer.print_list(operands, printer.print_operand)


def print_attr_dict(
    printer: Printer, attributes: dict[str, Attribute], reserved: Sequence[str] = ()
) -> None:
    """Print ` {…}` with the discardable attributes, if there are any."""
    printer.print_op_attributes(attributes, reserved_attr_names=reserved)


def parse_terminator_values(
    parser: Parser,
) -> tuple[Sequence[SSAValue], dict[str, Attribute]]:
    """The operands of a terminator: `%a, %b {attrs} : Ta, Tb`, or nothing."""
    pos = parser.pos
    operands = parse_optional_operand_list(parser)
    attributes = parser.parse_optional_attr_dict()
    types: list[Attribute] = []
    if operands:
        parser.parse_punctuation(":")
        types = parse_type_list(parser)
    return resolve_operands(parser, operands, types, pos), attributes


def print_terminator_values(
    printer: Printer, values: Sequence[SSAValue], attributes: dict[str, Attribute]
) -> None:
    if values:
        printer.print_string(" ")
        print_operands(printer, values)
    print_attr_dict(printer, attributes)
    if values:
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)


def op_name(op: Operation) -> str:
    """The op's name as written, also for an op of a dialect xlir does not know."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name
