"""Q4 held to what xlir asks of every target (`xlir.testing.target_conformance`):
the runtime contract, and the corpus programs it runs giving JAX's outputs.
Run it with the package installed: `pytest examples/new_target/tests`
(XLIR_CORPUS: the corpus folder, default ../shared/corpus beside xlir)."""

import os
from pathlib import Path

from xlir.testing.target_conformance import *  # noqa: F403

TARGETS = ["qdsp"]
SHARED = Path(__file__).resolve().parents[3].parent / "shared"
CORPUS = Path(os.environ.get("XLIR_CORPUS", SHARED / "corpus"))
CORPUS_PROGRAMS = ["gelu", "fma_xyz", "chain10", "softmax_rows", "layernorm"]
CORPUS_PROGRAMS += ["reductions", "compare_select"]  # six it runs, one it refuses
