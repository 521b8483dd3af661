"""Registries of named plug-ins: dialects, passes, named pipelines,
translations (targets have their own, targets/registry.py).

Each registry is an entry-point group (`xlir.passes`, ...), read by
`xlir/entry_points.py`. xlir declares its built-ins in its own
`pyproject.toml`, and an installed package adds to a group by declaring
entry points of its own, with no edit to xlir. Loading is lazy: asking for the names reads the installed
metadata only, and a name's module is imported when that name is asked for,
so a tool starts without importing what its run never uses.

A program can also add an entry in-process (`register`), which is how tests
add a pass without installing a package.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Generic, TypeVar

from xlir.diagnostics import XlirError
from xlir.entry_points import EntryPoint, read_entry_points

T = TypeVar("T")


class PluginError(XlirError):
    """An entry point that cannot be used: two packages claim its name, or
    its object does not import."""


class Registry(Mapping[str, T], Generic[T]):
    """The entries of one entry-point group, by name, each loaded on first
    use; `kind` names an entry in messages (`pass`, `dialect`)."""

    def __init__(self, group: str, kind: str):
        self.group = group
        self.kind = kind
        self._entry_points: dict[str, list[EntryPoint]] | None = None
        self._loaded: dict[str, T] = {}
        self._added: dict[str, T] = {}

    def _installed(self) -> dict[str, list[EntryPoint]]:
        """The group's entry points by name, read from the installed
        packages' metadata once per process."""
        if self._entry_points is None:
            found: dict[str, list[EntryPoint]] = {}
            for point in installed_entry_points(self.group):
                found.setdefault(point.name, []).append(point)
            if not found:  # xlir declares some of every kind it has
                raise PluginError(
                    f"error: no {self.kind} is registered (entry-point group "
                    f"'{self.group}'): xlir's installed metadata is older than "
                    "its pyproject.toml; reinstall it (`pip install -e .`)"
                )
            self._entry_points = found
        return self._entry_points

    def __getitem__(self, name: str) -> T:
        if name in self._added:
            return self._added[name]
        if name not in self._loaded:
            points = self._installed().get(name)
            if not points:
                raise KeyError(name)
            self._loaded[name] = self._load(name, points)
        return self._loaded[name]

    def _load(self, name: str, points: list[EntryPoint]) -> T:
        if len(points) > 1:
            claims = ", ".join(f"'{p.package}' ({p.value})" for p in points)
            raise PluginError(
                f"error: {self.kind} '{name}' is registered by more than one "
                f"package: {claims}; uninstall one of them"
            )
        (point,) = points
        try:
            return point.load()
        except Exception as error:  # a broken plug-in: name it, not a trace
            raise PluginError(
                f"error: {self.kind} '{name}' of package '{point.package}' "
                f"cannot be loaded from '{point.value}': "
                f"{type(error).__name__}: {error}"
            ) from error

    def __iter__(self) -> Iterator[str]:
        yield from self._installed()
        yield from (name for name in self._added if name not in self._installed())

    def __len__(self) -> int:
        return len(set(self._installed()) | set(self._added))

    def __contains__(self, name: object) -> bool:
        return name in self._added or name in self._installed()

    def register(self, name: str, entry: T) -> None:
        """Add `entry` under `name` in this process (a name that is taken is
        a ValueError: a plug-in does not silently replace a built-in)."""
        if name in self:
            raise ValueError(f"{self.kind} '{name}' is already registered")
        self._added[name] = entry

    def unregister(self, name: str) -> None:
        """Remove an entry that `register` added."""
        del self._added[name]


@cache
def _every_entry_point() -> dict[str, list[EntryPoint]]:
    """The entry points of every group, read once per process: each reading
    goes through the metadata of every installed package, whichever group
    it asks for."""
    return read_entry_points()


def installed_entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The entry points of `group` in the installed packages' metadata,
    read once per process for every group (`forget_entry_points` reads it
    again)."""
    return tuple(_every_entry_point().get(group, ()))


def forget_entry_points() -> None:
    """Read the installed packages' metadata again at the next look-up
    (after a package was installed or put on the path while running)."""
    _every_entry_point.cache_clear()
