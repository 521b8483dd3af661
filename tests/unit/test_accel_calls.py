"""Device-side functions (manual section 8.3): a kernel calls routines of
symbol kind 1 with `call`/`ret`, and runs to the manual's results and exact
cycle count (tests/accel/call.s; the dialect's path is tests/lit/accel/func.mlir)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.objfile import FUNCTION, KERNEL, Symbol
from xlir.targets.accel.simulator import SimulationError, Simulator

SOURCE = (Path(__file__).parent.parent / "accel" / "call.s").read_text()
X, OUT = 1 << 16, (1 << 16) + 128


def _tree_sum(values: np.ndarray) -> np.float32:
    """Section 4.8's reduction order over 16 f32 lanes."""
    while len(values) > 1:
        half = len(values) // 2
        values = values[:half] + values[half:]
    return values[0]


def test_symbols_are_kernel_and_functions() -> None:
    obj = assemble(SOURCE)
    assert obj.symbols == [
        Symbol("norms", 0, 68, 2, KERNEL),
        Symbol("sumsq", 68, 36, 1, FUNCTION),
        Symbol("square", 104, 8, 0, FUNCTION),
    ]


def test_kernel_calling_functions_runs_to_the_manuals_results_and_cycles() -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 16)).astype(np.float32)
    dram = np.zeros(1 << 17, np.uint8)
    dram[X : X + 128] = x.view(np.uint8).ravel()
    simulator = Simulator(assemble(SOURCE), dram)
    profile = simulator.launch("norms", [X, OUT])
    out = dram[OUT : OUT + 8].view(np.float32)
    expected = [_tree_sum(row * row) for row in x]
    assert out.view(np.uint32).tolist() == np.array(expected).view(np.uint32).tolist()
    # By hand (section 6): 4 instructions; dma.ld completes at 4 + 4 + 100 =
    # 108, so dma.wait issues at 108 (t = 109); li a0 (110); each call costs 15:
    # jal, then sumsq's 9 instructions with vredsum.f at 4 cycles (12) and
    # square's 2. Then sw, li, call (142), sw, li, li (145); dma.st of 8 bytes
    # completes at 145 + 1 + 100 = 246, dma.wait issues then, halt at 247.
    assert profile.cycles == 248
    assert profile.instructions == 17 + 2 * 9 + 2 * 2
    assert profile.instructions_by_unit == {
        "scalar": 12 + 2 * 6 + 2 * 1,
        "vector": 2 * 3 + 2 * 1,
        "matrix": 0,
        "dma": 5,
    }
    state = simulator.state
    assert state.x[2] == 0x80000  # sp is callee-saved: back where it started
    assert state.x[1] == 44  # ra: the address after the second call (at 40)


def test_a_function_is_not_launchable() -> None:
    simulator = Simulator(assemble(SOURCE), np.zeros(1 << 17, np.uint8))
    with pytest.raises(ValueError, match="'square' is a function, not a kernel"):
        simulator.launch("square", [])


def test_call_inside_a_hardware_loop_stops_the_launch() -> None:
    """Section 8.3: calls are not allowed inside a hardware-loop body."""
    source = """
    .kernel k, 0
        li t0, 2
        loop t0, end
        call f
    end:
        nop
        halt
    .func f, 0
        ret
    """
    simulator = Simulator(assemble(source), np.zeros(1 << 16, np.uint8))
    with pytest.raises(SimulationError) as info:
        simulator.launch("k", [])
    assert info.value.kind == "LOOP_BODY"
    assert info.value.pc == 8
