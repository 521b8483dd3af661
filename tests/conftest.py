"""Shared test fixtures: where the JAX-exported corpus lives."""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
