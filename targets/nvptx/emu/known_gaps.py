"""What the nvptx-emu target does not compute yet, with the reason
(`KnownGaps`, targets/target.py)."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

GAPS = KnownGaps()
