"""The processes tests start write the bytecode of what they import
(tests/conftest.py `write_bytecode`), so that the next tool run does not
compile xlir's sources again, whatever PYTHONDONTWRITEBYTECODE says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """\
import sys, importlib.util, xlir
print(sys.dont_write_bytecode, importlib.util.cache_from_source(xlir.__file__))
"""


def test_started_processes_write_bytecode() -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    dont_write, bytecode = run.stdout.split()
    assert dont_write == "False"
    assert Path(bytecode).is_file()
