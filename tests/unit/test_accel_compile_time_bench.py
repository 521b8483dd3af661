"""benchmarks/accel_compile_time.py: a row per bench program named, with
both targets' compile times and their ratio, then the summary; a name no
bench program has is a usage error."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import CORPUS
from tests.e2e.jax_corpus_check import script

bench = script("benchmarks/accel_compile_time.py")


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The script sets the cache and thread variables: restored after."""
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is absent")
    monkeypatch.setenv("XLIR_CACHE", "0")
    monkeypatch.setenv("XLIR_CODEGEN_THREADS", "1")


def test_a_named_program_gets_a_row_and_the_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["bench", "--repeat", "1", "fma_xyz_1m"])
    bench.main()
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith("fma_xyz_1m")]
    assert len(rows) == 1
    _, cpu, accel, ratio = rows[0]
    assert float(cpu) > 0 and float(accel) > 0 and ratio.endswith("x")
    assert lines[-2].startswith("median ")
    assert lines[-1].startswith("above 2x: ")


def test_an_unknown_program_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["bench", "no_such_program"])
    with pytest.raises(SystemExit) as exit_info:
        bench.main()
    assert exit_info.value.code == 2
    assert "no_such_program" in capsys.readouterr().err
