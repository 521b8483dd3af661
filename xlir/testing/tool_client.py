"""The client of `xlir.testing.tool_server`: what lit runs for `xlir-opt`,
`filecheck`, ... while a server is up. It sends the tool's name, its
arguments, the working folder and the environment, with its standard
streams (as file descriptors), and then ends as the tool's run did: the
same exit status, or death by the same signal.

Where no server takes the request (none listening, or an environment it
does not serve) the process becomes the real console script instead. It
runs once per tool call, so it imports only what it needs from the
standard library (it is started with `python -I -S`)."""

from __future__ import annotations

import os
import socket
import sys
from typing import NoReturn


def request(name: str) -> bytes:
    """The request for tool `name` on this process's command line: fields
    separated by NUL bytes, which no argument or variable can hold."""
    arguments = [os.fsencode(a) for a in sys.argv[1:]]
    environment = [key + b"=" + value for key, value in os.environb.items()]
    fields = [name.encode(), os.getcwdb(), str(len(arguments)).encode()]
    body = b"\0".join(fields + arguments + environment)
    return len(body).to_bytes(4, "big") + body


def end_as(status: int) -> NoReturn:
    """Exit with `status`, or die of signal `-status` where it is negative
    (as `subprocess` reports a signal death)."""
    if status < 0:
        import signal

        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
        status = 128 - status  # a signal that does not end a process
    os._exit(status)


def run(address: str, name: str, script: str) -> NoReturn:
    """Run tool `name` through the server at `address`, or as `script`."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(address)
        data = request(name)
        sent = socket.send_fds(connection, [data], [0, 1, 2])
        connection.sendall(data[sent:])
        answer = connection.recv(1)
    except OSError:
        answer = b""
    if answer != b"R":  # no server, or refused: the console script itself
        os.execv(script, [script, *sys.argv[1:]])
    status = b""
    while chunk := connection.recv(64):
        status += chunk
    if not status:
        sys.stderr.write(f"{name}: the tool server ended while running it\n")
        os._exit(1)
    end_as(int(status))
