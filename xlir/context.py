"""The registry of dialects: one `Context` that knows every xlir dialect."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredAttr
from xdsl.ir import Attribute, Dialect


def _lazy(module: str, attribute: str) -> Callable[[], Dialect]:
    """A factory that imports `module` only when the dialect is first used."""

    def load() -> Dialect:
        return getattr(import_module(module), attribute)

    return load


DIALECTS: dict[str, Callable[[], Dialect]] = {
    name: _lazy(module, attribute)
    for name, (module, attribute) in {
        # xDSL's: the HLO level uses func; the loop level arith, math, memref,
        # scf (host control flow) and vector (the broadcasts of register
        # tiles); the CPU target's last level llvm.
        "builtin": ("xdsl.dialects.builtin", "Builtin"),
        "func": ("xdsl.dialects.func", "Func"),
        "arith": ("xlir.dialects.arith", "Arith"),  # xDSL's, with remf
        "math": ("xdsl.dialects.math", "Math"),
        "memref": ("xdsl.dialects.memref", "MemRef"),
        "scf": ("xdsl.dialects.scf", "Scf"),
        "vector": ("xdsl.dialects.vector", "Vector"),
        "llvm": ("xdsl.dialects.llvm", "LLVM"),
        # xlir's.
        "stablehlo": ("xlir.dialects.stablehlo", "StableHLO"),
        "chlo": ("xlir.dialects.chlo", "Chlo"),
        "check": ("xlir.dialects.check", "Check"),
        "quant": ("xlir.dialects.quant", "Quant"),
        "interpreter": ("xlir.dialects.interpreter", "Interpreter"),
        "hlo": ("xlir.dialects.hlo", "Hlo"),
        "loop": ("xlir.dialects.loop", "Loop"),
        "device": ("xlir.dialects.device", "Device"),
        "accel": ("xlir.dialects.accel", "Accel"),
    }.items()
}
"""Every dialect xlir knows, by name; each is loaded on first use."""


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
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx
