"""A dialect whose ops and attributes are imported one family at a time.

xDSL builds an op class when its module is imported, and loading a dialect
imports every module of it. A large dialect (stablehlo) instead names, for
each of its families (a module's list of classes, as `module:LIST`), the
names of the classes in it: the context (`xlir/context.py`) asks for a name
and the dialect imports only the family that holds it, so that a program of
a few elementwise ops does not build the collectives, the convolutions and
the sorts. Iterating `operations` or `attributes` imports every family, as
for any other dialect.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any

from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute


class LazyDialect(Dialect):
    """`operations` and `attributes` map each family (`module:LIST`) to the
    names in it, without the dialect's prefix, separated by spaces."""

    def __init__(
        self,
        name: str,
        operations: Mapping[str, str],
        attributes: Mapping[str, str],
    ):
        super().__init__(name, [], [])
        self._op_families = _by_name(name, operations)
        self._attribute_families = _by_name(name, attributes)

    @property
    def operations(self) -> Iterator[type[Operation]]:
        for family in dict.fromkeys(self._op_families.values()):
            yield from _members(family)

    @property
    def attributes(self) -> Iterator[type[Attribute]]:
        for family in dict.fromkeys(self._attribute_families.values()):
            yield from _members(family)

    def operation(self, name: str) -> type[Operation] | None:
        """The op class named `name` (with the prefix), its family imported."""
        return _find(self._op_families, name)

    def attribute(self, name: str) -> type[Attribute] | None:
        """The attribute class (not a type) named `name`."""
        found = _find(self._attribute_families, name)
        return None if found is None or issubclass(found, TypeAttribute) else found

    def type_attribute(self, name: str) -> type[TypeAttribute] | None:
        """The type class named `name`."""
        found = _find(self._attribute_families, name)
        return found if found is not None and issubclass(found, TypeAttribute) else None


def _by_name(dialect: str, families: Mapping[str, str]) -> dict[str, str]:
    """Each full name (`dialect.name`) to its family."""
    return {
        f"{dialect}.{name}": family
        for family, names in families.items()
        for name in names.split()
    }


def _members(family: str) -> list[Any]:
    """The classes a family (`module:LIST`) lists, its module imported."""
    module, _, members = family.partition(":")
    return getattr(import_module(module), members)


def _find(families: Mapping[str, str], name: str) -> type | None:
    """The class named `name` in the family the table gives it."""
    family = families.get(name)
    if family is None:
        return None
    return next(entry for entry in _members(family) if entry.name == name)
