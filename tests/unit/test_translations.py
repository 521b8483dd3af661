"""xlir-translate's registry of translations (targets/translations.py): a
translation added in-process is listed, named by --target and, with a magic,
picked by --disassemble; the accel ones give what xlir-accel gives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from xlir.targets.accel.cli import main as accel_main
from xlir.targets.translations import TRANSLATIONS, Translation, TranslationInput
from xlir.tools.translate import main as translate_main

MAGIC = b"REV1"


def _reversed_lines(source: TranslationInput) -> str:
    return "\n".join(reversed(source.data.decode().splitlines())) + "\n"


def _strip_magic(source: TranslationInput) -> str:
    return source.data[len(MAGIC) :].decode()


@pytest.fixture
def added() -> Iterator[None]:
    TRANSLATIONS.register(
        "reverse-lines", Translation("lines, last first", _reversed_lines)
    )
    TRANSLATIONS.register(
        "rev-disasm", Translation("text after REV1", _strip_magic, reads_magic=MAGIC)
    )
    yield
    TRANSLATIONS.unregister("reverse-lines")
    TRANSLATIONS.unregister("rev-disasm")


def _translate(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        translate_main(argv)
    out, err = capsys.readouterr()
    return int(exit_.value.code or 0), out, err


def test_an_added_translation_is_listed_and_runs(
    added: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, listing, _ = _translate(["--list-translations"], capsys)
    assert status == 0
    assert "reverse-lines" in listing and "lines, last first" in listing
    text = tmp_path / "in.txt"
    text.write_text("one\ntwo\n")
    assert _translate([str(text), "--target", "reverse-lines"], capsys) == (
        0,
        "two\none\n",
        "",
    )


def test_disassemble_picks_the_translation_of_the_magic(
    added: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "in.rev"
    binary.write_bytes(MAGIC + b"hello\n")
    assert _translate(["--disassemble", str(binary)], capsys) == (0, "hello\n", "")
    unknown = tmp_path / "in.bin"
    unknown.write_bytes(b"\x7fELF")
    status, _, err = _translate(["--disassemble", str(unknown)], capsys)
    assert status == 1
    assert "rev-disasm (b'REV1')" in err and "accel-disasm (b'XA1\\x00')" in err


def test_accel_translations_give_what_xlir_accel_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(Path(__file__).parents[1] / "accel" / "call.s")
    by_translate = tmp_path / "translate.xa1"
    by_accel = tmp_path / "accel.xa1"
    assert (
        _translate([source, "--target", "accel-obj", "-o", str(by_translate)], capsys)[
            0
        ]
        == 0
    )
    with pytest.raises(SystemExit):
        accel_main(["obj", source, "-o", str(by_accel)])
    assert by_translate.read_bytes() == by_accel.read_bytes()
    status, disassembly, _ = _translate(["--disassemble", str(by_translate)], capsys)
    assert status == 0 and ".kernel" in disassembly
