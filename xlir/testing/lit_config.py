"""The lit configuration of xlir's FileCheck tests, shared by the project's
own suite (`tests/lit/lit.cfg.py`) and `xlir-lit`, which runs a user's
folder of `// RUN: xlir-opt %s | filecheck %s` files with no config of its
own.

The tools run through a warm fork server (`xlir.testing.tool_server`) for
the length of the lit run, its clients first on the tests' PATH: a RUN line
then costs a fork instead of Python's and xlir's start-up.
`XLIR_LIT_TOOL_SERVER=0` runs the console scripts themselves."""

from __future__ import annotations

import os
import shutil
from typing import Any

import lit.formats

from xlir.testing.tool_server import ToolServer

TOOLS = ("xlir-opt", "xlir-run", "xlir-compile", "xlir-translate", "filecheck")


def configure(config: Any, lit_config: Any, source_root: str) -> None:
    """Tests are the `.mlir` files under `source_root` (but `Inputs/`
    folders), run by lit's shell with xlir's tools on PATH; every pass of
    every pipeline is verified (`XLIR_VERIFY_EACH=1`) unless the
    environment says otherwise; the tools are served warm unless
    `XLIR_LIT_TOOL_SERVER=0`."""
    config.test_format = lit.formats.ShTest()
    config.suffixes = [".mlir"]
    config.excludes = ["Inputs", "Output", "lit.cfg.py"]
    config.test_source_root = source_root
    config.environment["PATH"] = os.environ.get("PATH", "")
    if "PYTHONPATH" in os.environ:  # plug-ins installed into a folder of their own
        config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
    config.environment["PYTHONUNBUFFERED"] = "1"
    config.environment["XLIR_VERIFY_EACH"] = os.environ.get("XLIR_VERIFY_EACH", "1")
    for name in ("XLIR_CACHE", "XLIR_CACHE_DIR"):  # the caller's cache settings
        if name in os.environ:
            config.environment[name] = os.environ[name]
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        lit_config.fatal(
            f"{', '.join(missing)} not found on PATH; install xlir "
            "(`pip install -e .`) and activate its environment"
        )
    if os.environ.get("XLIR_LIT_TOOL_SERVER", "1") != "0":
        config.environment["PATH"] = ToolServer(config.environment).path
