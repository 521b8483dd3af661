"""XA-1's four matrix accumulators (manual section 4.10), with `mmac` arithmetic
batched: an `mmac` records where its operand tiles are, and the records run,
in issue order, as one native call (`matrix_kernel`) when an accumulator is
next read (`mst`) or replaced (`mzero`, `mld`), when BATCH are pending, or
before anything writes the scratchpad.

Only `mmac` and `mst` read an accumulator, and the scratchpad bytes of a
pending record's tiles are those it saw at issue until something writes the
scratchpad (whose writers call `flush` first), so deferring is unobservable:
it is the manual's "operand buffers" without copying the tiles."""

from __future__ import annotations

from array import array

import numpy as np
from numpy.typing import NDArray
from xlir.targets.accel.matrix_kernel import RECORD, mmac_batch

BATCH = 1024


class MatrixUnit:
    def __init__(self, spad: NDArray[np.uint8]) -> None:
        self._m = np.zeros((4, 16, 16), np.float32)
        self._spad = spad
        self.pending = array("q")
        """The records of the `mmac`s not yet computed (`matrix_kernel.RECORD`
        int64 fields each); empty when none is."""
        self._run = mmac_batch()

    def reset(self) -> None:
        self._m[...] = 0
        del self.pending[:]

    def accumulators(self) -> NDArray[np.float32]:
        """All four accumulators, every pending `mmac` applied."""
        self.flush()
        return self._m

    def read(self, md: int) -> NDArray[np.float32]:
        self.flush()
        return self._m[md]

    def write(self, md: int, tile: NDArray[np.float32] | float) -> None:
        self.flush()
        self._m[md] = tile

    def mmac(
        self, md: int, a: int, a_i: int, a_k: int, b: int, b_k: int, b_j: int
    ) -> None:
        """Queue m[md] += A @ B, A(i, k) the f32 at scratchpad byte a + i*a_i +
        k*a_k, B(k, j) at b + k*b_k + j*b_j (addresses checked at issue)."""
        self.pending.extend((md, a, a_i, a_k, b, b_k, b_j))
        if len(self.pending) >= BATCH * RECORD:
            self.flush()

    def flush(self) -> None:
        """Apply every pending `mmac`, in issue order."""
        if self.pending:
            address, length = self.pending.buffer_info()
            self._run(
                self._m.ctypes.data, self._spad.ctypes.data, address, length // RECORD
            )
            del self.pending[:]
