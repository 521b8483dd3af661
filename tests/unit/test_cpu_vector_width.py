"""The measured vector width is kept on disk next to the compilation cache:
written by the first process, read by the next, measured again when the
file is damaged, and never written with the cache off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from xlir.targets.cpu.vector_width import vector_bits


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty cache folder, and `vector_bits` forgetting what it knew."""
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLIR_CACHE", raising=False)
    vector_bits.cache_clear()
    yield tmp_path
    vector_bits.cache_clear()


def test_measured_once_then_read_from_disk(fresh: Path) -> None:
    measured = vector_bits()
    assert measured in (128, 256, 512)
    (path,) = fresh.glob("vector-bits-*")
    assert path.read_text() == f"{measured}\n"
    other = 128 if measured != 128 else 256
    path.write_text(f"{other}\n")  # what another process would have found
    vector_bits.cache_clear()
    assert vector_bits() == other


def test_damaged_file_is_measured_again(fresh: Path) -> None:
    measured = vector_bits()
    (path,) = fresh.glob("vector-bits-*")
    for damaged in ("", "12x", "384\n"):
        path.write_text(damaged)
        vector_bits.cache_clear()
        assert vector_bits() == measured
        assert path.read_text() == f"{measured}\n"


def test_nothing_written_with_the_cache_off(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    assert vector_bits() in (128, 256, 512)
    assert list(fresh.iterdir()) == []
