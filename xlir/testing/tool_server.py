"""A warm fork server for the tool runs of a lit suite (a zygote, as
Android's or nailgun): starting Python and importing xDSL and xlir is most
of what a RUN line's `xlir-opt` costs, and the suite has hundreds of them.
The server imports the tools once, and the plug-ins their runs import
on first use (`preload`), then forks a child for each run; the child takes the client's (`tool_client`'s) standard streams, working folder,
environment and arguments, and runs the tool's console-script function as
the console script does, `sys.exit(main())`, ending through the
interpreter's own exit (threads, atexit, flushing, the exit status).

`ToolServer` is the lit side: a server for the rest of this process's life
and, in a folder that goes first on the tests' PATH, a client under each
tool's name. A client whose environment differs from the server's in a
variable read at start-up or import (anything but `READ_WHEN_USED`) is
refused, and runs the console script itself. The server ends when the
process that started it does: the pipe on its stdin closes.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, distribution, entry_points
from pathlib import Path

SERVED_DISTRIBUTIONS = ("xlir", "filecheck")
"""Whose console scripts are served."""

READ_WHEN_USED = re.compile(rb"XLIR_\w+|TMP|TMPDIR|TEMP|TEMPDIR|LIT_CURRENT_TESTCASE")
"""The variables a client may set otherwise than the server: xlir reads its
own when a tool runs, never at import, and Python its temp folder when first
asked (the child forgets the server's answer). lit sets the temp folders
after its configuration has started the server, and the test's name for
each test."""

PRELOADED_GROUPS = re.compile(r"xlir\.\w+")
"""The entry-point groups whose plug-ins the server imports before serving:
xlir's dialects, passes, pipelines, targets and translations, which each
run would otherwise import when it first names one (a RUN line's
`xlir-run --target cpu` imports the cpu target, its passes and LLVM)."""

Tool = tuple[str, Callable[[], object]]
"""A served tool: its console script's path, and the function it calls."""

CLIENT = """\
#!{python} -IS
import sys
sys.path.append({folder!r})
from tool_client import run
run({address!r}, {name!r}, {script!r})
"""


def served_tools(path: str) -> dict[str, tuple[str, str]]:
    """The console scripts of `SERVED_DISTRIBUTIONS` found on `path`, by
    name: the script and its entry point (`module:function`)."""
    tools = {}
    for name in SERVED_DISTRIBUTIONS:
        for entry in distribution(name).entry_points:
            script = shutil.which(entry.name, path=path)
            if entry.group == "console_scripts" and script is not None:
                tools[entry.name] = (script, entry.value)
    return tools


class ToolServer:
    """A server started with `environment` (lit's for its tests), serving
    `tools` (`served_tools` of its PATH by default); `path` is that PATH
    with the clients' folder first."""

    def __init__(
        self,
        environment: Mapping[str, str],
        tools: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        given_path = environment.get("PATH", "")
        tools = served_tools(given_path) if tools is None else tools
        self.folder = Path(tempfile.mkdtemp(prefix="xlir-tools-"))
        clients = self.folder / "bin"
        clients.mkdir()
        address = str(self.folder / "socket")
        for name, (script, _) in tools.items():
            client = clients / name
            client.write_text(
                CLIENT.format(
                    python=sys.executable,
                    folder=str(Path(__file__).parent),
                    address=address,
                    name=name,
                    script=script,
                )
            )
            client.chmod(0o755)
        self.path = f"{clients}{os.pathsep}{given_path}"
        arguments = [part for name, tool in tools.items() for part in (name, *tool)]
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", __name__, address, *arguments],
            env={**environment, "PATH": self.path},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C reaches the clients, not the server
        )
        assert self.process.stdout is not None
        ready = self.process.stdout.readline()
        self.process.stdout.close()
        atexit.register(self.stop)
        if ready != b"listening\n":
            self.stop()
            raise RuntimeError("the tool server did not start")

    def stop(self) -> None:
        """End the server (its stdin closes) and remove its folder."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Request:
    """A client's tool run: what its console script would have been given."""

    name: str
    folder: bytes
    arguments: list[str]
    environment: dict[bytes, bytes]
    streams: list[int]


def receive(connection: socket.socket) -> Request | None:
    """The request on `connection` (`tool_client.request`), or None for a
    malformed one."""
    connection.settimeout(10)
    data, streams, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    size = int.from_bytes(data[:4], "big")
    body = data[4:]
    while len(body) < size and (chunk := connection.recv(size - len(body))):
        body += chunk
    fields = body.split(b"\0")
    if (
        len(streams) != 3
        or len(body) != size
        or not fields[2:3]
        or not fields[2].isdigit()
    ):
        for stream in streams:
            os.close(stream)
        return None
    count = int(fields[2])
    return Request(
        name=fields[0].decode(errors="replace"),
        folder=fields[1],
        arguments=[os.fsdecode(a) for a in fields[3 : 3 + count]],
        environment={
            name: value
            for name, _, value in (item.partition(b"=") for item in fields[3 + count :])
        },
        streams=streams,
    )


def admit(
    connection: socket.socket,
    tools: Mapping[str, Tool],
    own: Mapping[bytes, bytes],
) -> Request | None:
    """The request on a new connection, if this server serves it; else None,
    and the client is told to run its console script."""
    try:
        request = receive(connection)
    except OSError:  # a client gone, or silent
        request = None
    if request and request.name in tools and same_start(request.environment, own):
        return request
    for stream in request.streams if request else []:
        os.close(stream)
    with contextlib.suppress(OSError):  # a client gone
        connection.sendall(b"X")
    connection.close()
    return None


def same_start(environment: Mapping[bytes, bytes], own: Mapping[bytes, bytes]) -> bool:
    """Whether a process started in `environment` would import as this one."""
    return all(
        environment.get(name) == own.get(name) or READ_WHEN_USED.fullmatch(name)
        for name in environment.keys() | own.keys()
    )


def fresh_standard_streams() -> None:
    """sys.stdin, stdout and stderr anew on descriptors 0-2 (the client's
    now), set up as Python's start-up sets them up: a terminal is line
    buffered."""
    buffered = not os.environ.get("PYTHONUNBUFFERED")  # the server's own too
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        old = getattr(sys, name)
        writes = fd > 0
        binary = open(  # noqa: SIM115 - the interpreter's streams, never closed
            fd,
            "wb" if writes else "rb",
            buffering=0 if writes and not buffered else -1,
            closefd=False,
        )
        stream = io.TextIOWrapper(
            binary,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=buffered and (os.isatty(fd) or fd == 2),
            write_through=not buffered,
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def enter(request: Request, script: str) -> None:
    """Make this (forked) process the client's: its streams, folder,
    environment and command line."""
    for target, stream in enumerate(request.streams):
        os.dup2(stream, target)
        os.close(stream)
    os.chdir(request.folder)
    os.environb.clear()
    os.environb.update(request.environment)
    tempfile.tempdir = None
    sys.argv = [script, *request.arguments]
    sys.path.insert(0, os.path.dirname(script))  # as a script's own folder
    fresh_standard_streams()


def serve(
    listener: socket.socket, tools: Mapping[str, Tool]
) -> Callable[[], object] | None:
    """Serve until stdin closes, then return None; in each forked child,
    return the tool it is to run, the process set up as the client's."""
    own = dict(os.environb)
    selector = selectors.DefaultSelector()
    wakeup, wakeup_writer = socket.socketpair()
    wakeup_writer.setblocking(False)
    signal.set_wakeup_fd(wakeup_writer.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)  # to write to wakeup_writer
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wakeup, selectors.EVENT_READ)
    selector.register(0, selectors.EVENT_READ)
    running: dict[int, socket.socket] = {}  # a child's pid: its client
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                connection, _ = listener.accept()
                request = admit(connection, tools, own)
                if request is None:
                    continue
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    for resource in [selector, listener, wakeup, wakeup_writer]:
                        resource.close()
                    for client in [connection, *running.values()]:
                        client.close()
                    script, tool = tools[request.name]
                    enter(request, script)
                    return tool
                for stream in request.streams:
                    os.close(stream)
                with contextlib.suppress(OSError):  # a client gone: its tool is killed
                    connection.sendall(b"R")
                running[pid] = connection
                selector.register(connection, selectors.EVENT_READ, pid)
            elif key.fileobj is wakeup:
                wakeup.recv(4096)
                reap(running, selector)
            elif key.fileobj == 0:
                if not os.read(0, 4096):
                    for pid in running:
                        os.kill(pid, signal.SIGKILL)
                    while running:
                        os.waitpid(running.popitem()[0], 0)
                    return None
            else:  # a client went away (killed): so does its tool
                selector.unregister(key.fileobj)
                os.kill(key.data, signal.SIGKILL)


def reap(running: dict[int, socket.socket], selector: selectors.BaseSelector) -> None:
    """Tell the clients of the children that ended how they ended."""
    while running:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            return
        client = running.pop(pid)
        if client.fileno() in selector.get_map():
            selector.unregister(client)
        with contextlib.suppress(OSError):  # a client gone
            client.sendall(str(os.waitstatus_to_exitcode(status)).encode())
        client.close()


def preload() -> None:
    """Import the plug-ins of `PRELOADED_GROUPS`, so that each child starts
    with them imported. Importing is all it does: a plug-in's work (a
    target's platform, LLVM's initialization) stays with the run that asks
    for it. One that fails to import is skipped: Python forgets a failed
    import, so the run that uses it imports it again and reports why."""
    points = entry_points()
    for group in sorted(points.groups):
        if PRELOADED_GROUPS.fullmatch(group):
            for point in points.select(group=group):
                with contextlib.suppress(Exception):
                    point.load()


def main() -> None:
    """`python -P -m xlir.testing.tool_server SOCKET (NAME SCRIPT ENTRY)...`"""
    address, *specs = sys.argv[1:]
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(64)
    os.write(1, b"listening\n")  # clients queue while the tools import
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    tools = {
        name: (script, EntryPoint(name, entry, "console_scripts").load())
        for name, script, entry in zip(
            specs[::3], specs[1::3], specs[2::3], strict=True
        )
    }
    preload()
    gc.freeze()  # the children's collections leave the imported objects' pages shared
    tool = serve(listener, tools)
    if tool is not None:
        raise SystemExit(tool())  # as the console script's sys.exit(main())


if __name__ == "__main__":
    main()
