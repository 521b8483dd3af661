"""The JIT's runtime objects (the thread pool, the support functions) are
kept on disk next to the compilation cache: compiled by the first process,
read by the next, compiled again when the file is damaged, and never
written with the cache off (`cache.host_object`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from xlir.targets.cpu import cache
from xlir.targets.cpu.thread_runtime import runtime_object


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """An empty cache folder."""
    monkeypatch.setenv("XLIR_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLIR_CACHE", raising=False)
    yield tmp_path


def test_compiled_once_then_read_from_disk(fresh: Path) -> None:
    made: list[bytes] = []

    def make() -> bytes:
        made.append(b"object code")
        return made[-1]

    assert cache.host_object("probe", "host", make) == b"object code"
    assert cache.host_object("probe", "host", make) == b"object code"
    assert len(made) == 1, "the second read the file"
    assert cache.host_object("probe", "other host", make) == b"object code"
    assert len(made) == 2, "another host's object is another file"


def test_damaged_file_is_compiled_again(fresh: Path) -> None:
    cache.host_object("probe", "host", lambda: b"object code")
    (path,) = fresh.glob("probe-*")
    for damaged in (b"", b"short", path.read_bytes()[:-1] + b"!"):
        path.write_bytes(damaged)
        assert (
            cache.host_object("probe", "host", lambda: b"fresh code") == b"fresh code"
        )
        assert cache.host_object("probe", "host", lambda: b"unused") == b"fresh code"


def test_nothing_written_with_the_cache_off(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    assert cache.host_object("probe", "host", lambda: b"code") == b"code"
    assert list(fresh.iterdir()) == []


def test_thread_pool_object_is_kept(fresh: Path) -> None:
    runtime_object.cache_clear()
    try:
        code = runtime_object()
        (path,) = fresh.glob("thread-pool-*")
        assert code and path.read_bytes()[32:] == code
    finally:
        runtime_object.cache_clear()
