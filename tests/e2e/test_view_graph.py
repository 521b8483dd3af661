"""`xlir-opt --view-graph` pictures opened in headless Chromium, as a person
would: the page or SVG renders (the screenshot has the boxes' ink and the
refused pairs' red) and its DOM holds every fusion's name. Skipped where
Chromium is absent (CI installs it: scripts/install-view-tools.sh); the
`.svg` and the `.html` drawn by graphviz also need `dot`."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from xlir.tools.opt import main as xlir_opt

PROGRAM = Path(__file__).parent.parent / "lit" / "tools" / "Inputs" / "softmax.mlir"
CHROMIUM = next(
    (
        path
        for name in ("chromium", "chromium-browser", "google-chrome")
        if (path := shutil.which(name))
    ),
    None,
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed"
)
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="graphviz's dot is not installed"
)


def _chromium(*arguments: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", *arguments],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """The rows of an 8-bit RGB or RGBA PNG (what Chromium writes) as RGB
    triples, after undoing each row's filter."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pos, data, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 3 if colour == 2 else 4
    raw, stride, rows = zlib.decompress(data), width * step, []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 :][:stride]),
        )
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = (
                    left if pa <= pb and pa <= pc else up if pb <= pc else corner
                )
                line[x] = (line[x] + predictor) & 255
        rows.append(bytes(b for i, b in enumerate(line) if i % step < 3))
        previous = line
    return width, height, rows


def _fusion_names(printed: str) -> list[str]:
    return re.findall(r'name = "(fusion\.\d+)"', printed)


def _draw(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, list[str]]:
    picture = tmp_path / f"softmax{suffix}"
    with pytest.raises(SystemExit) as exited:
        xlir_opt([str(PROGRAM), "-p", "hlo-opt", f"--view-graph={picture}"])
    assert exited.value.code == 0
    names = _fusion_names(capsys.readouterr().out)
    assert names == ["fusion.1", "fusion.2", "fusion.3"]
    return picture, names


def _check_rendered(picture: Path, names: list[str], tmp_path: Path) -> None:
    url = picture.resolve().as_uri()
    dom = _chromium("--dump-dom", url).stdout
    for name in names:
        assert name in dom
    shot = tmp_path / "shot.png"
    _chromium(f"--screenshot={shot}", "--window-size=1000,1400", url)
    width, height, rows = _pixels(shot.read_bytes())
    assert (width, height) == (1000, 1400)
    dark = sum(
        1 for row in rows for i in range(0, len(row), 3) if max(row[i : i + 3]) < 100
    )
    red = sum(
        1
        for row in rows
        for i in range(0, len(row), 3)
        if row[i] > 200 and row[i + 1] < 80 and row[i + 2] < 80
    )
    assert dark > 2000, "the boxes' outlines and text are drawn"
    assert red > 50, "the refused pairs are drawn in red"


@needs_chromium
def test_html_without_graphviz_renders(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    picture, names = _draw(tmp_path, ".html", capsys)
    monkeypatch.undo()
    assert "<svg" in picture.read_text()
    _check_rendered(picture, names, tmp_path)


@needs_chromium
@needs_dot
def test_html_drawn_by_graphviz_renders(tmp_path: Path, capsys) -> None:
    picture, names = _draw(tmp_path, ".html", capsys)
    assert "cluster_g0b0" in picture.read_text()  # dot's SVG keeps cluster ids
    _check_rendered(picture, names, tmp_path)


@needs_chromium
@needs_dot
def test_svg_renders(tmp_path: Path, capsys) -> None:
    picture, names = _draw(tmp_path, ".svg", capsys)
    _check_rendered(picture, names, tmp_path)


def test_svg_without_graphviz_is_a_diagnostic(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(SystemExit) as exited:
        xlir_opt([str(PROGRAM), "-p", "hlo-opt", f"--view-graph={tmp_path / 'g.svg'}"])
    assert exited.value.code == 1
    assert "an .svg needs graphviz's `dot` program" in capsys.readouterr().err
