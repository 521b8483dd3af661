"""The buffer plan's attributes: where each value of a function lives.

`assign-buffers` attaches them, `hlo-to-loop` bufferizes by them, and tools
read them. Both are discardable: dropping them changes no result.

On every op that defines buffers (the top level of a function and the bodies
of its `stablehlo.while`/`stablehlo.case` ops), `hlo.buffers` lists one
`#hlo.buffer` per result:

    #hlo.buffer<temp, offset = 64, size = 4096>   bytes [64, 4160) of the temp arena
    #hlo.buffer<arg 1>                            parameter 1's buffer (read only)
    #hlo.buffer<out 0>                            output 0's buffer
    #hlo.buffer<out 0, arg 1>                     output 0, living in parameter 1
                                                  (donated: `tf.aliasing_output = 0`)
    #hlo.buffer<const>                            read-only constant data

On the function, `hlo.plan` gives XLA's figures in bytes:

    #hlo.plan<arena = 4096, alignment = 64, arguments = 8, outputs = 8,
              alias = 0, constants = 4>

`arena` is the temp arena (XLA's `temp_size_in_bytes`); `alias` counts the
output bytes that live in donated parameters. A buffer's size is the value's
row-major byte size (`byte_size`; an i1 takes a byte).

Each attribute checks itself when it is built or parsed; `verify_plan` checks
a function's attributes against each other (offsets aligned and inside the
arena, sizes matching types, indices in range, aliasing declared).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xlir.element_types import byte_width
from xlir.walk import walk

BUFFERS = "hlo.buffers"
"""The discardable attribute on an op: an array of `#hlo.buffer`, one per result."""
PLAN = "hlo.plan"
"""The discardable attribute on a function: its `#hlo.plan`."""
ALIASING_OUTPUT = "tf.aliasing_output"
"""The argument attribute that donates a parameter to an output (JAX's name)."""

TEMP, ARG, OUT, CONST = "temp", "arg", "out", "const"


def byte_size(type: Attribute) -> int:
    """Bytes of a value of this type in row-major storage (i1 takes a byte;
    a non-tensor, such as a token, takes none)."""
    if not isinstance(type, TensorType):
        return 0
    return prod(type.get_shape()) * (byte_width(type.get_element_type()) or 0)


def _optional(value: IntAttr | NoneAttr) -> int | None:
    return value.data if isinstance(value, IntAttr) else None


def _wrap(value: int | None) -> IntAttr | NoneAttr:
    return NoneAttr() if value is None else IntAttr(value)


@irdl_attr_definition
class BufferAttr(ParametrizedAttribute):
    """Where one value lives; see the module docstring for the syntax."""

    name = "hlo.buffer"

    location: StringAttr
    offset: IntAttr | NoneAttr
    size: IntAttr | NoneAttr
    output: IntAttr | NoneAttr
    argument: IntAttr | NoneAttr

    def __init__(
        self,
        location: str,
        *,
        offset: int | None = None,
        size: int | None = None,
        output: int | None = None,
        argument: int | None = None,
    ):
        super().__init__(
            StringAttr(location),
            _wrap(offset),
            _wrap(size),
            _wrap(output),
            _wrap(argument),
        )

    @staticmethod
    def temp(offset: int, size: int) -> BufferAttr:
        return BufferAttr(TEMP, offset=offset, size=size)

    @property
    def kind(self) -> str:
        return self.location.data

    @property
    def offset_value(self) -> int | None:
        return _optional(self.offset)

    @property
    def size_value(self) -> int | None:
        return _optional(self.size)

    @property
    def output_index(self) -> int | None:
        return _optional(self.output)

    @property
    def argument_index(self) -> int | None:
        return _optional(self.argument)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        fields: dict[str, int | None] = {}
        with parser.in_angle_brackets():
            kind = parser.parse_identifier()
            if kind == TEMP:
                for key in ("offset", "size"):
                    parser.parse_punctuation(
                        ",", " in #hlo.buffer<temp, offset = N, size = N>"
                    )
                    parser.parse_keyword(key)
                    parser.parse_punctuation("=")
                    fields[key] = parser.parse_integer(allow_boolean=False)
            elif kind == ARG:
                fields["argument"] = parser.parse_integer(allow_boolean=False)
            elif kind == OUT:
                fields["output"] = parser.parse_integer(allow_boolean=False)
                if parser.parse_optional_punctuation(",") is not None:
                    parser.parse_keyword(ARG)
                    fields["argument"] = parser.parse_integer(allow_boolean=False)
        error = _buffer_error(kind, **fields)
        if error is not None:
            parser.raise_error(error, start, parser.pos)
        return (
            StringAttr(kind),
            _wrap(fields.get("offset")),
            _wrap(fields.get("size")),
            _wrap(fields.get("output")),
            _wrap(fields.get("argument")),
        )

    def spelling(self) -> str:
        """What stands between the brackets: `out 0, arg 1`."""
        text = self.kind
        if self.kind == TEMP:
            text += f", offset = {self.offset_value}, size = {self.size_value}"
        elif self.kind == ARG:
            text += f" {self.argument_index}"
        elif self.kind == OUT:
            text += f" {self.output_index}"
            if self.argument_index is not None:
                text += f", arg {self.argument_index}"
        return text

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.spelling()}>")

    def verify(self) -> None:
        error = _buffer_error(
            self.kind,
            offset=self.offset_value,
            size=self.size_value,
            output=self.output_index,
            argument=self.argument_index,
        )
        if error is not None:
            raise VerifyException(error)


def _buffer_error(
    kind: str,
    offset: int | None = None,
    size: int | None = None,
    output: int | None = None,
    argument: int | None = None,
) -> str | None:
    """Why these fields make no `#hlo.buffer`, or None when they do."""
    given = {"offset": offset, "size": size, "output": output, "argument": argument}
    wanted = {
        TEMP: {"offset", "size"},
        ARG: {"argument"},
        OUT: {"output", "argument"} if argument is not None else {"output"},
        CONST: set(),
    }.get(kind)
    if wanted is None:
        return f"#hlo.buffer location must be temp, arg, out or const, but is '{kind}'"
    for key, value in given.items():
        if (value is not None) != (key in wanted):
            state = "needs" if value is None else "takes no"
            return f"#hlo.buffer<{kind}> {state} {key}"
        if value is not None and value < 0:
            return f"#hlo.buffer {key} must be non-negative, but is {value}"
    return None


_PLAN_FIELDS = ("arena", "alignment", "arguments", "outputs", "alias", "constants")


@irdl_attr_definition
class PlanAttr(ParametrizedAttribute):
    """A function's buffer figures in bytes; see the module docstring."""

    name = "hlo.plan"

    arena: IntAttr
    alignment: IntAttr
    arguments: IntAttr
    outputs: IntAttr
    alias: IntAttr
    constants: IntAttr

    def __init__(
        self,
        *,
        arena: int,
        alignment: int,
        arguments: int,
        outputs: int,
        alias: int,
        constants: int,
    ):
        super().__init__(
            *(
                IntAttr(v)
                for v in (arena, alignment, arguments, outputs, alias, constants)
            )
        )

    def values(self) -> dict[str, int]:
        return {key: getattr(self, key).data for key in _PLAN_FIELDS}

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        values: list[int] = []
        with parser.in_angle_brackets():
            for index, key in enumerate(_PLAN_FIELDS):
                if index:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values.append(parser.parse_integer(allow_boolean=False))
        error = _plan_error(dict(zip(_PLAN_FIELDS, values, strict=True)))
        if error is not None:
            parser.raise_error(error, start, parser.pos)
        return tuple(IntAttr(v) for v in values)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            "<" + ", ".join(f"{k} = {v}" for k, v in self.values().items()) + ">"
        )

    def verify(self) -> None:
        error = _plan_error(self.values())
        if error is not None:
            raise VerifyException(error)


def _plan_error(values: dict[str, int]) -> str | None:
    for key, value in values.items():
        if value < 0:
            return f"#hlo.plan {key} must be non-negative, but is {value}"
    alignment = values["alignment"]
    if alignment < 1 or alignment & (alignment - 1):
        return f"#hlo.plan alignment must be a power of two, but is {alignment}"
    if values["alias"] > min(values["arguments"], values["outputs"]):
        return "#hlo.plan alias bytes cannot exceed the argument or output bytes"
    return None


HLO_BUFFER_ATTRIBUTES: list[type[Attribute]] = [BufferAttr, PlanAttr]


# --- cross-checks over a function ------------------------------------------------


def aliased_outputs(func: FuncOp) -> dict[int, int]:
    """Parameter index -> the output index it is donated to (`tf.aliasing_output`)."""
    donated: dict[int, int] = {}
    for index, attrs in enumerate(func.arg_attrs or ()):
        value = attrs.data.get(ALIASING_OUTPUT)
        if isinstance(value, IntegerAttr):
            donated[index] = value.value.data
    return donated


def planned_ops(func: FuncOp) -> list[Operation]:
    """The ops of `func` that carry `hlo.buffers`."""
    return [op for op in walk(func) if BUFFERS in op.attributes]


def verify_plan(func: FuncOp) -> None:
    """Check the plan attributes of a function against each other and against
    the types; raise a VerifyException naming the op and the rule."""
    plan = func.attributes.get(PLAN)
    if not isinstance(plan, PlanAttr):
        if planned_ops(func):
            raise VerifyException(
                f"function has '{BUFFERS}' on its ops but no '{PLAN}' #hlo.plan"
            )
        return
    figures = plan.values()
    donated = aliased_outputs(func)
    num_args = len(func.function_type.inputs)
    num_outs = len(func.function_type.outputs)
    for op in planned_ops(func):
        buffers = op.attributes[BUFFERS]
        if not isinstance(buffers, ArrayAttr) or len(buffers) != len(op.results):
            raise VerifyException(
                f"'{op.name}' op '{BUFFERS}' must list one #hlo.buffer per result "
                f"({len(op.results)})"
            )
        for index, (buffer, result) in enumerate(zip(buffers, op.results, strict=True)):
            error = _placement_error(buffer, result.type, figures, num_args, num_outs)
            if error is None and isinstance(buffer, BufferAttr):
                error = _alias_error(buffer, donated)
            if error is not None:
                raise VerifyException(f"'{op.name}' op result #{index}: {error}")


def _placement_error(
    buffer: Attribute,
    type: Attribute,
    figures: dict[str, int],
    num_args: int,
    num_outs: int,
) -> str | None:
    if not isinstance(buffer, BufferAttr):
        return f"expected an #hlo.buffer, got {buffer}"
    if buffer.kind == TEMP:
        offset, size = buffer.offset_value or 0, buffer.size_value or 0
        if size != byte_size(type):
            return (
                f"buffer size {size} differs from the {byte_size(type)} bytes of {type}"
            )
        if offset % figures["alignment"]:
            return f"offset {offset} is not a multiple of the alignment {figures['alignment']}"
        if offset + size > figures["arena"]:
            return (
                f"bytes [{offset}, {offset + size}) lie outside the arena of "
                f"{figures['arena']} bytes"
            )
    argument, output = buffer.argument_index, buffer.output_index
    if argument is not None and argument >= num_args:
        return f"arg {argument} is out of range: the function has {num_args} arguments"
    if output is not None and output >= num_outs:
        return f"out {output} is out of range: the function has {num_outs} results"
    return None


def _alias_error(buffer: BufferAttr, donated: dict[int, int]) -> str | None:
    if buffer.kind != OUT or buffer.argument_index is None:
        return None
    argument, output = buffer.argument_index, buffer.output_index
    if donated.get(argument) != output:
        return (
            f"output {output} cannot live in parameter {argument}: the parameter "
            f"has no `{ALIASING_OUTPUT} = {output}`"
        )
    return None
