"""Every target, found through entry points (xlir/entry_points.py).

A target registers one entry point in the group `xlir.targets`: its name,
and a `Target` subclass (or any callable returning a `Target`). xlir's own
are declared in its `pyproject.toml`; a target in another package declares
its own (examples/out_of_tree_target/). Nothing is imported until a target
is asked for by name, so importing this module imports no target.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from xlir.targets.target import CompileOptions, Target

from xlir.diagnostics import XlirError
from xlir.entry_points import EntryPoint
from xlir.registry import forget_entry_points, installed_entry_points

if TYPE_CHECKING:
    from xlir.targets.base import Platform

GROUP = "xlir.targets"

_LOADED: dict[str, Target] = {}


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points, from the metadata the other registries
    read (xlir/registry.py): one reading per process for all of them."""
    return {point.name: point for point in installed_entry_points(GROUP)}


def target_names() -> list[str]:
    """The registered targets' names, sorted."""
    return sorted(_entry_points())


def get_target(name: str) -> Target:
    """The target registered as `name`, loaded on first use."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    point = _entry_points().get(name)
    if point is None:
        if not _entry_points():
            raise XlirError(
                f"error: unknown target '{name}': no target is registered (the "
                f"entry points of group {GROUP} come with xlir's install: "
                "`pip install -e .` after they change)"
            )
        known = ", ".join(target_names())
        raise XlirError(f"error: unknown target '{name}' (known targets: {known})")
    target = point.load()()
    if not isinstance(target, Target) or target.name != name:
        raise XlirError(
            f"error: entry point '{name}' of group {GROUP} ({point.value}) "
            f"gave {target!r}, expected a Target named '{name}'"
        )
    _LOADED[name] = target
    return target


def forget() -> None:
    """Read the entry points again at the next look-up (after a package was
    installed or put on the path while running)."""
    forget_entry_points()
    _entry_points.cache_clear()
    _LOADED.clear()


def get_platform(name: str) -> Platform:
    """The platform (runtime) of the target registered as `name`."""
    return get_target(name).platform()


def reference_target() -> str:
    """The name of the one registered target that is the reference
    (`Target.is_reference`), or a diagnostic naming those that claim to be."""
    names = [n for n in target_names() if get_target(n).is_reference]
    if len(names) != 1:
        raise XlirError(
            "error: exactly one registered target must be the reference "
            f"(Target.is_reference); found {', '.join(names) or 'none'}"
        )
    return names[0]


def ahead_of_time_target(name: str | None = None) -> Target:
    """The target that `xlir-compile` and `xlir-translate` compile for:
    `name`'s, which must compile ahead of time, or else the one registered
    target that does, leaving out, where several do, those whose output is
    a device's code (`TargetInfo.device_code`); a diagnostic naming them
    where that leaves none or several."""
    options = CompileOptions()
    if name is not None:
        target = get_target(name)
        if not target.info(options).ahead_of_time:
            raise XlirError(
                f"error: target '{name}' does not compile ahead of time "
                f"(targets that do: {', '.join(_ahead_of_time_names()) or 'none'})"
            )
        return target
    able = _ahead_of_time_names()
    if len(able) > 1:  # several: a device's code is compiled only when named
        able = [n for n in able if not get_target(n).info(options).device_code]
    if len(able) != 1:
        raise XlirError(
            "error: name the target to compile for with --target "
            f"(targets that compile ahead of time: {', '.join(able) or 'none'})"
        )
    return get_target(able[0])


def _ahead_of_time_names() -> list[str]:
    options = CompileOptions()
    return [n for n in target_names() if get_target(n).info(options).ahead_of_time]


def program_target(data: bytes, name: str) -> Target:
    """The registered target whose ahead-of-time files (`Target.program_magic`)
    `data`, the bytes of file `name`, starts with; or a diagnostic naming
    the targets that run such files and their magic."""
    readers = {}
    for key in target_names():
        magic = get_target(key).program_magic
        if magic is not None and data.startswith(magic):
            return get_target(key)
        if magic is not None:
            readers[key] = magic
    known = ", ".join(f"{key} ({magic!r})" for key, magic in readers.items())
    raise XlirError(
        f"{name}: error: a binary file that no registered target runs: it "
        f"starts with {data[:4]!r} (targets that run compiled files, and the "
        f"bytes those start with: {known or 'none'})"
    )
