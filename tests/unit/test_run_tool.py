"""xlir-run: each error case ends in a diagnostic on stderr and exit 1."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from xlir.tools.compare import Tolerance, compare
from xlir.tools.run import main

from tests.conftest import CORPUS

F32 = Tolerance(rtol=1e-4, atol=1e-5)

ADD = """func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""

CHECKS = """func.func @good() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.add %0, %0 : tensor<2xi32>
  check.expect_eq_const %1, dense<[2, 4]> : tensor<2xi32>
  func.return
}

// -----

func.func @bad() {
  %0 = stablehlo.constant dense<1.5> : tensor<f32>
  check.expect_almost_eq_const %0, dense<2.5> : tensor<f32>
  func.return
}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err


@pytest.fixture
def add_file(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    return path


@pytest.fixture
def add_inputs(tmp_path):
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.ones(3, np.float32), arg1=np.arange(3, dtype=np.float32))
    return path


def test_run_prints_outputs_and_time(capsys, add_file, add_inputs, tmp_path) -> None:
    out = tmp_path / "out.npz"
    code, stdout, _ = run(
        capsys,
        str(add_file),
        "--inputs",
        str(add_inputs),
        "--output",
        str(out),
        "--repeat",
        "3",
    )
    assert code == 0
    assert "out0: tensor<3xf32> = [1. 2. 3.]" in stdout
    assert "time per call:" in stdout and "median of 3" in stdout
    np.testing.assert_array_equal(np.load(out)["out0"], [1, 2, 3])


def test_expected_match_and_mismatch(capsys, add_file, add_inputs, tmp_path) -> None:
    good, bad = tmp_path / "good.npz", tmp_path / "bad.npz"
    np.savez(good, out0=np.array([1, 2, 3], np.float32))
    np.savez(bad, out0=np.array([1, 2, 4], np.float32))
    code, stdout, _ = run(
        capsys, str(add_file), "--inputs", str(add_inputs), "--expected", str(good)
    )
    assert code == 0 and "out0: ok" in stdout and "PASSED" in stdout
    code, stdout, _ = run(
        capsys, str(add_file), "--inputs", str(add_inputs), "--expected", str(bad)
    )
    assert code == 1
    assert "out0: MISMATCH: 1 of 3 elements" in stdout and "max abs err 1" in stdout


def test_random_inputs(capsys, add_file) -> None:
    code, stdout, _ = run(capsys, str(add_file), "--random", "--seed", "3")
    assert code == 0 and "out0: tensor<3xf32>" in stdout


def test_missing_file(capsys) -> None:
    code, _, stderr = run(capsys, "/nonexistent/x.mlir")
    assert code == 1 and "xlir-run: error: no such file: /nonexistent/x.mlir" in stderr


def test_parse_error_has_location(capsys, tmp_path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @main() {\n  %0 = stablehlo.bogus\n  return\n}\n")
    code, _, stderr = run(capsys, str(path))
    assert code == 1 and f"{path}:3:3: error: Operation stablehlo.bogus" in stderr
    assert "Traceback" not in stderr


def test_unsupported_op(capsys, tmp_path) -> None:
    path = tmp_path / "cc.mlir"
    path.write_text(
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n"
    )
    code, _, stderr = run(capsys, str(path), "--random")
    assert code == 1 and f"{path}:2:3: error: 'stablehlo.custom_call'" in stderr


def test_arguments_needed(capsys, add_file) -> None:
    code, _, stderr = run(capsys, str(add_file))
    assert code == 1 and "takes 2 argument(s)" in stderr and "--random" in stderr


def test_missing_input_key(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.ones(3, np.float32), other=np.ones(3))
    code, _, stderr = run(capsys, str(add_file), "--inputs", str(path))
    assert code == 1 and "has no array 'arg1' (keys: arg0, other)" in stderr


def test_missing_input_file(capsys, add_file) -> None:
    code, _, stderr = run(capsys, str(add_file), "--inputs", "/nonexistent.npz")
    assert (
        code == 1 and "cannot read input file /nonexistent.npz: No such file" in stderr
    )


def test_wrong_input_shape(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.ones(4, np.float32), arg1=np.ones(3, np.float32))
    code, _, stderr = run(capsys, str(add_file), "--inputs", str(path))
    assert (
        code == 1
        and "argument arg0: expected shape [3]" in stderr
        and "got [4]" in stderr
    )


def test_wrong_input_dtype(capsys, add_file, tmp_path) -> None:
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.ones(3, np.float32), arg1=np.ones(3, np.int32))
    code, _, stderr = run(capsys, str(add_file), "--inputs", str(path))
    assert code == 1 and "argument arg1: expected dtype float32" in stderr


def test_unknown_target_and_function(capsys, add_file) -> None:
    code, _, stderr = run(capsys, str(add_file), "--target", "nope", "--random")
    assert code == 1 and "unknown target 'nope'" in stderr
    code, _, stderr = run(capsys, str(add_file), "--function", "f", "--random")
    assert code == 1 and "no function @f" in stderr


def test_bad_repeat(capsys, add_file) -> None:
    code, _, stderr = run(capsys, str(add_file), "--random", "--repeat", "0")
    assert code == 1 and "--repeat must be at least 1" in stderr


def test_check_mode(capsys, tmp_path) -> None:
    path = tmp_path / "checks.mlir"
    path.write_text(CHECKS)
    code, stdout, _ = run(capsys, "--check", "--split-input-file", str(path))
    assert code == 1
    assert "PASS @good" in stdout and "FAIL @bad" in stdout
    assert f"{path}:12:3: error: check.expect_almost_eq_const failed" in stdout
    assert "1 passed, 1 failed" in stdout


def test_check_mode_through_a_pipeline(capsys, tmp_path) -> None:
    """The same verdicts after hlo-opt (which folds @good's add), and a
    pipeline that does not parse is a usage error, not a failed test."""
    path = tmp_path / "checks.mlir"
    path.write_text(CHECKS)
    code, stdout, _ = run(
        capsys, "--check", "--split-input-file", "--pipeline", "hlo-opt", str(path)
    )
    assert code == 1
    assert "PASS @good" in stdout and "FAIL @bad" in stdout
    assert "1 passed, 1 failed" in stdout
    code, stdout, stderr = run(
        capsys, "--check", "--pipeline", "no-such-pass", str(path)
    )
    assert code == 1 and "unknown pass(es) 'no-such-pass'" in stderr
    assert "FAIL" not in stdout


def test_check_mode_chunk_error(capsys, tmp_path) -> None:
    path = tmp_path / "checks.mlir"
    path.write_text(
        CHECKS.split("// -----")[0] + "// -----\nfunc.func @x() {\n  %0 = nope\n}\n"
    )
    code, stdout, stderr = run(capsys, "--check", "--split-input-file", str(path))
    assert code == 1 and "PASS @good" in stdout
    # the line is counted in the whole file, not in the chunk
    assert f"{path}:11:1: error: Operation nope" in stderr
    assert "1 chunk(s) with errors" in stdout


def test_corpus_program_with_expected(capsys) -> None:
    program = CORPUS / "small" / "gather_index.mlir"
    data = str(CORPUS / "small" / "gather_index.npz")
    code, stdout, _ = run(
        capsys,
        str(program),
        "--inputs",
        data,
        "--expected",
        data,
        "--rtol",
        "0",
        "--atol",
        "0",
    )
    assert code == 0 and "PASSED" in stdout


def test_console_script_no_traceback(tmp_path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @main( {\n")
    result = subprocess.run(
        [sys.executable, "-m", "xlir.tools.run", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_expected_nan_and_inf_in_the_same_places_match() -> None:
    want = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    ok, verdict = compare(want.copy(), want, F32)
    assert ok, verdict
    got = np.array([np.nan, np.inf, np.inf, 1.0], np.float32)
    ok, verdict = compare(got, want, F32)
    assert not ok and "first at [2]" in verdict
    ok, _ = compare(np.array([1.0, np.inf, -np.inf, 1.0], np.float32), want, F32)
    assert not ok


def test_rank_0_float_outputs_compare() -> None:
    want = np.array(2.5, np.float32)
    assert compare(want.copy(), want, Tolerance())[0]
    ok, verdict = compare(np.array(np.nan, np.float32), want, F32)
    assert not ok and "first at []" in verdict
