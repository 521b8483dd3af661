"""The registry of dialects: one `Context` that knows every xlir dialect."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.context import Context
from xdsl.ir import Dialect


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
    }.items()
}
"""Every dialect xlir knows, by name; each is loaded on first use."""


def make_context() -> Context:
    """A context with all xlir dialects registered (loaded lazily)."""
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx
