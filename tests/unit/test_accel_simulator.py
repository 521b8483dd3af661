"""The XA-1 simulator's rules beyond the compute instructions: errors (manual section
5.4) with the kernel, pc and instruction named and no partial effect, the cost model
(section 6), hardware loops (4.4), DMA modes and hazards (5), scalar and indexed
memory (4.3, 4.6) and the launch convention (8.2)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.simulator import SimulationError, Simulator

BUFFER = 0x10000


def run(
    body: str,
    dram: np.ndarray | None = None,
    arguments: tuple[int, ...] = (),
    watchdog: int = 1 << 32,
) -> Simulator:
    source = f".kernel k, {len(arguments)}\n{body}\n"
    memory = np.zeros(0x20000, np.uint8) if dram is None else dram
    simulator = Simulator(assemble(source), memory, watchdog=watchdog)
    simulator.profile = simulator.launch("k", list(arguments))  # type: ignore[attr-defined]
    return simulator


def cycles(body: str) -> int:
    """The issue cycle of an instruction after `body`."""
    return run(body + " ; rdcycle s5 ; halt").state.x[31]


def fails(body: str, kind: str, pc: int, **kw) -> SimulationError:
    with pytest.raises(SimulationError) as info:
        run(body, **kw)
    error = info.value
    assert (error.kind, error.pc, error.kernel) == (kind, pc, "k")
    assert f"kernel 'k' at pc {pc:#x}" in str(error)
    return error


# Errors.


def test_illegal_instruction_is_reported_when_executed() -> None:
    error = fails("nop ; .word 0", "ILLEGAL_INSTRUCTION", 4)
    assert error.cycle == 1 and "opcode" in error.cause


@pytest.mark.parametrize(
    ("body", "pc"),
    [
        ("nop", 4),
        ("li t0, 6 ; jalr zero, t0, 0", 6),
        ("j 100", 400),
        ("beq zero, zero, -1", -4),
    ],
)
def test_pc_range(body: str, pc: int) -> None:
    fails(body, "PC_RANGE", pc)


@pytest.mark.parametrize(
    ("body", "kind", "pc"),
    [
        ("lw t0, 2(zero)", "MISALIGNED", 0),
        ("lh t0, 1(zero)", "MISALIGNED", 0),
        ("li t0, 0x7FFFE ; lw t1, 0(t0)", "MISALIGNED", 8),
        ("li t0, 0x7FFFC ; lw t1, 4(t0)", "SPAD_RANGE", 8),
        ("li t0, -4 ; sw t0, 0(t0)", "SPAD_RANGE", 4),
        ("vld v0, 2(zero)", "MISALIGNED", 0),
        ("li t0, 0x7FFC4 ; vst v0, 0(t0)", "SPAD_RANGE", 8),
        ("li t0, 32 ; mmac m0, t0, zero", "MISALIGNED", 4),
        ("li t0, 32 ; mcfg t0, t0 ; mmac m0, zero, zero", "MISALIGNED", 8),
        ("li t0, 0x7FC00 ; mld m0, t0, t0", "SPAD_RANGE", 8),
        ("li t0, 0x7FC40 ; li t1, 64 ; mst m1, t0, t1", "SPAD_RANGE", 12),
        (
            "vidx v1 ; li t0, 1 ; vsplat v2, t0 ; vadd v1, v1, v2 ; vlx v0, t0, v1",
            "MISALIGNED",
            16,
        ),
        ("vidx v1 ; li t0, 0x7FFC4 ; vsx v1, t0, v1", "SPAD_RANGE", 12),
    ],
)
def test_memory_errors(body: str, kind: str, pc: int) -> None:
    fails(body, kind, pc)


def test_dma_checks_at_issue() -> None:
    cfg = (
        "li t0, 2 ; li t1, 64 ; dma.cfg t0, t1, t1, {mode} ; li t2, 16 ; li t3, {d} ; "
    )
    fails(
        cfg.format(mode="f16", d=BUFFER + 1) + "dma.ld zero, t3, t2, 0",
        "MISALIGNED",
        24,
    )
    fails(
        cfg.format(mode="raw", d=0x1FFE0) + "dma.ld zero, t3, t2, 0", "DRAM_RANGE", 24
    )
    fails(
        cfg.format(mode="raw", d=BUFFER) + "li t4, 0x7FFC0 ; dma.st t4, t3, t2, 0",
        "SPAD_RANGE",
        28,
    )
    fails(
        cfg.format(mode="i8", d=BUFFER) + "li t4, 0x7FFC0 ; dma.ld t4, t3, t2, 0",
        "SPAD_RANGE",
        28,
    )
    # One raw row (the copy as slices): the same checks.
    row = "li t0, 1 ; li t1, 64 ; dma.cfg t0, t1, t1, raw ; li t2, 16 ; li t3, {d} ; "
    error = fails(row.format(d=0x1FFF8) + "dma.st zero, t3, t2, 0", "DRAM_RANGE", 24)
    assert "from 0x1fff8 (stride 64)" in error.cause
    error = fails(
        row.format(d=BUFFER) + "li t4, 0x7FFF8 ; dma.ld t4, t3, t2, 0", "SPAD_RANGE", 28
    )
    assert "[0x7fff8, 0x80008)" in error.cause
    dram = np.zeros(0x20000, np.uint8)
    dram[BUFFER : BUFFER + 16] = np.arange(16)
    sim = run(row.format(d=BUFFER) + "li t4, 0x40 ; dma.ld t4, t3, t2, 0 ; halt", dram)
    assert sim.state.spad[0x40:0x50].tolist() == list(range(16))


def test_dma_hazards() -> None:
    load = "li t0, 4 ; li t1, 256 ; dma.cfg t0, t1, t1, raw ; li t2, 64 ; li t3, 0x10000 ; "
    # Four 64-byte rows at 0, 256, 512, 768 are being written.
    fails(load + "dma.ld zero, t3, t2, 0 ; lw t4, 516(zero)", "DMA_HAZARD", 24)
    fails(load + "dma.ld zero, t3, t2, 0 ; vst v0, 780(zero)", "DMA_HAZARD", 24)
    fails(
        load + "dma.ld zero, t3, t2, 0 ; li t4, 768 ; mmac m0, t4, t4", "DMA_HAZARD", 28
    )
    # The gaps between rows, and everything once the tag is waited for, are free.
    run(
        load + "dma.ld zero, t3, t2, 0 ; vst v0, 64(zero) ; lw t4, 960(zero) ; "
        "dma.wait 0 ; vld v0, 0(zero) ; halt"
    )
    # A dma.st footprint may be read, not written; waiting for another tag does not help.
    run(load + "dma.st zero, t3, t2, 0 ; vld v0, 0(zero) ; halt")
    fails(
        load + "dma.st zero, t3, t2, 3 ; dma.wait 2 ; sb zero, 256(zero)",
        "DMA_HAZARD",
        28,
    )


@pytest.mark.parametrize(
    "failing", ["vst v1, 4(t0)", "vsx v1, t0, v1", "li t1, 64 ; dma.ld t0, zero, t1, 0"]
)
def test_an_error_has_no_partial_effect(failing: str) -> None:
    source = f".kernel k, 0\n vidx v1 ; li t0, 0x7FFC4 ; li t2, 4 ; dma.cfg t2, zero, zero, raw ; {failing}"
    simulator = Simulator(assemble(source), np.zeros(0x20000, np.uint8))
    with pytest.raises(SimulationError, match="SPAD_RANGE"):
        simulator.launch("k", [])
    assert not simulator.state.spad.any()


def test_loop_stack_and_loop_body() -> None:
    nested = "li t0, 2 ; " + " ; ".join(f"loop t0, e{i}" for i in range(5)) + " ; nop\n"
    fails(nested + "e0:\ne1:\ne2:\ne3:\ne4:\n nop ; halt", "LOOP_STACK", 20)
    fails("li t0, 2 ; loop t0, end ; nop\nend:\n beq zero, t0, 0", "LOOP_BODY", 12)
    fails("li t0, 2 ; loop t0, end ; j out\nend:\n nop\nout:\n halt", "LOOP_BODY", 8)
    fails(
        "li t0, 2 ; loop t0, end ; beq zero, zero, out ; nop\nend:\n nop\nout:\n halt",
        "LOOP_BODY",
        8,
    )
    fails("li t0, 2 ; loop t0, end ; nop\nend:\n halt", "LOOP_BODY", 12)


def test_watchdog() -> None:
    fails("spin:\n j spin", "WATCHDOG", 0, watchdog=1000)


# Hardware loops.


def test_nested_loops_share_their_end_and_zero_counts_skip() -> None:
    sim = run("""
        li t0, 3 ; li t1, 4 ; li t2, 0
        loop t0, end
        loop t1, end
    end:
        addi t2, t2, 1
        loop zero, end2
        addi t2, t2, 100
    end2:
        addi t2, t2, 1000
        halt""")
    # The zero-count loop skips its whole body, its last instruction included.
    assert sim.state.x[6] == 12
    # 3 li + outer loop + 3 inner loops + 12 addi + loop + halt: iterations cost nothing.
    assert sim.state.t == 3 + 1 + 3 + 12 + 1 + 1


def test_zero_count_loop_counts_for_the_enclosing_loop() -> None:
    sim = run("""
        li t0, 5 ; li t2, 0
        loop t0, end
        addi t2, t2, 1
        loop zero, end
    end:
        addi t2, t2, 100
        halt""")
    assert sim.state.x[6] == 5


def test_an_error_in_a_repeated_loop_body_names_its_instruction() -> None:
    """The fourth iteration's load leaves the scratchpad (a straight-line
    body's later iterations run without the run loop's bookkeeping)."""
    error = fails(
        "li t0, 10 ; lui t1, 7 ; loop t0, end ; addi t1, t1, 16384\nend:\n lw t2, 0(t1)",
        "SPAD_RANGE",
        16,
    )
    assert error.cycle == 3 + 3 * 2 + 1 and error.instruction.startswith("lw")


def test_the_watchdog_stops_a_repeated_loop_body_where_it_passes() -> None:
    error = fails(
        "li t0, 1000 ; loop t0, end ; nop\nend:\n nop", "WATCHDOG", 8, watchdog=100
    )
    assert error.cycle == 101


def test_a_repeated_loop_body_counts_every_instruction() -> None:
    sim = run("li t0, 50 ; li t2, 0 ; loop t0, end ; addi t2, t2, 1\nend:\n nop\nhalt")
    assert sim.state.x[6] == 50
    assert sim.profile.instructions == 2 + 1 + 2 * 50 + 1  # type: ignore[attr-defined]


# Costs (section 6).


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("add t0, t1, t2", 1),
        ("div t0, t1, t2", 8),
        ("remu t0, t1, t2", 8),
        ("vld v0, 0(zero)", 1),
        ("vld v0, 4(zero)", 2),
        ("vst v0, 68(zero)", 2),
        ("vlx v0, zero, v1", 16),
        ("vsx v0, zero, v1", 16),
        ("vdiv v0, v1, v2", 8),
        ("vfsqrt v0, v1", 8),
        ("vredsum.f v0, v1", 4),
        ("vredmin v0, v1", 4),
        ("vfmadd v0, v1, v2, v3", 1),
        ("vcvt.i32.f32 v0, v1", 1),
        ("mzero m0", 1),
        ("mmac m0, zero, zero", 1),
        ("mld m0, zero, zero", 16),
        ("mmac m0, zero, zero ; mmac m1, zero, zero", 17),
        ("mmac m0, zero, zero ; nop ; nop ; mst m0, zero, zero", 32),
        ("mmac m0, zero, zero ; mzero m1", 17),
        ("dma.cfg zero, zero, zero, raw", 1),
        ("dma.wait 3", 1),
        ("li t0, 4096 ; dma.ld zero, zero, t0, 0 ; dma.wait 0", 2 + 128 + 100),
        ("dma.ld zero, zero, zero, 5 ; dma.wait 5", 101),  # empty: latency only
    ],
)
def test_issue_costs(body: str, expected: int) -> None:
    assert cycles(body) == expected


def test_rdcycle_reads_the_issue_cycle() -> None:
    sim = run("nop ; li t0, 7 ; div t1, t0, t0 ; rdcycle t2 ; halt")
    assert sim.state.x[6] == 10


def test_seventeenth_descriptor_waits_for_the_first() -> None:
    body = (
        "li t0, 64 ; " + " ; ".join(["dma.ld zero, zero, t0, 1"] * 17) + " ; rdcycle t1"
    )
    sim = run(body + " ; halt")
    # Descriptor 1 issues at 1: transfer 1..3, completes 103; the 17th issues then.
    assert sim.state.x[5] == 104
    # 86 stalled cycles there, and halt waits 100 for the 17th (transfer 103..105).
    assert sim.profile.stall_cycles == 86 + 100  # type: ignore[attr-defined]


def test_halt_waits_for_the_matrix_unit_and_dma() -> None:
    assert run("mmac m0, zero, zero ; halt").state.t == 16 + 1
    assert run("li t0, 64 ; dma.st zero, zero, t0, 0 ; halt").state.t == 1 + 2 + 100 + 1


# DMA modes (section 5.1).


@pytest.mark.parametrize(
    ("mode", "dram", "spad"),
    [
        (
            "i8",
            np.array([-128, -1, 0, 127], np.int8),
            np.array([-128, -1, 0, 127], np.int32),
        ),
        (
            "u8",
            np.array([255, 1, 0, 128], np.uint8),
            np.array([255, 1, 0, 128], np.int32),
        ),
        (
            "i16",
            np.array([-32768, -1, 7, 32767], np.int16),
            np.array([-32768, -1, 7, 32767], np.int32),
        ),
        (
            "u16",
            np.array([65535, 1, 0, 32768], np.uint16),
            np.array([65535, 1, 0, 32768], np.int32),
        ),
        (
            "f16",
            np.array([0x7E01, 0x0001, 0xFC00, 0x3C00], np.uint16),
            np.array([0x7FC00000, 0x33800000, 0xFF800000, 0x3F800000], np.uint32),
        ),
        (
            "bf16",
            np.array([0xFF81, 0x0001, 0xFF80, 0x3F80], np.uint16),
            np.array([0x7FC00000, 0x00010000, 0xFF800000, 0x3F800000], np.uint32),
        ),
    ],
)
def test_dma_load_widens_and_store_narrows(
    mode: str, dram: np.ndarray, spad: np.ndarray
) -> None:
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + dram.nbytes] = dram.view(np.uint8)
    sim = run(
        f"li t0, 1 ; dma.cfg t0, zero, zero, {mode} ; li t1, 4 ; li t2, 0x10000 ; "
        "dma.ld zero, t2, t1, 0 ; dma.wait 0 ; li t3, 0x10100 ; dma.st zero, t3, t1, 0 ; "
        "halt",
        memory,
    )
    assert sim.state.spad[:16].view(spad.dtype).tolist() == spad.tolist()
    stored = memory[BUFFER + 0x100 : BUFFER + 0x100 + dram.nbytes].view(dram.dtype)
    expected = dram.copy()
    if mode == "f16":
        expected[0] = 0x7E00  # NaN stores as 0x7E00
    if mode == "bf16":
        expected[0] = 0x7FC0
    assert stored.tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("mode", "words", "halves"),
    [
        (
            "f16",
            [0x477FF000, 0x477FE000, 0x33000001, 0xC7800000],
            [0x7C00, 0x7BFF, 0x0001, 0xFC00],
        ),
        (
            "bf16",
            [0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x3F80FFFF],
            [0x3F80, 0x3F82, 0x7F80, 0x3F81],
        ),
    ],
)
def test_dma_store_rounds_to_nearest_even(
    mode: str, words: list[int], halves: list[int]
) -> None:
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 16] = np.array(words, np.uint32).view(np.uint8)
    run(
        "li t0, 16 ; li t1, 0x10000 ; dma.ld zero, t1, t0, 0 ; dma.wait 0 ; "
        f"li t2, 1 ; dma.cfg t2, zero, zero, {mode} ; li t0, 4 ; li t1, 0x10100 ; "
        "dma.st zero, t1, t0, 0 ; halt",
        memory,
    )
    assert memory[BUFFER + 0x100 : BUFFER + 0x108].view(np.uint16).tolist() == halves


def test_strided_descriptor_and_negative_stride() -> None:
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 64] = np.arange(64, dtype=np.uint8)
    run(
        "li t0, 4 ; li t1, 16 ; li t2, -64 ; dma.cfg t0, t1, t2, raw ; li t3, 0x10000 ; "
        "li t4, 192 ; li t5, 8 ; dma.ld t4, t3, t5, 0 ; dma.wait 0 ; "
        "li t0, 1 ; dma.cfg t0, zero, zero, raw ; li t1, 256 ; li t3, 0x10100 ; "
        "dma.st zero, t3, t1, 0 ; halt",
        memory,
    )
    out = memory[BUFFER + 0x100 : BUFFER + 0x200]
    for r in range(4):
        row = out[192 - 64 * r : 192 - 64 * r + 8]
        assert row.tolist() == list(range(16 * r, 16 * r + 8))


def test_overlapping_and_repeated_rows() -> None:
    """A load with DRAM stride 0 repeats one row; a store whose DRAM rows
    overlap (stride 4, 8-byte rows) leaves the later row's bytes (section 5.2)."""
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 8] = np.arange(1, 9, dtype=np.uint8)
    run(
        "li t0, 4 ; li t1, 64 ; dma.cfg t0, zero, t1, raw ; li t3, 0x10000 ; "
        "li t5, 8 ; dma.ld zero, t3, t5, 0 ; dma.wait 0 ; "
        "li t2, 4 ; dma.cfg t0, t2, t1, raw ; vidx v0 ; vst v0, 0(zero) ; "
        "vst v0, 64(zero) ; li t3, 0x10100 ; dma.st zero, t3, t5, 1 ; halt",
        memory,
    )
    # Scratchpad rows 0 and 1 now hold vidx's first lanes, 2 and 3 the loaded bytes.
    expected = np.zeros(20, np.uint8)
    rows = [np.arange(16, dtype=np.uint32).view(np.uint8)[:8]] * 2 + [
        np.arange(1, 9, dtype=np.uint8)
    ] * 2
    for r, row in enumerate(rows):
        expected[4 * r : 4 * r + 8] = row
    assert memory[BUFFER + 0x100 : BUFFER + 0x114].tolist() == expected.tolist()


# Memory instructions and the launch.


def test_scalar_loads_extend() -> None:
    sim = run(
        "li t0, -2 ; sw t0, 0(zero) ; lb t1, 0(zero) ; lbu t2, 0(zero) ; "
        "lh t3, 2(zero) ; lhu t4, 2(zero) ; lw t5, 0(zero) ; halt"
    )
    assert sim.state.x[5:10] == [0xFFFFFFFE, 0xFE, 0xFFFFFFFF, 0xFFFF, 0xFFFFFFFE]


def test_scatter_highest_lane_wins_and_gather() -> None:
    sim = run(
        "vidx v1 ; li t0, 3 ; vsplat v2, t0 ; vand v2, v1, v2 ; li t1, 64 ; "
        "vsx v1, t1, v2 ; vlx v3, t1, v2 ; halt"
    )
    assert sim.state.spad[64:80].view(np.uint32).tolist() == [12, 13, 14, 15]
    assert sim.state.v[3].tolist() == [12, 13, 14, 15] * 4


def test_mmac_transposes_and_reads_operands_at_issue() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((2, 16, 16)).astype(np.float32)
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 2048] = np.concatenate([a.ravel(), b.ravel()]).view(
        np.uint8
    )
    sim = run(
        "li t0, 2048 ; li t1, 0x10000 ; dma.ld zero, t1, t0, 0 ; dma.wait 0 ; "
        "li t2, 1024 ; mmac.tatb m1, zero, t2 ; vst v0, 0(zero) ; mmac.ta m2, zero, t2 ; "
        "li t3, 64 ; mst m1, t0, t3 ; halt",
        memory,
    )
    # m1 = a.T @ b.T, computed before vst zeroed row 0 of a; m2 saw the zeros.
    got = sim.state.spad[2048:3072].view(np.float32).reshape(16, 16)
    assert np.allclose(got, a.T @ b.T, atol=1e-5)
    a[0] = 0
    assert np.allclose(sim.state.matrix.accumulators()[2], a.T @ b, atol=1e-5)


@pytest.mark.parametrize(
    "writer",
    [
        "vidx v0 ; vst v0, 0(zero)",
        "li t5, 99 ; sw t5, 0(zero)",
        "vidx v1 ; vsx v1, zero, v1",
        "li t5, 64 ; li s0, 0x10400 ; dma.ld zero, s0, t5, 2 ; dma.wait 2",
    ],
)
def test_mmac_operands_are_those_at_issue_whatever_writes_them(writer: str) -> None:
    """A write to an operand tile after an mmac issues (a store, a scatter, a
    DMA load) does not change its result; before it, it does."""
    rng = np.random.default_rng(9)
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 2048] = (
        rng.standard_normal(512).astype(np.float32).view(np.uint8)
    )
    load = "li t0, 2048 ; li t1, 0x10000 ; dma.ld zero, t1, t0, 0 ; dma.wait 0 ; li t2, 1024"
    mmac = "mmac m0, zero, t2"
    store = "li t3, 4096 ; li t4, 64 ; mst m0, t3, t4 ; halt"

    def result(body: str) -> list[int]:
        sim = run(f"{load} ; {body} ; {store}", memory.copy())
        return sim.state.spad[4096:5120].view(np.uint32).tolist()

    assert result(f"{mmac} ; {writer}") == result(mmac)
    assert result(f"{writer} ; {mmac}") != result(mmac)


def test_launch_convention_with_more_than_16_arguments() -> None:
    arguments = tuple(range(100, 120))
    sim = run("lw t0, 0(sp) ; lw t1, 12(sp) ; halt", arguments=arguments)
    assert sim.state.x[2] == (0x80000 - 16) // 64 * 64
    assert sim.state.x[10:26] == list(range(100, 116))
    assert (sim.state.x[4], sim.state.x[5]) == (116, 119)
    assert (sim.state.x[1], sim.state.x[3]) == (0, 0)


def test_mmac_sums_in_the_manuals_order_across_batches() -> None:
    """Sequential over k and over consecutive mmacs (not pairwise): with terms
    1, 1e8, -1e8 the sequential sum is 0 (1 + 1e8 rounds to 1e8), any order that
    adds 1e8 and -1e8 first gives 1 per mmac. 70 mmacs: more than one batch of
    pending arithmetic."""
    a = np.zeros((16, 16), np.float32)
    a[:, 0], a[:, 1], a[:, 2] = 1.0, 1e8, -1e8
    b = np.ones((16, 16), np.float32)
    memory = np.zeros(0x20000, np.uint8)
    memory[BUFFER : BUFFER + 2048] = np.concatenate([a.ravel(), b.ravel()]).view(
        np.uint8
    )
    count = 70
    sim = run(
        "li t0, 2048 ; li t1, 0x10000 ; dma.ld zero, t1, t0, 0 ; dma.wait 0 ; "
        f"li t2, 1024 ; li t3, {count} ; loop t3, end\nend:\n mmac m0, zero, t2 ; "
        "li t3, 4096 ; li t4, 64 ; mst m0, t3, t4 ; halt",
        memory,
    )
    expected = np.float32(0)
    for _ in range(count):
        for k in range(16):
            expected = np.float32(expected + np.float32(a[0, k] * b[k, 0]))
    got = sim.state.spad[4096:5120].view(np.float32).reshape(16, 16)
    assert expected == 0.0
    assert (got == expected).all()
    assert sim.profile.mmacs == count  # type: ignore[attr-defined]
