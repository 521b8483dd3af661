"""xlir/entry_points.py reads the entry points `importlib.metadata` reads:
each case compares the two on what is on `sys.path`, the real environment
and folders of installed packages built here."""

from __future__ import annotations

import os
import zipfile
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from xlir.entry_points import EntryPoint, read_entry_points

View = dict[str, list[tuple[str, str, str]]]


def _importlib_view() -> View:
    found = entry_points()
    return {
        group: [
            (p.name, p.value, p.dist.name if p.dist else "unknown")
            for p in found.select(group=group)
        ]
        for group in found.groups
    }


def _view() -> View:
    return {
        group: [(p.name, p.value, p.package) for p in points]
        for group, points in read_entry_points().items()
    }


def _install(site: Path, folder: str, name: str, entry_points: str | None) -> None:
    """A package's installed metadata folder, as pip or setuptools leave it."""
    info = site / folder
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\n\nabout\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def test_reads_what_importlib_metadata_reads() -> None:
    view = _view()
    assert view == _importlib_view()
    assert ("cse", "xlir.passes.hlo.cse:CSEPass", "xlir") in view["xlir.passes"]


def test_the_first_package_of_a_name_on_the_path_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _install(
        first,
        "toy_plugin-0.2.dist-info",
        "toy-plugin",
        "# a comment\nignored = before:any_group\n\n[xlir.passes]\n"
        "  toy = toy_plugin:Toy  \n[other]\nx=y:z\n",
    )
    _install(
        second, "Toy.Plugin-0.1.dist-info", "Toy.Plugin", "[xlir.passes]\nold = a:B\n"
    )
    first.joinpath("legacy-1.0.egg-info").write_text("Name: legacy\n")  # a file
    _install(second, "legacy-2.0.dist-info", "legacy", "[xlir.passes]\nhidden = a:B\n")
    _install(second, "plain-1.0.egg-info", "plain", "[xlir.passes]\nplain = p:Q\n")
    _install(second, "bare-1.0.dist-info", "bare", None)
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))
    view = _view()
    assert view == _importlib_view()
    passes = [name for name, _, _ in view["xlir.passes"]]
    assert passes[:1] == ["toy"] and "plain" in passes
    assert "old" not in passes and "hidden" not in passes and "ignored" not in passes
    assert ("x", "y:z", "toy-plugin") in view["other"]


def test_a_zip_on_the_path_is_read_through_importlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\n")
        zipped.writestr(
            "zipped-1.0.dist-info/entry_points.txt", "[xlir.passes]\nzipped = z:P\n"
        )
    monkeypatch.syspath_prepend(str(archive))
    view = _view()
    assert view == _importlib_view()
    assert ("zipped", "z:P", "zipped") in view["xlir.passes"]


def test_load_imports_the_named_object() -> None:
    def point(value: str) -> EntryPoint:
        return EntryPoint("name", value, "group", lambda: "package")

    assert point("os.path:join").load() is os.path.join
    assert point("os:path.join [extra]").load() is os.path.join
    assert point("os.path").load() is os.path
    with pytest.raises(ValueError, match="malformed entry point value"):
        point("not a value!").load()
