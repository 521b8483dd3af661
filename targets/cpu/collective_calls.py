"""The cpu target's `xlir.collective(site, buffers)`: what a native entry's
collective step calls (lowering/llvm/collective_calls.py).

It is a Python callback, made a symbol of the process once
(`llvm.add_symbol`), as the launch timers are. The executable whose entry
runs on the calling thread (`calling`) holds the site's `CollectiveStep` and
the communicator of this call; the callback hands the step the buffers'
addresses. A step that raises records the error for the executable to
raise once the entry returns (a Python exception cannot cross native
frames); the steps after it do nothing, so the entry finishes at once.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import llvmlite.binding as llvm
from xlir.evaluator.collective_step import CollectiveStep
from xlir.lowering.llvm.collective_calls import COLLECTIVE

from xlir.communicator import Communicator

CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p)
"""`i32 xlir.collective(i64 site, void **buffers)`: 0, or 1 after an error."""


@dataclass
class _Call:
    steps: Sequence[CollectiveStep]
    communicator: Communicator
    error: BaseException | None = None


_CALLING = threading.local()


def needs_collectives(objects: Sequence[bytes]) -> bool:
    """Whether any of these objects calls `xlir.collective`."""
    name = COLLECTIVE.encode()
    return any(name in code for code in objects)


@contextmanager
def calling(
    steps: Sequence[CollectiveStep], communicator: Communicator
) -> Iterator[None]:
    """Run the entry called inside the `with` with these steps; raises the
    first error a step had."""
    previous = getattr(_CALLING, "call", None)
    call = _CALLING.call = _Call(steps, communicator)
    try:
        yield
    finally:
        _CALLING.call = previous
    if call.error is not None:
        raise call.error


def _collective(site: int, buffers: int) -> int:
    call: _Call | None = getattr(_CALLING, "call", None)
    if call is None or call.error is not None:
        return 1
    try:
        step = call.steps[site]
        addresses = (ctypes.c_void_p * len(step.layouts)).from_address(buffers)
        step.run_at(call.communicator, [a or 0 for a in addresses])
    except BaseException as error:
        call.error = error
        return 1
    return 0


_CALLBACK = CALLBACK(_collective)


@cache
def load_collectives() -> None:
    """Make the callback the process's `xlir.collective`, once."""
    address = ctypes.cast(_CALLBACK, ctypes.c_void_p).value
    assert address is not None
    llvm.add_symbol(COLLECTIVE, address)
