"""xDSL's op construction (`IRDLOperation.__init__`), with a quick path for
the arguments nearly every constructor passes.

`irdl_op_init` turns a constructor's arguments into an op's operands, result
types, regions and successors one definition at a time: each argument goes
through `isinstance` tests against ABCs (`Sequence`, `SSAValue`,
`Operation`, the definition's kind), and each segment-size property of an op
with several variadic groups is built anew; with `Operation.__init__` that
is about a tenth of a compile, over every level. `quick_op_init` reads each
op class's definitions once (`_Layout`) and takes the common arguments on a
quick path: values, lists and tuples of values or `None` as operands; types,
lists and tuples of types or `None` as result types; a `Region` or a list of
them, or `None`, as regions; no successors, and only the attribute-sized
segment options. The op it makes is the one `irdl_op_init` makes (the same
operands, result types, properties and attributes, in the same order, and
regions). Anything else, including every argument `irdl_op_init` refuses,
goes to `irdl_op_init` itself, so its diagnostics are unchanged.

`quick_operation_init` and `quick_post_init` take the place of the
`Operation.__init__` every op goes through (the generic construction's,
`create`'s and the quick path's) and of `IRDLOperation.__post_init__`,
doing the same without the steps a new op does not need (their
docstrings).

Importing this module installs them (`IRDLOperation.__init__` calls the
module global `irdl_op_init` of `xdsl.irdl.operations`; `Operation.__init__`
and `IRDLOperation.__post_init__` are class attributes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from xdsl.dialects.builtin import UNKNOWN_LOC, DenseArrayBase, LocationAttr, i32
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.irdl import operations
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    IRDLOperation,
    OpDef,
    OptionalDef,
    VariadicDef,
)

_SINGLE, _VARIADIC, _OPTIONAL = 0, 1, 2

_Defaults = tuple[tuple[str, Attribute], ...]
"""An op class's properties (or attributes) that have a default: (name, it)."""


def _kinds(defs: Sequence[tuple[str, Any]]) -> tuple[int, ...]:
    return tuple(
        _OPTIONAL
        if isinstance(d, OptionalDef)
        else _VARIADIC
        if isinstance(d, VariadicDef)
        else _SINGLE
        for _, d in defs
    )


class _Layout:
    """What `quick_op_init` needs of an op class's definition."""

    def __init__(self, op_def: OpDef):
        self.op_def = op_def
        self.operands = _kinds(op_def.operands)
        self.results = _kinds(op_def.results)
        self.regions = _kinds(op_def.regions)
        self.quick = not op_def.successors and all(
            isinstance(
                option,
                AttrSizedOperandSegments
                | AttrSizedResultSegments
                | AttrSizedRegionSegments,
            )
            for option in op_def.options
        )
        """Whether the quick path may take it: no successors, and no option
        but attribute-sized operand, result or region segments."""
        self.segments = [
            (
                option.as_property,
                option.attribute_name,
                0
                if isinstance(option, AttrSizedOperandSegments)
                else 1
                if isinstance(option, AttrSizedResultSegments)
                else 2,
            )
            for option in op_def.options
            if isinstance(option, AttrSizedSegments)
        ]
        """(as a property, the attribute's name, which sizes: 0 operands,
        1 results, 2 regions) of each segment-size attribute."""


_layouts: dict[type[IRDLOperation], _Layout] = {}
_is_value: dict[type, bool] = {}
_is_type: dict[type, bool] = {}
_segment_sizes: dict[tuple[int, ...], DenseArrayBase] = {}
_sizes_of: dict[int, tuple[int, ...]] = {}
"""The sizes of each attribute `segment_sizes` made, by its id (each is
kept in `_segment_sizes`, so its id stays its own)."""


def _value(arg: object) -> bool:
    kind = type(arg)
    known = _is_value.get(kind)
    if known is None:
        known = _is_value[kind] = issubclass(kind, SSAValue)
    return known


def _type(arg: object) -> bool:
    """An attribute that `irdl_op_init` takes as one result type (not as a
    sequence of them)."""
    kind = type(arg)
    known = _is_type.get(kind)
    if known is None:
        known = _is_type[kind] = issubclass(kind, Attribute) and not issubclass(
            kind, Sequence
        )
    return known


def _flatten(
    args: Sequence[Any],
    kinds: tuple[int, ...],
    is_one: Callable[[object], bool],
    none_from: int,
) -> tuple[list[Any], list[int]] | None:
    """The arguments of a construct's groups, flattened, and each group's
    size, as `irdl_op_init` makes them: `is_one` tells one element from a
    group of them (a list or tuple of elements), and `None` stands for an
    empty group of kind `none_from` or above; None where one of them is not
    so (an argument the quick path leaves to `irdl_op_init`)."""
    if len(args) != len(kinds):
        return None
    flat: list[Any] = []
    sizes: list[int] = []
    for arg, kind in zip(args, kinds, strict=True):
        if is_one(arg):
            flat.append(arg)
            sizes.append(1)
        elif isinstance(arg, list | tuple):
            count = len(arg)
            fits = count == 1 if kind == _SINGLE else kind == _VARIADIC or count <= 1
            if not fits or not all(map(is_one, arg)):
                return None
            flat.extend(arg)
            sizes.append(count)
        elif arg is None and kind >= none_from:
            sizes.append(0)
        else:
            return None
    return flat, sizes


def _region(arg: object) -> bool:
    return type(arg) is Region


def segment_sizes(sizes: Sequence[int]) -> DenseArrayBase:
    """`DenseArrayBase.from_list(i32, sizes)`, made once per list of sizes:
    the segment-size attribute of an op with several variadic groups (also
    for constructors that make their ops directly)."""
    key = tuple(sizes)
    made = _segment_sizes.get(key)
    if made is None:
        made = _segment_sizes[key] = DenseArrayBase.from_list(i32, sizes)
        _sizes_of[id(made)] = key
    return made


def segment_values(attribute: Attribute) -> tuple[int, ...]:
    """The sizes a segment-size attribute holds (its `get_values()`), looked
    up where `segment_sizes` made it: unpacking its bytes is most of the
    cost of reading an op's field through it (`quick_accessors`)."""
    known = _sizes_of.get(id(attribute))
    if known is None:
        return attribute.get_values()  # pyright: ignore[reportAttributeAccessIssue]
    return known


def _build(
    layout: _Layout,
    operands: Sequence[Any],
    result_types: Sequence[Any],
    regions: Sequence[Any],
) -> tuple[tuple[list, list], tuple[list, list], tuple[list, list]] | None:
    """The flat operands, result types and regions with their group sizes,
    or None where the quick path does not apply."""
    built_operands = _flatten(operands, layout.operands, _value, _VARIADIC)
    if built_operands is None:
        return None
    built_results = _flatten(result_types, layout.results, _type, _OPTIONAL)
    if built_results is None:
        return None
    built_regions = _flatten(regions, layout.regions, _region, _VARIADIC)
    if built_regions is None:
        return None
    return built_operands, built_results, built_regions


def quick_op_init(
    self: IRDLOperation,
    op_def: OpDef,
    *,
    operands: Sequence[Any],
    result_types: Sequence[Any],
    properties: Mapping[str, Attribute | None],
    attributes: Mapping[str, Attribute | None],
    successors: Sequence[Any],
    regions: Sequence[Any],
) -> None:
    """`irdl_op_init`, quicker; see the module docstring."""
    layout = _layouts.get(type(self))
    if layout is None or layout.op_def is not op_def:
        layout = _layouts[type(self)] = _Layout(op_def)
    built = None
    if layout.quick and not successors:
        built = _build(layout, operands, result_types, regions)
    if built is None:
        _irdl_op_init(
            self,
            op_def,
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
            successors=successors,
            regions=regions,
        )
        return
    (
        (flat_operands, operand_sizes),
        (flat_results, result_sizes),
        (
            flat_regions,
            region_sizes,
        ),
    ) = built
    kept_properties = {k: v for k, v in properties.items() if v is not None}
    kept_attributes = {k: v for k, v in attributes.items() if v is not None}
    sizes = (operand_sizes, result_sizes, region_sizes)
    for as_property, name, which in layout.segments:
        container = kept_properties if as_property else kept_attributes
        container[name] = segment_sizes(sizes[which])
    Operation.__init__(
        self,
        operands=flat_operands,
        result_types=flat_results,
        properties=kept_properties,
        attributes=kept_attributes,
        regions=flat_regions,
    )


def quick_operation_init(
    self: Operation,
    *,
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: Mapping[str, Attribute] = {},
    attributes: Mapping[str, Attribute] = {},
    location: LocationAttr | None = None,
    successors: Sequence[Block] = (),
    regions: Sequence[Region] = (),
) -> None:
    """xDSL's `Operation.__init__` without the steps a new op does not need:
    the operand and successor setters' detaching of previous uses (a new op
    has none), a call per operand to link its use (`add_use`, done in
    place), the successor setter altogether for an op without successors
    (its class's empty defaults stand), and the import `_unknown_loc` makes
    for each op given no location. Every op of every level is made here,
    and those steps were a third of its cost."""
    values = SSAValues(operands)
    uses: list[Use] = []
    for index, value in enumerate(values):
        # `value.add_use(use)`, the use made with its place in the list
        first = value.first_use
        use = Use(self, index, None, first)
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        uses.append(use)
    self._operands = values  # pyright: ignore[reportPrivateUsage]
    self._operand_uses = tuple(uses)  # pyright: ignore[reportPrivateUsage]
    self.results = SSAValues(
        [OpResult(type_, self, index) for index, type_ in enumerate(result_types)]
    )
    self.properties = dict(properties)
    self.attributes = dict(attributes)
    self.location = UNKNOWN_LOC if location is None else location
    if successors:
        self.successors = list(successors)
    self.regions = ()
    for region in regions:
        self.add_region(region)
    self.__post_init__()


_defaults: dict[type[IRDLOperation], tuple[OpDef, _Defaults, _Defaults]] = {}


def _defaults_of(defs: Mapping[str, Any]) -> _Defaults:
    return tuple(
        (name, d.default_value)
        for name, d in defs.items()
        if not isinstance(d, OptionalDef) and d.default_value is not None
    )


def quick_post_init(self: IRDLOperation) -> None:
    """xDSL's `IRDLOperation.__post_init__`, the defaults of the op class's
    properties and attributes listed once per class (xDSL looks through
    every definition of the class for each op it makes)."""
    op_def = type(self).get_irdl_definition()
    known = _defaults.get(type(self))
    if known is None or known[0] is not op_def:
        known = _defaults[type(self)] = (
            op_def,
            _defaults_of(op_def.properties),
            _defaults_of(op_def.attributes),
        )
    for name, value in known[1]:
        if name not in self.properties:
            self.properties[name] = value
    for name, value in known[2]:
        if name not in self.attributes:
            self.attributes[name] = value
    Operation.__post_init__(self)


_irdl_op_init = operations.irdl_op_init
operations.irdl_op_init = quick_op_init
_operation_init = Operation.__init__
Operation.__init__ = quick_operation_init
_irdl_post_init = IRDLOperation.__post_init__
IRDLOperation.__post_init__ = quick_post_init
