"""One op class per instruction of an assembly dialect, made from a table
rather than written out (`accel`, and out-of-tree chips): the registers it
reads are operands, those it writes results, its immediates properties,
with a declarative assembly format."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar, cast

from xdsl.irdl import IRDLOperation, OperandDef, ResultDef, irdl_op_definition

Op = TypeVar("Op", bound=IRDLOperation)


def _defines(fields: dict[str, Any], kind: type) -> bool:
    return any(issubclass(getattr(f, "cls", type), kind) for f in fields.values())


def instruction_op(
    name: str, base: type[Op], fields: dict[str, Any], syntax: Sequence[str]
) -> type[Op]:
    """The op `name` (`dialect.mnemonic`): a subclass of `base` with
    `fields` (operand, result and property definitions, class attributes)
    whose format is `syntax` (its fields in assembly order, `$rs1`...), then
    its attributes and the types of its operands and results."""
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
