"""The cpu target's launch timers: what `xlir.launch_begin(site)` and
`xlir.launch_end(site)` (lowering/llvm/launch_timers.py) do in native code,
and the host's reading of them.

`begin` reads the monotonic clock (`clock_gettime`); `end` reads it again
and adds to the site's record in the table `xlir.launch_table` points to:
four i64s per site, the first start, the last end, the nanoseconds spent
in the kernel, and the launch count. The functions are compiled once per
process, as the support functions are (thread_runtime.py), and resolve in
every executable compiled with timers. Launches run one after the other
(each kernel to completion), so one saved start suffices; a profiled
executable is not for calling from several threads at once. Called with no
table (outside `LaunchTable`), `end` records nothing.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.lowering.llvm.launch_timers import LAUNCH_BEGIN, LAUNCH_END
from xlir.targets.base import DeviceClock, LaunchTime, TimedCall
from xlir.targets.cpu.host_machine import host_object_code

TABLE = "xlir.launch_table"
FIELDS = 4
"""first start, last end, busy nanoseconds, launches."""

CLOCK_MONOTONIC = 1
"""Linux's clock id."""

I32, I64 = ir.IntType(32), ir.IntType(64)

HOST_CLOCK = DeviceClock(
    "the host's monotonic clock (timers around each launch in the native code)", 1e9
)
"""What the timers read: Python's `time.monotonic_ns` reads it too."""


@dataclass(frozen=True)
class LaunchSite:
    """The kernel a timed launch runs and the bytes of its buffers."""

    kernel: str
    bytes: int


def launch_sites(recorded: Attribute | None) -> list[LaunchSite] | None:
    """The sites `device-to-llvm{time-launches=true}` recorded on a module;
    None where it was lowered without timers."""
    if not isinstance(recorded, ArrayAttr):
        return None
    sites = []
    for entry in recorded.data:
        assert isinstance(entry, DictionaryAttr)
        kernel, size = entry.data["kernel"], entry.data["bytes"]
        assert isinstance(kernel, StringAttr) and isinstance(size, IntegerAttr)
        sites.append(LaunchSite(kernel.data, size.value.data))
    return sites


def define_launch_timers(module: ir.Module) -> None:
    """The two timer functions and the table pointer, in `module`."""
    pointer = ir.PointerType()
    table = ir.GlobalVariable(module, pointer, TABLE)
    table.initializer = ir.Constant(pointer, None)  # pyright: ignore[reportAttributeAccessIssue]
    started = ir.GlobalVariable(module, I64, "xlir.launch_started")
    started.initializer = ir.Constant(I64, 0)  # pyright: ignore[reportAttributeAccessIssue]
    started.linkage = "internal"
    timespec = ir.LiteralStructType([I64, I64])
    clock_gettime = ir.Function(
        module, ir.FunctionType(I32, [I32, pointer]), "clock_gettime"
    )

    def now(b: ir.IRBuilder) -> ir.Value:
        slot = b.alloca(timespec)
        b.call(clock_gettime, [I32(CLOCK_MONOTONIC), slot])
        seconds = b.load(b.gep(slot, [I32(0), I32(0)], source_etype=timespec), typ=I64)
        nanos = b.load(b.gep(slot, [I32(0), I32(1)], source_etype=timespec), typ=I64)
        return cast(ir.Value, b.add(b.mul(seconds, I64(1_000_000_000)), nanos))

    void = ir.FunctionType(ir.VoidType(), [I64])
    begin = ir.Function(module, void, LAUNCH_BEGIN)
    b = ir.IRBuilder(begin.append_basic_block())
    b.store(now(b), started)
    b.ret_void()

    end = ir.Function(module, void, LAUNCH_END)
    b = ir.IRBuilder(end.append_basic_block())
    stop = now(b)
    start = b.load(started, typ=I64)
    base = b.load(table, typ=pointer)
    # no table (a call outside `LaunchTable`): nothing to record
    with b.if_then(b.icmp_unsigned("!=", base, ir.Constant(pointer, None))):
        _record(b, end.args[0], base, start, stop)
    b.ret_void()


def _record(
    b: ir.IRBuilder, site: ir.Value, base: ir.Value, start: ir.Value, stop: ir.Value
) -> None:
    """Add one launch, from `start` to `stop`, to the site's record."""
    fields = [
        b.gep(base, [b.add(b.mul(site, I64(FIELDS)), I64(i))], source_etype=I64)
        for i in range(FIELDS)
    ]
    first, _, busy, count = (b.load(f, typ=I64) for f in fields)
    b.store(b.select(b.icmp_unsigned("==", count, I64(0)), start, first), fields[0])
    b.store(stop, fields[1])
    b.store(b.add(busy, b.sub(stop, start)), fields[2])
    b.store(b.add(count, I64(1)), fields[3])


def needs_launch_timers(objects: Sequence[bytes]) -> bool:
    """Whether these objects were compiled with launch timers."""
    name = LAUNCH_BEGIN.encode()
    return any(name in code for code in objects)


@cache
def load_launch_timers() -> LoadedObject:
    """The timers loaded into this process, each a process symbol."""
    module = ir.Module()
    module.triple = llvm.get_default_triple()
    define_launch_timers(module)
    loaded = LoadedObject((host_object_code(str(module)),))
    for name in (LAUNCH_BEGIN, LAUNCH_END):
        llvm.add_symbol(name, loaded.address(name))
    return loaded


class LaunchTable:
    """A zeroed table for `sites` launch sites, made current for the timers
    while it lives in a `with` block."""

    def __init__(self, sites: int):
        self.records = np.zeros((max(sites, 1), FIELDS), dtype=np.int64)
        engine = load_launch_timers().engine
        self._pointer = ctypes.c_void_p.from_address(
            engine.get_global_value_address(TABLE)
        )

    def __enter__(self) -> LaunchTable:
        self._pointer.value = self.records.ctypes.data
        return self

    def __exit__(self, *_: object) -> None:
        self._pointer.value = None


def timed_call(executable: Any, arrays: Sequence[np.ndarray]) -> TimedCall:
    """Call a `CpuExecutable` compiled with launch timers: its results, the
    call's span and each launch site's record."""
    sites: Sequence[LaunchSite] = executable.launch_sites
    with LaunchTable(len(sites)) as table:
        start = time.monotonic_ns()
        results = executable(*arrays)
        end = time.monotonic_ns()
    times = []
    for site, row in zip(sites, table.records, strict=False):
        first, last, busy, count = (int(x) for x in row)
        times.append(LaunchTime(site.kernel, site.bytes, first, last, busy, count))
    return TimedCall(results, start, end, times)
