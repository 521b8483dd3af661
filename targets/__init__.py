"""Targets: each is a `Target` (targets/target.py) registered through the
`xlir.targets` entry points (targets/registry.py), whose `Platform`
implements the runtime interfaces of `base` (named after XLA's Platform,
StreamExecutor, Stream, TransferManager, Compiler and Executable).

The names below are imported on first use: a module that needs one part of a
target (the accel dialect reads the XA-1 instruction table) does not bring in
the runtime's numpy, passes and pipelines with it."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xlir.targets.base import (
        Compiler,
        DeviceBuffer,
        Event,
        Executable,
        Platform,
        Stream,
        StreamExecutor,
        TransferManager,
    )
    from xlir.targets.registry import get_platform, get_target, target_names
    from xlir.targets.target import CompileOptions, Target, TargetInfo

__all__ = [
    "CompileOptions",
    "Compiler",
    "DeviceBuffer",
    "Event",
    "Executable",
    "Platform",
    "Stream",
    "StreamExecutor",
    "Target",
    "TargetInfo",
    "TransferManager",
    "get_platform",
    "get_target",
    "target_names",
]

_HOMES = {
    "get_platform": "xlir.targets.registry",
    "get_target": "xlir.targets.registry",
    "target_names": "xlir.targets.registry",
    "CompileOptions": "xlir.targets.target",
    "Target": "xlir.targets.target",
    "TargetInfo": "xlir.targets.target",
}
"""The module of each name not from `xlir.targets.base`."""


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'xlir.targets' has no attribute '{name}'")
    return getattr(import_module(_HOMES.get(name, "xlir.targets.base")), name)
