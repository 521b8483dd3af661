"""The registration vocabulary both evaluators share: a table of factories
keyed by op class, filled with `@table.impl(SomeOp, ...)` (as xDSL's
interpreter registers `@impl(arith.AddiOp)`).

Keying by class rather than by name string ties each entry to the op the
parser builds: a misspelt or removed op is an import error, not an entry
that never matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from xdsl.ir import Operation

FactoryT = TypeVar("FactoryT", bound=Callable[..., object])


class OpTable(Generic[FactoryT]):
    """Factories by op class: `impl` registers one for the classes given,
    `lookup` finds the one of an op."""

    def __init__(self) -> None:
        self._factories: dict[type[Operation], FactoryT] = {}

    def impl(self, *ops: type[Operation]) -> Callable[[FactoryT], FactoryT]:
        """Register the decorated factory for the op classes given; a class
        registered twice is a programming error."""

        def register(factory: FactoryT) -> FactoryT:
            for op in ops:
                if op in self._factories:
                    raise ValueError(f"'{op.name}' already has a factory")
                self._factories[op] = factory
            return factory

        return register

    def lookup(self, op: Operation) -> FactoryT | None:
        return self._factories.get(type(op))

    def __contains__(self, op_class: object) -> bool:
        return op_class in self._factories

    def __iter__(self) -> Iterator[type[Operation]]:
        return iter(self._factories)
