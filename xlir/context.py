"""The registry of dialects: one `Context` that knows every xlir dialect."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect


def _stablehlo() -> Dialect:
    from xlir.dialects.stablehlo import StableHLO

    return StableHLO


def _chlo() -> Dialect:
    from xlir.dialects.chlo import Chlo

    return Chlo


def _check() -> Dialect:
    from xlir.dialects.check import Check

    return Check


def _hlo() -> Dialect:
    from xlir.dialects.hlo import Hlo

    return Hlo


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _builtin() -> Dialect:
    from xdsl.dialects.builtin import Builtin

    return Builtin


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "builtin": _builtin,
    "func": _func,
    "stablehlo": _stablehlo,
    "chlo": _chlo,
    "check": _check,
    "hlo": _hlo,
}
"""Every dialect xlir knows, by name; each is loaded on first use."""


def make_context() -> Context:
    """A context with all xlir dialects registered (loaded lazily)."""
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx
