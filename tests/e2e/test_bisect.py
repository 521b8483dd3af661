"""`xlir-run --bisect` on a corpus program with a miscompile planted in one
kernel on cpu: it names that kernel (not the later ones that read it), and
its reproducer replays the failure with `xlir-run --expected` alone."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.cpu.planted_miscompile import PLANT_MISCOMPILE
from xlir.tools.run import main

from tests.conftest import CORPUS

PROGRAM = CORPUS / "small" / "layernorm.mlir"
INPUTS = CORPUS / "small" / "layernorm.npz"
WRONG = "fusion.3"
"""The third of layernorm's five kernels on cpu, the sum of squared
deviations (its subtract flipped to an add), which the later ones read."""


def _xlir_run(capsys, *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in argv])
    return int(info.value.code or 0), capsys.readouterr().out


def test_bisect_finds_the_planted_kernel_and_its_reproducer_replays(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv(PLANT_MISCOMPILE, WRONG)
    status, out = _xlir_run(
        capsys, PROGRAM, "--target", "cpu", "--inputs", INPUTS, "--bisect",
        "--reproducer-dir", tmp_path,
    )  # fmt: skip
    assert status == 1, out
    assert "program: MISMATCH on cpu against interpreter" in out
    assert [line.split()[-1] for line in out.splitlines() if "] fusion." in line] == [
        "fusion.1", "fusion.2", "fusion.3",
    ]  # fmt: skip
    assert f"first wrong kernel: {WRONG} (input fusion), kernel 3 of 5" in out
    assert f"{PROGRAM}:10:5" in out  # the subtract's line

    mlir = tmp_path / f"layernorm.{WRONG}.mlir"
    npz = tmp_path / f"layernorm.{WRONG}.npz"
    text = mlir.read_text()
    assert text.count("hlo.fusion") == 1 and f'name = "{WRONG}"' in text
    assert "func.func @main(" in text
    data = np.load(npz)
    assert sorted(data.files) == ["arg0", "arg1", "out0"]
    assert data["arg0"].shape == (64, 1) and data["arg1"].shape == (64, 96)
    assert data["out0"].shape == (64,)

    replay = ("--target", "cpu", "--inputs", npz, "--expected", npz)
    status, out = _xlir_run(capsys, mlir, *replay)
    assert status == 1 and "out0: MISMATCH" in out, out
    monkeypatch.delenv(PLANT_MISCOMPILE)
    status, out = _xlir_run(capsys, mlir, *replay)
    assert status == 0 and "PASSED" in out, out


def test_bisect_of_a_right_compile_blames_no_kernel(tmp_path, capsys):
    status, out = _xlir_run(
        capsys, PROGRAM, "--target", "cpu", "--inputs", INPUTS, "--bisect",
        "--reproducer-dir", tmp_path,
    )  # fmt: skip
    assert status == 0, out
    assert "no kernel differs: 5 kernel(s) agree on cpu against interpreter" in out
    assert not list(tmp_path.iterdir())
