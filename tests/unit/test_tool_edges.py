"""The tools at their edges (issue 29, defect 5): a reader of stdout that
goes away, running out of memory, `.npz` files that are not what they
should be, outputs that cannot be written. Each ends quietly or in one
diagnostic, never a traceback or an `internal error`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from xlir.tools.run import main as run_main

from tests.conftest import CORPUS

SOFTMAX = CORPUS / "small" / "softmax_rows.mlir"

ADD = """func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""

HUGE = """func.func @main(%arg0: tensor<1000000x1000000xf32>) -> tensor<1000000x1000000xf32> {
  return %arg0 : tensor<1000000x1000000xf32>
}
"""


def _into_closed_pipe(*argv: str) -> subprocess.CompletedProcess[bytes]:
    """Run a tool whose stdout is a pipe nobody reads any more."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, *argv], stdout=write, stderr=subprocess.PIPE, timeout=300
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "argv",
    [
        ("-m", "xlir.tools.opt", str(SOFTMAX), "-p", "cse,dce", "--print-ir-after-all"),
        ("-m", "xlir.tools.run", str(SOFTMAX), "--random"),
    ],
    ids=["xlir-opt", "xlir-run"],
)
def test_closed_stdout_ends_quietly_as_sigpipe_does(argv) -> None:
    result = _into_closed_pipe(*argv)
    assert result.stderr == b""
    assert result.returncode == 128 + signal.SIGPIPE


def _run(capsys, *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        run_main(list(argv))
    return int(info.value.code or 0), capsys.readouterr().err


def test_out_of_memory_is_a_diagnostic(capsys, tmp_path) -> None:
    path = tmp_path / "huge.mlir"
    path.write_text(HUGE)
    code, err = _run(capsys, str(path), "--random")
    assert code == 1
    assert err.startswith("xlir-run: error: out of memory: Unable to allocate")
    assert "internal error" not in err


@pytest.fixture
def add_file(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    return path


def test_inputs_not_an_npz(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    path.write_text("arg0 = 1, 2, 3")
    code, err = _run(capsys, str(add_file), "--inputs", str(path))
    assert code == 1
    assert f"input file {path} is neither an .npz (a zip of arrays) nor an .npy" in err


def test_inputs_a_folder(capsys, add_file, tmp_path) -> None:
    code, err = _run(capsys, str(add_file), "--inputs", str(tmp_path))
    assert code == 1
    assert f"cannot read input file {tmp_path}: Is a directory" in err


def test_inputs_of_objects(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.array([object()] * 3, dtype=object))
    code, err = _run(capsys, str(add_file), "--inputs", str(path))
    assert code == 1
    assert f"cannot read array 'arg0' of {path}: Object arrays cannot be loaded" in err


def test_npz_entry_that_is_not_an_array(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("arg0.npy", b"not an array")
    code, err = _run(capsys, str(add_file), "--inputs", str(path))
    assert code == 1
    assert f"'arg0' in {path} is not an .npy array" in err


def test_output_written_where_asked(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "outputs.bin"  # no `.npz` added
    code, _ = _run(capsys, str(add_file), "--random", "--output", str(path))
    assert code == 0
    assert np.load(path).files == ["out0"]


def test_output_that_cannot_be_written(capsys, add_file, tmp_path) -> None:
    code, err = _run(capsys, str(add_file), "--random", "--output", str(tmp_path))
    assert code == 1
    assert f"xlir-run: error: cannot write {tmp_path}: Is a directory" in err


def test_negative_seed(capsys, add_file) -> None:
    code, err = _run(capsys, str(add_file), "--random", "--seed", "-1")
    assert code == 1
    assert "xlir-run: error: --seed must be non-negative, not -1" in err


def test_input_that_is_not_text(capsys, tmp_path) -> None:
    path = tmp_path / "model.mlir"
    path.write_bytes(b"func.func @main() {\n  \x89\n}\n")
    code, err = _run(capsys, str(path))
    assert code == 1
    assert f"{path}:2:3: error: the input is not UTF-8 text (byte 0x89)" in err
