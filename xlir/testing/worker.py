"""Fuzz cases run in a separate worker process, so that a segfault, an abort,
a hang or a runaway allocation in one case is a recorded outcome (`crash`,
`hang`) rather than the end of the run, and the next case gets a fresh
worker.

The parent sends pickled requests `(function name, arguments)` naming a
function of `xlir.testing.cases`; the worker answers with its return value.
Messages travel on the worker's stdin and on a duplicate of its stdout taken
at start-up; anything the case itself prints goes to stderr, whose tail is
kept to describe a crash.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import resource
import select
import struct
import subprocess
import sys
import tempfile
import time
from typing import IO, Any

_HEADER = struct.Struct("<Q")

MEMORY_LIMIT = 8 << 30
"""Address space a worker may map: a case that asks for more fails in the
worker (MemoryError or a crash), not on the machine."""


class Worker:
    """One worker process; `call` runs a case in it with a time limit."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: Any = None
        self.restarts = 0

    def _start(self) -> subprocess.Popen[bytes]:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the worker)
        environment = dict(os.environ, XLIR_CACHE="0", XLIR_CODEGEN_THREADS="1")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "xlir.testing.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=environment,
        )
        return self._process

    def call(
        self, function: str, *arguments: Any, timeout: float = 60.0
    ) -> tuple[str, Any]:
        """`("ok", value)`, or `("crash", what the worker printed last)` when
        it died, or `("hang", "")` when it took longer than `timeout`
        seconds (the worker is then killed)."""
        process = self._process or self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            _write(process.stdin, (function, arguments))
            reply = _read(process.stdout, time.monotonic() + timeout)
        except (BrokenPipeError, EOFError):
            return "crash", self._death()
        except TimeoutError:
            self.close()
            return "hang", f"no answer within {timeout:.0f} s"
        return "ok", reply

    def _death(self) -> str:
        process, stderr = self._process, self._stderr
        assert process is not None and stderr is not None
        status = process.wait()
        stderr.seek(0)
        lines = stderr.read().decode(errors="replace").strip().splitlines()
        self._process = None
        self.restarts += 1
        signal = f"signal {-status}" if status < 0 else f"exit status {status}"
        return f"worker died ({signal}){last_words(lines)}"

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
            self.restarts += 1

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def last_words(lines: list[str]) -> str:
    """What the worker said as it died: faulthandler's report and the
    innermost frame, or its last line."""
    for i, line in enumerate(lines):
        if line.startswith("Fatal Python error"):
            frames = [f.strip() for f in lines[i:] if f.strip().startswith("File ")]
            return f": {line}" + (f" ({frames[0]})" if frames else "")
    return f": {lines[-1]}" if lines else ""


def _write(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        if deadline is not None:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([stream], [], [], max(left, 0))
            if not ready:
                raise TimeoutError
        chunk = os.read(stream.fileno(), size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read(stream: IO[bytes], deadline: float | None) -> Any:
    (size,) = _HEADER.unpack(_read_exactly(stream, _HEADER.size, deadline))
    return pickle.loads(_read_exactly(stream, size, deadline))


def _serve() -> None:
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what cases print must not mix with the replies
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    faulthandler.enable()  # a crash names the Python frame it happened under
    from xlir.testing import cases

    requests = sys.stdin.buffer
    while True:
        try:
            function, arguments = _read(requests, None)
        except EOFError:
            return
        _write(replies, getattr(cases, function)(*arguments))


if __name__ == "__main__":
    _serve()
