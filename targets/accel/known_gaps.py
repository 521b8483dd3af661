"""What the accel target does not compute yet, by test corpus, with the
reason (`KnownGaps`, targets/target.py)."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

GAPS = KnownGaps()
