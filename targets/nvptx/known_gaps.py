"""What the nvptx target does not compute yet (none known): the corpus
tests compile every program for it, and run it where a GPU is present."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

GAPS = KnownGaps()
