"""One XA-1 device for the host: DRAM with the runtime's allocator (manual section
8.1), loading an object (its rodata copied to DRAM, section 7.3) and launching its
kernels on the simulator (section 8.2), with the program time of section 8.4."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.accel.profile import Profile
from xlir.targets.accel.simulator import Simulator

LAUNCH_OVERHEAD = 1000
"""Cycles of host command processing per launch (section 8.4)."""
FIRST_BUFFER = 0x10000
"""The runtime never allocates addresses below 64 KiB, so 0 is never a buffer."""
ALIGNMENT = 64


@dataclass
class Device:
    dram_size: int = 1 << 30
    dram: NDArray[np.uint8] = field(init=False)
    _free: list[tuple[int, int]] = field(init=False)
    """Free DRAM ranges (address, size), sorted by address."""
    _sizes: dict[int, int] = field(default_factory=dict)
    cycles: int = 0
    """Device time: the program time of section 8.4 over every launch so far."""

    def __post_init__(self) -> None:
        self.dram = np.zeros(self.dram_size, np.uint8)
        self._free = [(FIRST_BUFFER, self.dram_size - FIRST_BUFFER)]

    def allocate(self, size: int) -> int:
        """A 64-byte-aligned DRAM buffer of `size` bytes (first fit)."""
        size = max(ALIGNMENT, -(-size // ALIGNMENT) * ALIGNMENT)
        for i, (address, free) in enumerate(self._free):
            if free >= size:
                self._free[i : i + 1] = (
                    [(address + size, free - size)] if free > size else []
                )
                self._sizes[address] = size
                return address
        raise MemoryError(f"no {size} free bytes in the {self.dram_size}-byte DRAM")

    def free(self, address: int) -> None:
        size = self._sizes.pop(address)
        self._free.append((address, size))
        self._free.sort()
        merged: list[tuple[int, int]] = []
        for start, length in self._free:
            if merged and merged[-1][0] + merged[-1][1] == start:
                merged[-1] = (merged[-1][0], merged[-1][1] + length)
            else:
                merged.append((start, length))
        self._free = merged

    def write(self, address: int, data: bytes | NDArray) -> None:
        raw = np.frombuffer(bytes(data), np.uint8) if isinstance(data, bytes) else data
        flat = np.ascontiguousarray(raw).view(np.uint8).ravel()
        self.dram[address : address + flat.size] = flat

    def read(self, address: int, size: int) -> bytes:
        return self.dram[address : address + size].tobytes()

    def load(self, obj: ObjectFile) -> Program:
        gp = 0
        if obj.rodata:
            gp = self.allocate(len(obj.rodata))
            self.write(gp, obj.rodata)
        return Program(self, Simulator(obj, self.dram, gp))


@dataclass
class Program:
    """A loaded object: launches run one after another (section 8.4)."""

    device: Device
    simulator: Simulator
    profiles: list[Profile] = field(default_factory=list)

    def launch(self, kernel: str, arguments: Sequence[int]) -> Profile:
        profile = self.simulator.launch(kernel, arguments)
        self.profiles.append(profile)
        self.device.cycles += LAUNCH_OVERHEAD + profile.cycles
        return profile

    @property
    def cycles(self) -> int:
        """Program time: the sum of 1,000 + C over its launches."""
        return sum(LAUNCH_OVERHEAD + p.cycles for p in self.profiles)
