"""lit configuration: FileCheck tests for xlir's dialects, passes and tools
(`xlir.testing.lit_config`, which `xlir-lit` shares), and `%corpus`: the
JAX corpus beside the repository; tests that read it say `REQUIRES: shared`
and are unsupported without it. The tools are served warm (`lit_config`:
`XLIR_LIT_TOOL_SERVER=0` runs the console scripts themselves)."""

import os

from xlir.testing.lit_config import configure

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
