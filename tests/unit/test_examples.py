"""The bundled examples (the README's first command): each compiles on the
cpu target and agrees with its numpy version."""

from __future__ import annotations

import pytest

from xlir.examples import EXAMPLES
from xlir.examples.__main__ import run


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_matches_numpy(name: str, capsys, monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    assert run(name, EXAMPLES[name], repeat=1)
    printed = capsys.readouterr().out
    assert "check:" in printed and ": ok" in printed
    assert "xlir/numpy" in printed
