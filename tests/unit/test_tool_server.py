"""The lit suite's tool server (`xlir.testing.tool_server`): a tool run
through it ends as the console script's own run does (output, diagnostics,
exit status, signal death), with the client's folder, streams and
environment; and it stops with the process that started it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from xlir.testing.tool_server import ToolServer, served_tools

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "xlir" / "examples" / "softmax_rows.mlir"
)
ENVIRONMENT = {
    "PATH": os.environ["PATH"],
    "HOME": os.environ.get("HOME", "/"),
    "PYTHONUNBUFFERED": "1",
    "XLIR_VERIFY_EACH": "1",
}
CONSOLE_SCRIPT = "#!/bin/sh\necho console script\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolServer]:
    """A server of the real tools and of two stand-ins: `abort` (dies of
    SIGABRT) and `blank` (prints an empty line, where its console script
    says `console script`)."""
    folder = tmp_path_factory.mktemp("scripts")
    script = folder / "blank"
    script.write_text(CONSOLE_SCRIPT)
    script.chmod(0o755)
    tools = {
        **served_tools(ENVIRONMENT["PATH"]),
        "abort": (str(script), "os:abort"),
        "blank": (str(script), "builtins:print"),
    }
    started = ToolServer(ENVIRONMENT, tools)
    yield started
    started.stop()


def run(
    command: list[str], cwd: Path, environment: dict[str, str], stdin: bytes = b""
) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        command, cwd=cwd, env=environment, input=stdin, capture_output=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


CASES = {
    "help": (["xlir-opt", "--help"], b""),
    "relative path": (["xlir-opt", "small.mlir", "-p", "hlo-opt"], b""),
    "stdin": (["xlir-opt", "-"], EXAMPLE.read_bytes()),
    "missing file": (["xlir-opt", "missing.mlir"], b""),
    "diagnostic": (["xlir-opt", "bad.mlir"], b""),
    "filecheck passes": (["filecheck", "small.mlir"], b"// CHECK: func\n"),
    "filecheck fails": (["filecheck", "small.mlir"], b"// CHECK: nothing like it\n"),
    "run refused": (["xlir-run", "small.mlir", "--random", "--repeat", "0"], b""),
    "list targets": (["xlir-run", "--list-targets"], b""),
}


@pytest.mark.parametrize("case", list(CASES))
def test_as_console_script(server: ToolServer, tmp_path: Path, case: str) -> None:
    """The same status, stdout and stderr as the console script itself."""
    (tmp_path / "small.mlir").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "bad.mlir").write_text("func.func @f() {\n  %0 = nonsense\n}\n")
    command, stdin = CASES[case]
    direct = run(command, tmp_path, ENVIRONMENT, stdin)
    served = run(command, tmp_path, {**ENVIRONMENT, "PATH": server.path}, stdin)
    assert served == direct
    assert shutil.which(command[0], path=server.path) != shutil.which(command[0])


def test_signal_death(server: ToolServer, tmp_path: Path) -> None:
    status, _, _ = run(["abort"], tmp_path, {**ENVIRONMENT, "PATH": server.path})
    assert status == -signal.SIGABRT


@pytest.mark.parametrize(
    ("variable", "output"),
    [(None, b"\n"), ("XLIR_ANYTHING", b"\n"), ("PYTHONHASHSEED", b"console script\n")],
)
def test_environment(
    server: ToolServer, tmp_path: Path, variable: str | None, output: bytes
) -> None:
    """Served where only variables read when used differ (`XLIR_*`);
    otherwise the console script runs."""
    environment = {**ENVIRONMENT, "PATH": server.path}
    if variable:
        environment[variable] = "0"
    assert run(["blank"], tmp_path, environment) == (0, output, b"")


def test_stop() -> None:
    started = ToolServer(ENVIRONMENT, {})
    started.stop()
    assert started.process.returncode == 0
    assert not started.folder.exists()
