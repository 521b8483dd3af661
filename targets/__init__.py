"""Targets: each is a `Target` (targets/target.py) registered through the
`xlir.targets` entry points (targets/registry.py), whose `Platform`
implements the runtime interfaces of `base` (named after XLA's Platform,
StreamExecutor, Stream, TransferManager, Compiler and Executable)."""

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
