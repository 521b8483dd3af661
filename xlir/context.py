"""The registry of dialects: one `Context` that knows every registered dialect."""

from __future__ import annotations

from functools import partial

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredAttr
from xdsl.ir import Attribute, Dialect

from xlir.registry import Registry

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
    `UnregisteredAttr` (ops and types of unknown dialects stay errors)."""

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
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
