"""XA-1's DMA descriptors (manual section 5): the checks at issue, the copy with its
conversion mode, the footprint that the hazard rules check compute accesses
against, and the channel timing of section 6.3."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from xlir.targets.accel.lanes import CANONICAL_NAN

SPAD_SIZE = 512 * 1024
LATENCY = 100
BEAT = 32

ELEMENT_BYTES = (1, 1, 1, 2, 2, 2, 2)
"""DRAM element size e_d by mode code (raw, i8, u8, i16, u16, f16, bf16)."""


class DmaError(Exception):
    def __init__(self, kind: str, cause: str):
        super().__init__(cause)
        self.kind = kind


class Rows(NamedTuple):
    """ROWS rows of `size` bytes at `base + r * stride` (stride signed); a
    tuple, since the simulator makes two per descriptor."""

    base: int
    stride: int
    count: int
    size: int

    def span(self) -> tuple[int, int]:
        """The lowest and one past the highest byte address, without wrapping."""
        last = self.base + (self.count - 1) * self.stride
        return min(self.base, last), max(self.base, last) + self.size

    def overlaps(self, low: int, high: int) -> bool:
        """Whether any row meets the bytes [low, high)."""
        if self.count == 0 or self.size == 0:
            return False
        first, end = self.span()
        if high <= first or end <= low:
            return False
        if self.count == 1 or self.stride == 0:
            return True
        base, stride = self.base, self.stride
        if stride < 0:
            base, stride = base + (self.count - 1) * stride, -stride
        # Rows r with base + r*stride < high and base + r*stride + size > low.
        last = min(self.count - 1, (high - 1 - base) // stride)
        first_row = max(0, (low - base - self.size) // stride + 1)
        return first_row <= last

    def starts(self, modulus: int) -> NDArray[np.int64]:
        return (
            self.base + np.arange(self.count, dtype=np.int64) * self.stride
        ) % modulus


@dataclass
class Descriptor:
    load: bool
    tag: int
    footprint: Rows
    """The scratchpad bytes of its rows."""
    completion: int
    low: int = field(init=False)
    high: int = field(init=False)
    """The footprint's span [low, high) (empty for an empty descriptor): most
    accesses it is checked against miss the span."""

    def __post_init__(self) -> None:
        empty = self.footprint.count == 0 or self.footprint.size == 0
        self.low, self.high = (0, 0) if empty else self.footprint.span()


def _signed(value: int) -> int:
    return value - (1 << 32) if value >> 31 else value


def check_and_copy(
    load: bool,
    spad: NDArray[np.uint8],
    dram: NDArray[np.uint8],
    s: int,
    d: int,
    cols: int,
    rows: int,
    dstride: int,
    sstride: int,
    mode: int,
) -> tuple[Rows, int]:
    """Check a descriptor as it issues (section 5.1), perform its copy, and return
    its footprint and its DRAM bytes per row."""
    e_d = ELEMENT_BYTES[mode]
    e_s = 1 if mode == 0 else 4
    dstride, sstride = _signed(dstride), _signed(sstride)
    if mode and (d % e_d or dstride % e_d or s % 4 or sstride % 4):
        raise DmaError(
            "MISALIGNED",
            f"mode {mode}: DRAM address {d:#x} / stride {dstride} must be multiples of "
            f"{e_d}, scratchpad address {s:#x} / stride {sstride} multiples of 4",
        )
    if rows == 0 or cols == 0:
        return Rows(s, sstride, 0, 0), cols * e_d
    if rows == 1 and mode == 0:
        return _copy_row(load, spad, dram, s, d, cols, sstride, dstride), cols
    spad_rows = Rows(s, sstride, rows, cols * e_s)
    dram_rows = Rows(d, dstride, rows, cols * e_d)
    low, high = spad_rows.span()
    if low < 0 or high > SPAD_SIZE:
        raise DmaError(
            "SPAD_RANGE", f"scratchpad rows [{low:#x}, {high:#x}) leave the scratchpad"
        )
    dram_size = len(dram)
    low, high = dram_rows.span()
    if low < 0 or high > 1 << 32:
        starts = dram_rows.starts(1 << 32)
        inside = bool(np.all(starts + dram_rows.size <= dram_size))
    else:
        inside = high <= dram_size
    if not inside:
        raise DmaError(
            "DRAM_RANGE",
            f"DRAM rows from {d:#x} (stride {dstride}) leave the {dram_size}-byte DRAM",
        )
    source, target = (dram_rows, spad_rows) if load else (spad_rows, dram_rows)
    source_memory, target_memory = (dram, spad) if load else (spad, dram)
    data = _gather(source_memory, source)
    data = _widen(data, mode) if load else _narrow(data, mode)
    _scatter(target_memory, target, data)
    return spad_rows, cols * e_d


def _copy_row(
    load: bool,
    spad: NDArray[np.uint8],
    dram: NDArray[np.uint8],
    s: int,
    d: int,
    size: int,
    sstride: int,
    dstride: int,
) -> Rows:
    """`check_and_copy` for one raw row (a scalar or a vector bounced through
    DRAM, a contiguous buffer): its checks and copy as slices."""
    if s + size > SPAD_SIZE:
        raise DmaError(
            "SPAD_RANGE",
            f"scratchpad rows [{s:#x}, {s + size:#x}) leave the scratchpad",
        )
    if d + size > len(dram):
        raise DmaError(
            "DRAM_RANGE",
            f"DRAM rows from {d:#x} (stride {dstride}) leave the {len(dram)}-byte DRAM",
        )
    if load:
        spad[s : s + size] = dram[d : d + size]
    else:
        dram[d : d + size] = spad[s : s + size]
    return Rows(s, sstride, 1, size)


def _indices(rows: Rows, modulus: int) -> NDArray[np.int64]:
    return rows.starts(modulus)[:, None] + np.arange(rows.size, dtype=np.int64)


def _view(memory: NDArray[np.uint8], rows: Rows) -> NDArray[np.uint8] | None:
    """The rows as a strided view of `memory`, where they lie inside it without
    wrapping around 2^32 (None otherwise)."""
    low, high = rows.span()
    if low < 0 or high > len(memory):
        return None
    shape, strides = (rows.count, rows.size), (rows.stride, 1)
    return np.ndarray(shape, np.uint8, memory, rows.base, strides)


def _gather(memory: NDArray[np.uint8], rows: Rows) -> NDArray[np.uint8]:
    view = _view(memory, rows)
    return view if view is not None else memory[_indices(rows, 1 << 32)]


def _scatter(memory: NDArray[np.uint8], rows: Rows, data: NDArray[np.uint8]) -> None:
    """Write rows in order: where rows overlap, later rows win (section 5.2)."""
    if abs(rows.stride) >= rows.size:
        view = _view(memory, rows)
        if view is not None:
            view[...] = data
        else:
            memory[_indices(rows, 1 << 32)] = data
        return
    for r, start in enumerate(rows.starts(1 << 32).tolist()):
        memory[start : start + rows.size] = data[r]


def _widen(data: NDArray[np.uint8], mode: int) -> NDArray[np.uint8]:
    """DRAM format to 32-bit scratchpad lanes (table 5.1, load)."""
    if mode == 0:
        return data
    n = data.shape[0]
    if mode in (1, 2):
        words = (data.view(np.int8) if mode == 1 else data).astype(np.int32)
    elif mode in (3, 4):
        words = data.view("<i2" if mode == 3 else "<u2").astype(np.int32)
    elif mode == 5:
        halves = data.view("<f2")
        words = halves.astype(np.float32).view(np.int32)
        words[halves != halves] = CANONICAL_NAN
    else:
        bits = data.view("<u2").astype(np.uint32)
        words = (bits << 16).view(np.int32)
        words[((bits & 0x7F80) == 0x7F80) & ((bits & 0x7F) != 0)] = CANONICAL_NAN
    return words.astype("<i4").view(np.uint8).reshape(n, -1)


def _narrow(data: NDArray[np.uint8], mode: int) -> NDArray[np.uint8]:
    """32-bit scratchpad lanes to DRAM format (table 5.1, store)."""
    if mode == 0:
        return data
    n = data.shape[0]
    words = np.ascontiguousarray(data).view("<u4")
    if mode in (1, 2):
        out = words.astype(np.uint8)
    elif mode in (3, 4):
        out = words.astype("<u2")
    elif mode == 5:
        floats = words.view("<f4")
        out = floats.astype("<f2").view("<u2")
        out[floats != floats] = 0x7E00
    else:
        rounded = (words + 0x7FFF + ((words >> 16) & 1)) >> 16
        nan = ((words & 0x7F800000) == 0x7F800000) & ((words & 0x7FFFFF) != 0)
        out = np.where(nan, 0x7FC0, rounded).astype("<u2")
    return out.view(np.uint8).reshape(n, -1)


def transfer_cycles(rows: int, row_bytes: int) -> int:
    """T = ROWS * ceil(COLS * e_d / 32) (section 6.3)."""
    return rows * -(-row_bytes // BEAT)
