"""Targets: each implements the runtime interfaces of `base` (named after
XLA's Platform, StreamExecutor, Stream, TransferManager, Compiler and
Executable) and registers itself by name in `TARGETS`."""

from xlir.targets.base import (
    TARGETS,
    Compiler,
    DeviceBuffer,
    Event,
    Executable,
    Platform,
    Signature,
    Stream,
    StreamExecutor,
    TensorSpec,
    TransferManager,
    get_target,
    register_target,
)

__all__ = [
    "TARGETS",
    "Compiler",
    "DeviceBuffer",
    "Event",
    "Executable",
    "Platform",
    "Signature",
    "Stream",
    "StreamExecutor",
    "TensorSpec",
    "TransferManager",
    "get_target",
    "register_target",
]
