"""What every xlir command does with errors: a diagnostic, never a traceback.

`run_command(prog, body)` runs a tool's body (on a stack deep enough for
deeply nested programs: `xlir.deep_stack`) and turns its failures into one
message on stderr and exit status 1: an `XlirError` is printed as it is (it
already carries file:line:col), a `UsageError` or `ValueError` (bad command
line, input file or argument) after `prog: error:`, running out of memory
(a program's tensors too large for this machine) as such, and anything else
is an internal error that names `XLIR_TRACEBACK=1`, which re-raises it. A
reader of stdout that goes away (`xlir-opt ... | head`) ends the tool
quietly, with the status of a process killed by SIGPIPE, as C tools do.
`write_output` is where their results go (a file, or stdout).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NoReturn

from xlir.deep_stack import run_deep
from xlir.diagnostics import XlirError


class UsageError(Exception):
    """A bad command line or input file; the message is the whole story."""


def write_output(path: str | None, data: bytes) -> None:
    """A tool's output to `path`, or to stdout for None or `-`."""
    if path is None or path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(path).write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


def _stdout_to_null() -> None:
    """Point stdout at the null device: its reader is gone, and Python's own
    flush at exit would fail again."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())


def _fail(message: str) -> NoReturn:
    """What the tool printed so far, then `message` on stderr; exit 1."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_null()
    print(message, file=sys.stderr)
    raise SystemExit(1)


@cache
def _exit_without_a_last_collection() -> None:
    """At exit the interpreter collects cyclic garbage once more, walking
    every object the tool's modules built (xDSL's classes and their
    definitions), all of which die with the process anyway; freezing them
    at exit (`gc.freeze`) leaves them out of that walk. Objects alive at
    exit are not promised finalization, so nothing a tool relies on
    changes: it closes its files and flushes its output itself."""
    atexit.register(gc.freeze)


def run_command(prog: str, body: Callable[[], int]) -> NoReturn:
    """Exits with `body()`'s status, or 1 after printing what went wrong."""
    _exit_without_a_last_collection()
    try:
        status = run_deep(body)
        sys.stdout.flush()
    except BrokenPipeError:  # stop quietly, as a process killed by SIGPIPE
        import signal  # here: a run whose reader stays does without

        _stdout_to_null()
        raise SystemExit(128 + signal.SIGPIPE) from None
    except XlirError as error:
        _fail(str(error))
    except (UsageError, ValueError) as error:
        _fail(f"{prog}: error: {error}")
    except MemoryError as error:
        detail = f": {error}" if str(error) else ""
        _fail(f"{prog}: error: out of memory{detail}")
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except Exception as error:  # a bug: still no traceback in front of a user
        if os.environ.get("XLIR_TRACEBACK"):
            raise
        _fail(
            f"{prog}: internal error: {type(error).__name__}: {error} "
            "(set XLIR_TRACEBACK=1 to see where)"
        )
    raise SystemExit(status)
