"""Shared test fixtures: where the JAX-exported corpus and StableHLO's
interpreter test suite live. Every test runs with the IR verified after each
pass (XLIR_VERIFY_EACH, xlir/pass_manager.py), so a pass that breaks the IR
fails the test that ran it and is named."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("XLIR_VERIFY_EACH", "1")

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"

STABLEHLO_SUITE = CORPUS.parent / "stablehlo_interpret"
