"""The registry of dialects: one `Context` that knows every registered dialect."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredAttr
from xdsl.ir import Attribute, Dialect, Operation, TypeAttribute

import xlir.quick_accessors  # installs the quick op field reads
import xlir.quick_ir_core  # installs the quick block iteration, hashes, attributes
import xlir.quick_op_init  # noqa: F401  (installs the quick op construction)
from xlir.lazy_dialect import LazyDialect
from xlir.registry import Registry

T = TypeVar("T")

DIALECTS: Registry[Dialect] = Registry("xlir.dialects", "dialect")
"""Every dialect xlir knows, by name: the `xlir.dialects` entry points (xDSL's
builtin, func, arith, ... and xlir's own, in pyproject.toml, and those of
installed plug-ins); each is loaded on first use."""


FOREIGN_ATTRIBUTE_DIALECTS = frozenset({"sdy", "mhlo"})
"""Dialects whose attributes JAX attaches for other tools (Shardy's sharding
rules on LAPACK custom calls, XLA's hints): xlir keeps them as opaque text and
prints them back, while an unknown attribute of any other dialect is an error."""


class XlirContext(Context):
    """xDSL's context, but attributes of the foreign dialects parse as
    `UnregisteredAttr` (ops and types of unknown dialects stay errors), and
    a `LazyDialect` loads only the family of each name it is asked for."""

    def load_registered_dialect(self, name: str) -> None:
        dialect = self._registered_dialects[name]()
        if isinstance(dialect, LazyDialect):
            self._loaded_dialects[name] = dialect
        else:
            super().load_registered_dialect(name)

    def _lazily(
        self, name: str, find: Callable[[LazyDialect, str], T | None]
    ) -> T | None:
        """`find(dialect, name)` if `name` (an op's or attribute's) is of a
        lazy dialect, else None."""
        if "." not in name:
            return None
        dialect = self.get_optional_dialect(Dialect.split_name(name)[0])
        return find(dialect, name) if isinstance(dialect, LazyDialect) else None

    def _get_known_op(self, name: str) -> type[Operation] | None:
        if name not in self._loaded_ops and (
            found := self._lazily(name, LazyDialect.operation)
        ):
            self._loaded_ops[name] = found
        return super()._get_known_op(name)

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        if name not in self._loaded_types and (
            found := self._lazily(name, LazyDialect.type_attribute)
        ):
            self._loaded_types[name] = found
        return super().get_optional_type(name)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        if name not in self._loaded_attrs and (
            found := self._lazily(name, LazyDialect.attribute)
        ):
            self._loaded_attrs[name] = found
        found = super().get_optional_attr(name)
        dialect, _ = Dialect.split_name(name)
        if found is None and dialect in FOREIGN_ATTRIBUTE_DIALECTS:
            found = UnregisteredAttr.with_name_and_type(name, False)
            self._loaded_attrs[name] = found
        return found

    def clone(self) -> XlirContext:
        return XlirContext(
            self.allow_unregistered,
            self._loaded_dialects.copy(),
            self._loaded_ops.copy(),
            self._loaded_attrs.copy(),
            self._loaded_types.copy(),
            self._registered_dialects.copy(),
        )


def make_context() -> Context:
    """A context with all xlir dialects registered (loaded lazily)."""
    ctx = XlirContext()
    for name in DIALECTS:
        ctx.register_dialect(name, partial(DIALECTS.__getitem__, name))
    return ctx
