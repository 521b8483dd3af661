"""One op class per instruction of an assembly dialect, made from a table
rather than written out (`accel`, and out-of-tree chips): the registers it
reads are operands, those it writes results, its immediates properties,
with a declarative assembly format; `Instruction` is their base, and
`Instruction.make` makes one from Python immediates."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from types import UnionType
from typing import Any, Self, TypeVar, cast

from xdsl.backend.assembly_printer import (
    AssemblyPrinter,
    OneLineAssemblyPrintable,
    reg,
)
from xdsl.backend.register_allocatable import (
    HasRegisterConstraints,
    RegisterConstraints,
)
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, f32, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    OperandDef,
    PropertyDef,
    ResultDef,
    irdl_op_definition,
)

Op = TypeVar("Op", bound=IRDLOperation)


class Instruction(HasRegisterConstraints, IRDLOperation, OneLineAssemblyPrintable):
    """An instruction: for xDSL's register allocator, it reads its operands
    and writes its results; its line of assembly is its mnemonic, then the
    registers it writes, those it reads, and its immediates (its integer and
    float properties). A dialect whose syntax differs overrides either."""

    @classmethod
    def make(
        cls,
        operands: Sequence[SSAValue],
        results: Sequence[Attribute] = (),
        **immediates: int | float | str,
    ) -> Self:
        """The instruction reading `operands` and writing registers of the
        types `results`, with its `immediates` as properties (`immediate`)."""
        properties = {name: immediate(value) for name, value in immediates.items()}
        return cls.create(
            operands=operands, result_types=results, properties=properties
        )

    def get_register_constraints(self) -> RegisterConstraints:
        return RegisterConstraints(self.operands, self.results, ())

    def assembly_line(self) -> str | None:
        fields = [reg(value) for value in (*self.results, *self.operands)]
        for value in self.properties.values():
            if isinstance(value, IntegerAttr | FloatAttr):
                fields.append(repr(value.value.data))
        mnemonic = self.name.split(".", 1)[1]
        return AssemblyPrinter.assembly_line(mnemonic, ", ".join(fields))


@lru_cache(maxsize=4096, typed=True)
def immediate(value: int | float | str) -> Attribute:
    """An immediate as a property: an int an i32, a float an f32 (what the
    32-bit chips' instructions hold), a string a name (a label, a mode);
    made once per value and type (1 and 1.0 are equal keys otherwise), as
    attributes are immutable and each new one is verified."""
    if isinstance(value, str):
        return StringAttr(value)
    return IntegerAttr(value, i32) if isinstance(value, int) else FloatAttr(value, f32)


def _is(field: Any, kind: type | UnionType) -> bool:
    return issubclass(getattr(field, "cls", type), kind)


def _defines(fields: dict[str, Any], kind: type) -> bool:
    return any(_is(f, kind) for f in fields.values())


def instruction_op(
    name: str,
    base: type[Op],
    fields: dict[str, Any],
    syntax: Sequence[str] | None = None,
) -> type[Op]:
    """The op `name` (`dialect.mnemonic`): a subclass of `base` with
    `fields` (operand, result and property definitions, class attributes)
    whose format is `syntax` (its fields in assembly order, `$rs1`...; by
    default its operands and properties in the order of `fields`), then its
    attributes and the types of its operands and results."""
    if syntax is None:
        syntax = [
            f"${n}" for n, f in fields.items() if _is(f, OperandDef | PropertyDef)
        ]
    operands, results = _defines(fields, OperandDef), _defines(fields, ResultDef)
    types = {
        (True, True): " `:` functional-type(operands, results)",
        (True, False): " `:` type(operands)",
        (False, True): " `:` type(results)",
    }.get((operands, results), "")
    mnemonic = name.split(".", 1)[1]
    class_name = "".join(p.capitalize() for p in re.split(r"[._]", mnemonic)) + "Op"
    namespace = {**fields, "name": name, "__module__": base.__module__}
    namespace["assembly_format"] = " `,` ".join(syntax) + " attr-dict" + types
    return cast(type[Op], irdl_op_definition(type(class_name, (base,), namespace)))
