"""xDSL's accessors of an op's named operands and results (`op.lhs`,
`op.res`), with fewer steps.

An accessor reads the op's operands through `op.operands`, a property that
makes a view object (`OpOperands`) for each read, then indexes the view,
which indexes the op's `SSAValues`, whose `__getitem__` is Python code too:
five Python calls for one field, and every pass of every level reads its
ops' fields so. Here the common accessors read the op's tuple of operands or
results directly: a single operand or result before or after the one
variadic group, that group, an optional one, and the groups sized by a
segment-size attribute, whose sizes are read from
`quick_op_init.segment_sizes`'s table where the attribute is one it made
(xDSL unpacks the attribute's bytes for each read). They return what xDSL's
return (the same value, or the same `SSAValues` slice); regions,
successors and every other accessor go through xDSL's own path.

Importing this module installs them (the accessors are instances of xDSL's
classes, one per field of each op class: their classes' `__get__` is
replaced).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation
from xdsl.irdl.operations import (
    AfterVariadicSingleAccessor,
    BaseAccessor,
    BaseAttrAccessor,
    BeforeVariadicSingleAccessor,
    OptionalAttrAccessor,
    SameOptionalAccessor,
    SingleAttrAccessor,
    UniqueVariadicAccessor,
    VariadicAttrAccessor,
    VarIRConstruct,
)

from xlir.quick_op_init import segment_values

_OPERAND = VarIRConstruct.OPERAND
_RESULT = VarIRConstruct.RESULT
_item = tuple.__getitem__
"""Indexes an `SSAValues` as the tuple it is (its own `__getitem__` is Python)."""


def _flat(op: Operation, construct: VarIRConstruct) -> Any:
    """The op's operands or results as the `SSAValues` they are kept in;
    None for the other constructs."""
    if construct is _OPERAND:
        return op._operands  # pyright: ignore[reportPrivateUsage]
    if construct is _RESULT:
        return op.results
    return None


def _single(self: BaseAccessor, obj: Operation, objtype: Any = None) -> Any:
    """`BeforeVariadicSingleAccessor.__get__`: the `idx`-th of its construct."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _base_get(self, obj, objtype)
    return _item(flat, self.idx)


def _after_single(
    self: AfterVariadicSingleAccessor, obj: Operation, objtype: Any = None
) -> Any:
    """`AfterVariadicSingleAccessor.__get__`: counted from the end."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _base_get(self, obj, objtype)
    return _item(flat, self.idx - self.num_defs)


def _unique_group(
    self: UniqueVariadicAccessor, obj: Operation, objtype: Any = None
) -> Any:
    """`UniqueVariadicAccessor.__get__`: the only variadic group, an
    `SSAValues` slice, as xDSL's."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _base_get(self, obj, objtype)
    return flat[self.idx : self.idx + len(flat) - self.num_defs + 1]


def _same_optional(
    self: SameOptionalAccessor, obj: Operation, objtype: Any = None
) -> Any:
    """`SameOptionalAccessor.__get__`: there where every group is."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _base_get(self, obj, objtype)
    if len(flat) == self.num_defs:
        return _item(flat, self.idx)
    return None


def _sizes(self: BaseAttrAccessor, op: Operation) -> tuple[int, ...]:
    attribute = self.option.container(op)[self.option.attribute_name]
    return segment_values(attribute)


def _sized_single(self: BaseAttrAccessor, obj: Operation, objtype: Any = None) -> Any:
    """`SingleAttrAccessor.__get__`."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _attr_get(self, obj, objtype)
    return _item(flat, sum(_sizes(self, obj)[: self.idx]))


def _sized_group(self: BaseAttrAccessor, obj: Operation, objtype: Any = None) -> Any:
    """`VariadicAttrAccessor.__get__`: an `SSAValues` slice, as xDSL's."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _attr_get(self, obj, objtype)
    sizes = _sizes(self, obj)
    start = sum(sizes[: self.idx])
    return flat[start : start + sizes[self.idx]]


def _sized_optional(self: BaseAttrAccessor, obj: Operation, objtype: Any = None) -> Any:
    """`OptionalAttrAccessor.__get__`."""
    flat = _flat(obj, self.construct)
    if flat is None:
        return _attr_get(self, obj, objtype)
    sizes = _sizes(self, obj)
    if sizes[self.idx]:
        return _item(flat, sum(sizes[: self.idx]))
    return None


_base_get = BaseAccessor.__get__
_attr_get = BaseAttrAccessor.__get__
BeforeVariadicSingleAccessor.__get__ = _single
AfterVariadicSingleAccessor.__get__ = _after_single
UniqueVariadicAccessor.__get__ = _unique_group
SameOptionalAccessor.__get__ = _same_optional
SingleAttrAccessor.__get__ = _sized_single
VariadicAttrAccessor.__get__ = _sized_group
OptionalAttrAccessor.__get__ = _sized_optional
