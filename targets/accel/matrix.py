"""XA-1's four matrix accumulators (manual section 4.10), with `mmac` arithmetic
batched: an `mmac` copies its operand tiles when it issues (the manual's operand
buffers) and its multiply-accumulate is carried out, in issue order, when the
accumulator is next read (`mst`), replaced (`mzero`, `mld`), or 64 are pending.

Only `mmac` and `mst` read an accumulator, so deferring is unobservable; it
turns n `mmac`s into one numpy pass (`lanes.mmac`) instead of n."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from xlir.targets.accel import lanes

BATCH = 64


class MatrixUnit:
    def __init__(self) -> None:
        self._m = np.zeros((4, 16, 16), np.float32)
        self._pending: list[list[tuple[NDArray[np.float32], NDArray[np.float32]]]] = [
            [] for _ in range(4)
        ]

    def reset(self) -> None:
        self._m[...] = 0
        for pending in self._pending:
            pending.clear()

    def accumulators(self) -> NDArray[np.float32]:
        """All four accumulators, every pending `mmac` applied."""
        for md in range(4):
            self.flush(md)
        return self._m

    def read(self, md: int) -> NDArray[np.float32]:
        self.flush(md)
        return self._m[md]

    def write(self, md: int, tile: NDArray[np.float32] | float) -> None:
        self._pending[md].clear()
        self._m[md] = tile

    def mmac(self, md: int, a: NDArray[np.float32], b: NDArray[np.float32]) -> None:
        """Queue m[md] += a @ b; `a` and `b` are copied now."""
        pending = self._pending[md]
        pending.append((np.array(a), np.array(b)))
        if len(pending) == BATCH:
            self.flush(md)

    def flush(self, md: int) -> None:
        pending = self._pending[md]
        if pending:
            lanes.mmac(
                self._m[md],
                np.stack([p[0] for p in pending]),
                np.stack([p[1] for p in pending]),
            )
            pending.clear()
