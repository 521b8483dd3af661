"""The installed packages' entry points, read without `importlib.metadata`.

Importing `importlib.metadata` brings in `email`, `csv` and `zipfile`,
which a short `xlir-opt` run otherwise does without, to read a few small
text files. This reader finds the same packages as its path finder does: in each
folder of `sys.path`, in order, every `*.dist-info` and `*.egg-info`
folder, the first of each package name winning, and each one's
`entry_points.txt` read with the same syntax. Where the path holds what only
`importlib.metadata` reads (a zip archive, an egg), another finder on
`sys.meta_path` serves packages, or a file is not what the reader expects,
the entry points come from `importlib.metadata` instead, so that they are
always those it would give.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache, partial, reduce
from importlib import import_module
from importlib.machinery import PathFinder
from typing import Any

_VALUE = re.compile(
    r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$"
)
"""An entry point's value, `module:attribute [extras]` (as
`importlib.metadata.EntryPoint` reads it)."""

_METADATA_SUFFIXES = (".dist-info", ".egg-info")


class EntryPoint:
    """`name = value` in `group` of an installed package."""

    __slots__ = ("_package", "group", "name", "value")

    def __init__(self, name: str, value: str, group: str, package: Callable[[], str]):
        self.name = name
        self.value = value
        self.group = group
        self._package = package

    def __repr__(self) -> str:
        return f"EntryPoint({self.name!r}, {self.value!r}, {self.group!r})"

    @property
    def package(self) -> str:
        """The declaring package's name (read from its metadata when asked)."""
        return self._package()

    def load(self) -> Any:
        """The object the value names, its module imported."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"malformed entry point value '{self.value}'")
        module = import_module(match["module"])
        return reduce(getattr, filter(None, (match["attr"] or "").split(".")), module)


class _Unreadable(Exception):
    """Something on the path that only `importlib.metadata` reads."""


def read_entry_points() -> dict[str, list[EntryPoint]]:
    """Every installed package's entry points, by group, each group's in the
    order of the packages on `sys.path`."""
    try:
        points = list(_read_path())
    except _Unreadable:
        points = list(_read_with_importlib())
    groups: dict[str, list[EntryPoint]] = {}
    for point in points:
        groups.setdefault(point.group, []).append(point)
    return groups


def _read_path() -> Iterator[EntryPoint]:
    if any(
        getattr(finder, "find_distributions", None) is not None
        and finder is not PathFinder
        for finder in sys.meta_path
    ):
        raise _Unreadable
    seen: set[str] = set()
    for entry in sys.path:
        for folder in _metadata_folders(entry):
            name = _normalized_name(os.path.basename(folder))
            if name not in seen:
                seen.add(name)
                yield from _parse(_read(folder, "entry_points.txt"), folder)


def _metadata_folders(entry: object) -> list[str]:
    """The metadata folders in `entry` of `sys.path`, in the file system's
    order."""
    if not isinstance(entry, str) or entry.lower().endswith(".egg"):
        raise _Unreadable
    root = entry or "."
    try:
        children = os.listdir(root)
    except OSError:
        if os.path.exists(root):  # a zip archive
            raise _Unreadable from None
        return []
    return [
        os.path.join(root, child)
        for child in children
        if child.lower().endswith(_METADATA_SUFFIXES)
    ]


def _normalized_name(stem: str) -> str:
    """The package name in a metadata folder's name (`foo_bar-1.0.dist-info`),
    normalized as `importlib.metadata` compares them."""
    base, suffix = os.path.splitext(stem)
    name = base.partition("-")[0]
    if suffix not in _METADATA_SUFFIXES or not name:
        raise _Unreadable  # it would read the name from the metadata
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _read(folder: str, file: str) -> str:
    """A metadata file's text; empty where it is missing."""
    try:
        with open(os.path.join(folder, file), encoding="utf-8") as text:
            return text.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return ""
    except (OSError, UnicodeDecodeError):
        raise _Unreadable from None


def _parse(text: str, folder: str) -> Iterator[EntryPoint]:
    """The entry points of an `entry_points.txt`: `[group]` headers, then
    `name = value` lines; `#` starts a comment line."""
    package = partial(_package_name, folder)
    group = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
        elif group is not None:
            if "=" not in line:
                raise _Unreadable
            name, value = line.split("=", 1)
            yield EntryPoint(name.strip(), value.strip(), group, package)


@cache
def _package_name(folder: str) -> str:
    """The `Name` field of a package's metadata ("unknown" where it is
    missing or unreadable)."""
    try:
        text = _read(folder, "METADATA") or _read(folder, "PKG-INFO")
    except _Unreadable:
        return "unknown"
    for line in text.splitlines():
        if not line.strip():
            break
        key, colon, value = line.partition(":")
        if colon and key.strip().lower() == "name":
            return value.strip()
    return "unknown"


def _read_with_importlib() -> Iterator[EntryPoint]:
    from importlib.metadata import entry_points

    everything = entry_points()
    for group in everything.groups:
        for point in everything.select(group=group):
            package = point.dist.name if point.dist is not None else "unknown"
            yield EntryPoint(point.name, point.value, group, partial(str, package))
