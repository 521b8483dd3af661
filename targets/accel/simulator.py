"""A cycle-accurate simulator of XA-1 (manual sections 2 to 6 and 8.2).

It runs the binary: each instruction word is decoded once, on its first execution,
into a handler that performs its effect (one numpy call for a vector or matrix
instruction) and advances the timing state of section 6.1. The DMA copy happens
when a descriptor issues (allowed by section 5.2); the hazard rules of section 5.3
make that unobservable to correct programs and stop incorrect ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from xlir.targets.accel.dma import (
    LATENCY,
    SPAD_SIZE,
    Descriptor,
    DmaError,
    check_and_copy,
    transfer_cycles,
)
from xlir.targets.accel.handlers import HALTED, Handler, Stop, build
from xlir.targets.accel.isa import IllegalInstruction, Instruction, Unit, decode
from xlir.targets.accel.matrix import MatrixUnit
from xlir.targets.accel.objfile import KERNEL, ObjectFile
from xlir.targets.accel.profile import Profile

MASK = 0xFFFFFFFF
MAX_DESCRIPTORS_IN_PROGRESS = 16
MAX_LOOPS = 4
FLOAT_FLOPS = {
    "vfadd": 16,
    "vfsub": 16,
    "vfmul": 16,
    "vfdiv": 16,
    "vfmin": 16,
    "vfmax": 16,
    "vfsqrt": 16,
    "vfmadd": 32,
    "vredsum.f": 15,
    "vredmax.f": 15,
    "vredmin.f": 15,
}
"""Floating-point operations a vector instruction performs (for the profile)."""
MMAC_FLOPS = 2 * 16 * 16 * 16
CONTROL = frozenset(
    {"beq", "bne", "blt", "bge", "bltu", "bgeu", "jal", "jalr", "loop", "halt"}
)
"""The instructions that choose the next pc."""


class SimulationError(Exception):
    """An error of section 5.4: the launch stops."""

    def __init__(
        self, kind: str, kernel: str, pc: int, cycle: int, instruction: str, cause: str
    ):
        super().__init__(
            f"{kind} in kernel '{kernel}' at pc {pc:#x} ({instruction}), cycle {cycle}: "
            f"{cause}"
        )
        self.kind = kind
        self.kernel = kernel
        self.pc = pc
        self.cycle = cycle
        self.instruction = instruction
        self.cause = cause


@dataclass
class LoopEntry:
    start: int
    end: int
    remaining: int


@dataclass
class State:
    """The architectural and timing state of one launch (sections 2 and 6.1)."""

    x: list[int] = field(default_factory=lambda: [0] * 33)
    """x0..x31, and a 33rd slot that writes to x0 go to."""
    v: NDArray[np.uint32] = field(default_factory=lambda: np.zeros((32, 16), np.uint32))
    spad: NDArray[np.uint8] = field(
        default_factory=lambda: np.zeros(SPAD_SIZE, np.uint8)
    )
    matrix: MatrixUnit = field(init=False)
    msa: int = 64
    msb: int = 64
    dma_config: tuple[int, int, int, int] = (1, 0, 0, 0)
    """ROWS, DSTRIDE, SSTRIDE, MODE."""
    loops: list[LoopEntry] = field(default_factory=list)
    loop_end: int = -1
    """The end address of the innermost hardware loop, -1 when none is active."""
    t: int = 0
    mu: int = 0
    chi: int = 0
    completions: list[int] = field(default_factory=list)
    outstanding: list[Descriptor] = field(default_factory=list)
    stalls: int = 0
    dma_busy: int = 0
    matrix_busy: int = 0
    """Cycles the matrix unit is occupied (mzero 1, mmac 16, mld and mst 16)."""
    dram_bytes: int = 0

    def __post_init__(self) -> None:
        self.matrix = MatrixUnit(self.spad)

    def reset(self) -> None:
        """Section 2.8 (the runtime then sets sp, gp and the arguments)."""
        self.x[:] = [0] * 33
        self.v[...] = 0
        self.matrix.reset()
        self.spad[...] = 0
        self.msa = self.msb = 64
        self.dma_config = (1, 0, 0, 0)
        self.loops.clear()
        self.loop_end = -1
        self.t = self.mu = self.chi = 0
        self.completions.clear()
        self.outstanding.clear()
        self.stalls = self.dma_busy = self.matrix_busy = self.dram_bytes = 0

    def issue_at(self, s: int) -> None:
        """Account a stall until cycle s."""
        if s > self.t:
            self.stalls += s - self.t


class Simulator:
    """Runs the kernels of one loaded object against a DRAM."""

    def __init__(
        self,
        obj: ObjectFile,
        dram: NDArray[np.uint8],
        gp: int = 0,
        watchdog: int = 1 << 32,
    ):
        self.obj = obj
        self.dram = dram
        self.gp = gp
        self.watchdog = watchdog
        self.state = State()
        self.code_size = 4 * len(obj.code)
        self._handlers: list[Handler | None] = [None] * len(obj.code)
        self._instructions: list[Instruction | None] = [None] * len(obj.code)
        self._words = self.state.spad.view(np.uint32)
        self._tiles: dict[tuple[int, int], tuple[int, int, int]] = {}
        """Checked tiles by (base, stride): signed stride and row span."""
        self._bodies: dict[tuple[int, int], list[Handler]] = {}
        """Hardware loop bodies by (start, end): their handlers if straight-line
        (`_repeat`), else empty."""

    # Running.

    def launch(self, kernel: str, arguments: Sequence[int]) -> Profile:
        """Section 8.2: set up the state and run `kernel` until `halt`."""
        symbol = self.obj.symbol(kernel)
        if symbol.kind != KERNEL:
            raise ValueError(f"'{kernel}' is a function, not a kernel")
        if len(arguments) != symbol.nargs:
            raise ValueError(
                f"kernel '{kernel}' takes {symbol.nargs} arguments, got {len(arguments)}"
            )
        st = self.state
        st.reset()
        n = len(arguments)
        sp = (0x80000 - 4 * (n - 16)) // 64 * 64 if n > 16 else 0x80000
        words = st.spad.view(np.uint32)
        for i, value in enumerate(arguments):
            if i < 16:
                st.x[10 + i] = value & MASK
            else:
                words[(sp >> 2) + i - 16] = value & MASK
        st.x[2], st.x[3], st.x[1] = sp, self.gp, 0
        executed = [0] * len(self.obj.code)
        old = np.seterr(all="ignore")
        try:
            self._run(kernel, symbol.entry, executed)
        finally:
            st.matrix.accumulators()  # complete the arithmetic of pending mmacs
            np.seterr(**old)
        return self._profile(kernel, executed)

    def _run(self, kernel: str, pc: int, executed: list[int]) -> None:
        st = self.state
        handlers = self._handlers
        size, watchdog = self.code_size, self.watchdog
        while True:
            if pc & 3 or not 0 <= pc < size:
                raise SimulationError(
                    "PC_RANGE",
                    kernel,
                    pc,
                    st.t,
                    "<none>",
                    f"pc {pc:#x} is not a multiple of 4 inside the {size}-byte code",
                )
            index = pc >> 2
            handler = handlers[index] or self._compile(kernel, pc)
            try:
                next_pc = handler()
            except Stop as stop:
                raise SimulationError(
                    stop.kind,
                    kernel,
                    pc,
                    st.t,
                    str(self._instructions[index]),
                    str(stop),
                ) from None
            executed[index] += 1
            if next_pc == HALTED:
                return
            if pc == st.loop_end and next_pc == pc + 4:
                next_pc = self.after_loop_end(pc)
                if next_pc != pc + 4 and st.t <= watchdog:
                    self._repeat(kernel, next_pc, pc, executed)
            if st.t > watchdog:
                raise self._watchdog(kernel, pc)
            pc = next_pc

    def _watchdog(self, kernel: str, pc: int) -> SimulationError:
        return SimulationError(
            "WATCHDOG",
            kernel,
            pc,
            self.state.t,
            str(self._instructions[pc >> 2]),
            f"the launch exceeds {self.watchdog} cycles",
        )

    def _repeat(self, kernel: str, start: int, end: int, executed: list[int]) -> None:
        """All but the last of the remaining iterations of the innermost
        hardware loop [start, end], if its body is straight-line code (no
        branch, jump, loop or halt): its handlers called in order, without
        the run loop's per-instruction bookkeeping (the handlers keep the
        time, so the cycles are the same). The run loop runs the last one,
        which leaves the loop."""
        body = self._bodies.get((start, end))
        if body is None:
            body = self._bodies[start, end] = self._straight_body(start, end)
        top = self.state.loops[-1]
        iterations = top.remaining - 1
        if not body or iterations <= 0:
            return
        st, watchdog = self.state, self.watchdog
        first = start >> 2
        offset = 0
        try:
            for _ in range(iterations):
                for offset, handler in enumerate(body):
                    handler()
                    if st.t > watchdog:
                        raise self._watchdog(kernel, start + 4 * offset)
        except Stop as stop:
            pc = start + 4 * offset
            raise SimulationError(
                stop.kind, kernel, pc, st.t, str(self._instructions[pc >> 2]), str(stop)
            ) from None
        for offset in range(len(body)):
            executed[first + offset] += iterations
        top.remaining = 1

    def _straight_body(self, start: int, end: int) -> list[Handler]:
        """The handlers of [start, end] if every one is compiled and none
        transfers control; else none."""
        handlers: list[Handler] = []
        for index in range(start >> 2, (end >> 2) + 1):
            handler, instruction = self._handlers[index], self._instructions[index]
            if handler is None or instruction is None:
                return []
            if instruction.spec.mnemonic in CONTROL:
                return []
            handlers.append(handler)
        return handlers

    def after_loop_end(self, end: int) -> int:
        """Section 4.4: after the instruction at a loop's end address."""
        st = self.state
        loops = st.loops
        while loops and loops[-1].end == end:
            top = loops[-1]
            top.remaining -= 1
            if top.remaining > 0:
                return top.start
            loops.pop()
            st.loop_end = loops[-1].end if loops else -1
        return end + 4

    def _compile(self, kernel: str, pc: int) -> Handler:
        word = self.obj.code[pc >> 2]
        try:
            instruction = decode(word)
        except IllegalInstruction as e:
            raise SimulationError(
                "ILLEGAL_INSTRUCTION",
                kernel,
                pc,
                self.state.t,
                f".word {word:#010x}",
                str(e),
            ) from None
        handler = build(self, instruction, pc)
        self._instructions[pc >> 2] = instruction
        self._handlers[pc >> 2] = handler
        return handler

    def _profile(self, kernel: str, executed: list[int]) -> Profile:
        st = self.state
        by_unit = dict.fromkeys((u.value for u in Unit), 0)
        mmacs = flops = 0
        for index, count in enumerate(executed):
            if count:
                instruction = self._instructions[index]
                assert instruction is not None
                spec = instruction.spec
                by_unit[spec.unit.value] += count
                if spec.mnemonic.startswith("mmac"):
                    mmacs += count
                    flops += count * MMAC_FLOPS
                flops += count * FLOAT_FLOPS.get(spec.mnemonic, 0)
        return Profile(
            kernel=kernel,
            cycles=st.t,
            instructions=sum(executed),
            instructions_by_unit=by_unit,
            mmacs=mmacs,
            dma_busy_cycles=st.dma_busy,
            matrix_busy_cycles=st.matrix_busy,
            dram_bytes=st.dram_bytes,
            stall_cycles=st.stalls,
            flops=flops,
        )

    # Scratchpad access checks shared by the handlers.

    def check_access(self, address: int, size: int, align: int, write: bool) -> None:
        """Alignment, range and DMA hazards of a compute access (sections 4.3, 5.3)."""
        if address % align:
            raise Stop(
                "MISALIGNED", f"address {address:#x} is not a multiple of {align}"
            )
        if address + size > SPAD_SIZE:
            raise Stop(
                "SPAD_RANGE",
                f"[{address:#x}, {address + size:#x}) is outside the scratchpad",
            )
        if self.state.outstanding:
            self.check_hazard(address, address + size, write)

    def check_hazard(self, low: int, high: int, write: bool) -> None:
        for d in self.state.outstanding:
            if (
                (d.load or write)
                and d.low < high
                and low < d.high
                and d.footprint.overlaps(low, high)
            ):
                raise Stop(
                    "DMA_HAZARD",
                    f"{'writes' if write else 'reads'} [{low:#x}, {high:#x}), in the "
                    f"footprint of an outstanding {'dma.ld' if d.load else 'dma.st'} "
                    f"with tag {d.tag}",
                )

    def tile(self, base: int, stride: int, write: bool) -> tuple[int, int]:
        """Check a matrix tile (section 4.10); its base and signed row stride."""
        checked = self._tiles.get((base, stride))
        if checked is None:
            checked = self._tiles[base, stride] = _tile_bounds(base, stride)
        signed, low, high = checked
        if self.state.outstanding:
            self.check_tile_hazards(base, signed, low, high, write)
        return base, signed

    def check_tile_hazards(
        self, base: int, stride: int, low: int, high: int, write: bool
    ) -> None:
        """Section 5.3 for the 16 rows of a tile: row by row only where an
        outstanding footprint meets the rows' span [low, high)."""
        for d in self.state.outstanding:
            if (d.load or write) and d.footprint.overlaps(low, high):
                for r in range(16):
                    start = base + r * stride
                    self.check_hazard(start, start + 64, write)

    def tile_view(self, tile: tuple[int, int]) -> NDArray[np.uint32]:
        """The 16x16 words of a checked tile, as a view of the scratchpad when its
        stride is positive (a copy otherwise, which only reads may use)."""
        words = self._words
        first, pitch = tile[0] >> 2, tile[1] >> 2
        if pitch >= 16 and first + 16 * pitch <= len(words):
            return words[first : first + 16 * pitch].reshape(16, pitch)[:, :16]
        return words[(first + np.arange(16) * pitch)[:, None] + np.arange(16)]

    def read_tile(self, tile: tuple[int, int]) -> NDArray[np.float32]:
        return self.tile_view(tile).view(np.float32)

    def write_tile(self, tile: tuple[int, int], values: NDArray[np.float32]) -> None:
        """Rows in order: with stride 0 the last row wins."""
        bits = values.view(np.uint32)
        if tile[1] >= 64:
            view = self.tile_view(tile)
            if view.base is not None:
                view[...] = bits
                return
        for r in range(16):
            start = (tile[0] + r * tile[1]) >> 2
            self._words[start : start + 16] = bits[r]

    def issue_descriptor(self, load: bool, s: int, d: int, cols: int, tag: int) -> None:
        """Sections 5.1 and 6.1/6.3 for `dma.ld`/`dma.st`."""
        st = self.state
        rows, dstride, sstride, mode = st.dma_config
        if load:
            st.matrix.flush()  # pending mmacs read the scratchpad as at their issue
        try:
            footprint, row_bytes = check_and_copy(
                load, st.spad, self.dram, s, d, cols, rows, dstride, sstride, mode
            )
        except DmaError as e:
            raise Stop(e.kind, str(e)) from None
        n = len(st.completions) + 1
        start = st.t
        if n > MAX_DESCRIPTORS_IN_PROGRESS:
            start = max(start, st.completions[n - 1 - MAX_DESCRIPTORS_IN_PROGRESS])
        st.issue_at(start)
        transfer = transfer_cycles(rows, row_bytes)
        begin = max(start, st.chi)
        st.chi = begin + transfer
        completion = begin + transfer + LATENCY
        st.completions.append(completion)
        st.outstanding.append(Descriptor(load, tag, footprint, completion))
        st.dma_busy += transfer
        st.dram_bytes += rows * row_bytes
        st.t = start + 1


def _tile_bounds(base: int, stride: int) -> tuple[int, int, int]:
    """Section 4.10's alignment and range of a tile: its signed stride and the
    span [low, high) of its rows."""
    stride = stride - (1 << 32) if stride >> 31 else stride
    if base % 64 or stride % 64:
        raise Stop(
            "MISALIGNED",
            f"tile base {base:#x} or stride {stride} not a multiple of 64",
        )
    last = base + 15 * stride
    low, high = min(base, last), max(base, last) + 64
    if low < 0 or high > SPAD_SIZE:
        raise Stop(
            "SPAD_RANGE", f"tile rows [{low:#x}, {high:#x}) leave the scratchpad"
        )
    return stride, low, high
