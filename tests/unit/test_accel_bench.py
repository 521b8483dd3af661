"""benchmarks/accel.py: a row per program with its cycles and how many times
more the naive pipeline (no matrix unit, no double buffering) takes, whose
outputs are the pipeline's bit for bit (both compute every value in the same
order); `--no-naive` leaves the ratio out."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import CORPUS
from tests.e2e.jax_corpus_check import script

bench = script("benchmarks/accel.py")


def _rows(
    arguments: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, str]:
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} is absent")
    monkeypatch.setattr(sys, "argv", ["bench", "--corpus", "small", *arguments])
    bench.main()
    lines = capsys.readouterr().out.splitlines()
    return {line.split()[0]: line for line in lines}


def test_the_naive_pipeline_multiplies_on_the_lanes_to_the_same_bits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """matmul (96x64 by 64x80) runs on the matrix unit, naive on the lanes."""
    row = _rows(["matmul"], monkeypatch, capsys)["matmul"]
    ratio = row.split("naive")[1].split()[0]
    assert float(ratio.rstrip("x")) > 5
    assert "differ" not in row


def test_no_naive_leaves_the_ratio_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    row = _rows(["--no-naive", "fma_xyz"], monkeypatch, capsys)["fma_xyz"]
    assert "naive   n/a" in row
