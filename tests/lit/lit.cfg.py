"""lit configuration: FileCheck tests for xlir's dialects, passes and tools
(`xlir.testing.lit_config`, which `xlir-lit` shares), and `%corpus`: the
JAX corpus beside the repository; tests that read it say `REQUIRES: shared`
and are unsupported without it.

The tools run through a warm fork server (`xlir.testing.tool_server`) for
the length of this lit run, its clients first on the tests' PATH: a RUN line
then costs a fork instead of Python's and xlir's start-up.
`XLIR_LIT_TOOL_SERVER=0` runs the console scripts themselves."""

import os

from xlir.testing.lit_config import configure
from xlir.testing.tool_server import ToolServer

config.name = "xlir"  # noqa: F821
configure(config, lit_config, os.path.dirname(__file__))  # noqa: F821
config.substitutions.append(  # noqa: F821
    (
        "%corpus",
        os.path.abspath(
            os.path.join(config.test_source_root, "..", "..", "..", "shared", "corpus")  # noqa: F821
        ),
    )
)
if os.path.isdir(config.substitutions[-1][1]):  # noqa: F821
    config.available_features.add("shared")  # noqa: F821
if os.environ.get("XLIR_LIT_TOOL_SERVER", "1") != "0":
    config.environment["PATH"] = ToolServer(config.environment).path  # noqa: F821
