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
        self._a_transposed = np.empty((4, BATCH, 16, 16), np.float32)
        self._b = np.empty((4, BATCH, 16, 16), np.float32)
        self._pending = [0, 0, 0, 0]

    def reset(self) -> None:
        self._m[...] = 0
        self._pending = [0, 0, 0, 0]

    def accumulators(self) -> NDArray[np.float32]:
        """All four accumulators, every pending `mmac` applied."""
        for md in range(4):
            self.flush(md)
        return self._m

    def read(self, md: int) -> NDArray[np.float32]:
        self.flush(md)
        return self._m[md]

    def write(self, md: int, tile: NDArray[np.float32] | float) -> None:
        self._pending[md] = 0
        self._m[md] = tile

    def mmac(
        self, md: int, a_transposed: NDArray[np.float32], b: NDArray[np.float32]
    ) -> None:
        """Queue m[md] += a @ b, given a's transpose; both are copied now."""
        n = self._pending[md]
        self._a_transposed[md, n] = a_transposed
        self._b[md, n] = b
        self._pending[md] = n + 1
        if n + 1 == BATCH:
            self.flush(md)

    def flush(self, md: int) -> None:
        n = self._pending[md]
        if n:
            lanes.mmac(self._m[md], self._a_transposed[md, :n], self._b[md, :n])
            self._pending[md] = 0
