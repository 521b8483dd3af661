"""Room for deeply nested programs.

xDSL's parser, printer and verifier, and the walks of passes and targets,
recurse a few Python frames per level of region nesting (a `while` in a
`while`). CPython's default limit of 1,000 frames ends that near 130 levels
with a `RecursionError`, and raising the limit alone would let the C stack
of the main thread (8 MiB) overflow first: a segfault instead of an error.

So `run_deep(work)` runs the work in a thread of its own with a large stack
(`STACK_BYTES`, address space that is touched only as deep as the work goes)
while the recursion limit is raised to `RECURSION_LIMIT`, which that stack
holds with room to spare; the limit is put back when the last deep work
ends. Programs are accepted up to `MAX_REGION_DEPTH` levels of regions (the
parser says where a deeper one crosses the limit); anything that still runs
out of frames becomes `NestingTooDeep`, a diagnostic, not a traceback.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from xlir.diagnostics import XlirError

MAX_REGION_DEPTH = 2000
"""The deepest nesting of regions xlir accepts, a function's body counted
as the first (docs/tools.md)."""

SHALLOW_DEPTH = 32
"""Programs nested at most this deep run on the caller's own stack when
they are run, not only compiled (the interpreter's calls)."""

RECURSION_LIMIT = 200_000
"""Python frames allowed while deep work runs."""

STACK_BYTES = 1 << 30
"""The stack of the thread that runs deep work."""

_lock = threading.Lock()
_running = 0
_saved_limit = 0

_THREAD_NAME = "xlir-deep"

T = TypeVar("T")


class NestingTooDeep(XlirError):
    """A program nested too deeply for the frames xlir allows itself."""


def _enter() -> None:
    global _running, _saved_limit
    with _lock:
        if _running == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _running += 1


def _leave() -> None:
    global _running
    with _lock:
        _running -= 1
        if _running == 0:
            sys.setrecursionlimit(_saved_limit)


def run_deep(work: Callable[[], T]) -> T:
    """`work()`, run on a large stack with a raised recursion limit; its
    result, or the exception it raised (a `RecursionError` as
    `NestingTooDeep`)."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        try:
            outcome.append(work())
        except RecursionError:
            failure.append(
                NestingTooDeep(
                    "error: the program is nested too deeply: it needs more than "
                    f"{RECURSION_LIMIT} Python frames (xlir accepts up to "
                    f"{MAX_REGION_DEPTH} levels of regions)"
                )
            )
        except BaseException as error:
            failure.append(error)

    if threading.current_thread().name == _THREAD_NAME:
        return work()
    thread = threading.Thread(target=body, name=_THREAD_NAME, daemon=True)
    _enter()
    try:
        with _lock:  # the stack size is read when a thread starts
            previous = threading.stack_size(STACK_BYTES)
            try:
                thread.start()
            finally:
                threading.stack_size(previous)
        thread.join()
    finally:
        _leave()
    if failure:
        raise failure[0]
    return outcome[0]
