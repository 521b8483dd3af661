"""lit configuration: FileCheck tests for xlir's dialects, passes and tools.

The tools (`xlir-opt`, `filecheck`) are found on PATH, i.e. in the environment
the project was installed into.
"""

import os
import shutil

import lit.formats

config.name = "xlir"  # noqa: F821
config.test_format = lit.formats.ShTest()  # noqa: F821
config.suffixes = [".mlir"]  # noqa: F821
config.excludes = ["Inputs", "lit.cfg.py"]  # noqa: F821
config.test_source_root = os.path.dirname(__file__)  # noqa: F821
config.environment["PATH"] = os.environ.get("PATH", "")  # noqa: F821
config.environment["PYTHONUNBUFFERED"] = "1"  # noqa: F821
# Verify the IR after every pass of xlir-run's and xlir-compile's pipelines too
# (xlir-opt does by default), so a pass that breaks the IR is named.
config.environment["XLIR_VERIFY_EACH"] = os.environ.get("XLIR_VERIFY_EACH", "1")  # noqa: F821
config.substitutions.append(  # noqa: F821
    (
        "%corpus",
        os.path.abspath(
            os.path.join(config.test_source_root, "..", "..", "..", "shared", "corpus")
        ),
    )  # noqa: F821
)
for tool in ("xlir-opt", "xlir-run", "xlir-compile", "xlir-translate", "filecheck"):
    if shutil.which(tool) is None:
        lit_config.fatal(f"{tool} not found on PATH; run `pip install -e '.[test]'`")  # noqa: F821
