"""What every xlir command does with errors: a diagnostic, never a traceback.

`run_command(prog, body)` runs a tool's body (on a stack deep enough for
deeply nested programs: `xlir.deep_stack`) and turns its failures into one
message on stderr and exit status 1: an `XlirError` is printed as it is (it
already carries file:line:col), a `UsageError` or `ValueError` (bad command
line, input file or argument) after `prog: error:`, and anything else is an
internal error that names `XLIR_TRACEBACK=1`, which re-raises it.
`write_output` is where their results go (a file, or stdout).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
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


def run_command(prog: str, body: Callable[[], int]) -> NoReturn:
    """Exits with `body()`'s status, or 1 after printing what went wrong."""
    try:
        status = run_deep(body)
    except XlirError as error:
        sys.stdout.flush()
        print(error, file=sys.stderr)
        raise SystemExit(1) from None
    except (UsageError, ValueError) as error:
        sys.stdout.flush()
        print(f"{prog}: error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except Exception as error:  # a bug: still no traceback in front of a user
        if os.environ.get("XLIR_TRACEBACK"):
            raise
        sys.stdout.flush()
        print(
            f"{prog}: internal error: {type(error).__name__}: {error} "
            "(set XLIR_TRACEBACK=1 to see where)",
            file=sys.stderr,
        )
        raise SystemExit(1) from None
    raise SystemExit(status)
