"""The XA-1 manual's worked examples (sections 3.5, 7, 10 and 11), written in
assembly under tests/accel/: they assemble to the manual's encodings and run to
the manual's results, cycle counts and statistics."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.objfile import ObjectFile, Symbol
from xlir.targets.accel.simulator import Simulator

EXAMPLES = Path(__file__).parent.parent / "accel"
BASE = 1 << 16


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("add x5, x6, x7", 0x04A63800),
        ("bne t3, t1, -5", 0x54E5FFFB),
        ("loop s5, 4", 0x701F0004),
        ("dma.cfg t0, t1, t2, f16", 0x80042985),
        ("vld v1, 4096(t3)", 0xA0271000),
        ("vredmax.f v7, v8", 0xB8E8000B),
        ("mmac.tb m2, s0, s1", 0xE85AD802),
    ],
)
def test_encoding_examples(text: str, word: int) -> None:
    assert assemble(text).code == [word]


def test_example_a_machine_code_and_object() -> None:
    obj = assemble((EXAMPLES / "vadd4096.s").read_text())
    assert obj.code == [
        int(w, 16)
        for w in [
            "08800001",
            "80040000",
            "08a01000",
            "08c02000",
            "0b400004",
            "840a2800",
            "84ab2800",
            "8c000000",
            "08e00000",
            "a0070000",
            "a0271000",
            "b4400800",
            "a4472000",
            "08e70040",
            "54e5fffb",
            "88cc2801",
            "8c000001",
            "094a1000",
            "096b1000",
            "098c1000",
            "0b5affff",
            "5740fff0",
            "74000000",
        ]
    ]
    data = obj.to_bytes()
    assert len(data) == 217
    assert data[:4] == b"XA1\0"
    header = np.frombuffer(data[8:40], "<u4").tolist()
    # code at 64 (92 bytes), empty rodata at 192, 1 symbol at 192, 9-byte strings at 208
    assert header == [64, 92, 192, 0, 192, 1, 208, 9]
    assert obj.symbols == [Symbol("vadd4096", 0, 92, 3, 0)]
    assert ObjectFile.from_bytes(data) == obj


def _run(source: str, kernel: str, inputs: list[np.ndarray], out_bytes: int):
    """Run `kernel` with its inputs and one output in DRAM; (profile, output bytes)."""
    sizes = [a.nbytes for a in inputs] + [out_bytes]
    addresses = [BASE + sum(sizes[:i]) for i in range(len(sizes))]
    dram = np.zeros(BASE + sum(sizes), np.uint8)
    for address, array in zip(addresses, inputs, strict=False):
        dram[address : address + array.nbytes] = array.view(np.uint8).ravel()
    profile = Simulator(assemble(source), dram).launch(kernel, addresses)
    return profile, dram[addresses[-1] :]


@pytest.mark.parametrize(
    ("chunks", "cycles", "instructions"), [(4, 3910, 1586), (1024, 999430, None)]
)
def test_example_a_runs(chunks: int, cycles: int, instructions: int | None) -> None:
    n = 1024 * chunks
    source = (EXAMPLES / "vadd4096.s").read_text().replace("s0, 4 ", f"s0, {chunks} ")
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal(n, np.float32) for _ in range(2))
    profile, out = _run(source, "vadd4096", [x, y], 4 * n)
    assert profile.cycles == cycles
    assert instructions is None or profile.instructions == instructions
    assert profile.dma_busy_cycles == 1536 * chunks // 4
    assert profile.dram_bytes == 12 * n
    assert round(100 * profile.roofline_utilization(0, n, 12 * n), 1) == 39.3
    assert out.view(np.uint32).tolist() == (x + y).view(np.uint32).tolist()


def test_example_b_matmul() -> None:
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((64, 64), np.float32) for _ in range(2))
    source = (EXAMPLES / "matmul64.s").read_text()
    assert len(assemble(source).code) == 35
    profile, out = _run(source, "matmul64", [a, b], 64 * 64 * 4)
    assert (profile.cycles, profile.instructions, profile.mmacs) == (13655, 887, 64)
    assert round(100 * profile.mac_utilization, 1) == 7.5
    # 16 mzero (1 cycle), 64 mmac and 16 mst (16 cycles each)
    assert profile.matrix_busy_cycles == 16 + 64 * 16 + 16 * 16
    assert (profile.dma_busy_cycles, profile.dram_bytes) == (4608, 147456)
    assert round(100 * profile.roofline_utilization(524288, 0, 49152), 1) == 11.2
    expected = np.zeros((64, 64), np.float32)
    for k in range(64):  # section 4.10's order: one rounding per product and sum
        expected = expected + a[:, k : k + 1] * b[k : k + 1, :]
    assert out.view(np.uint32).tolist() == expected.view(np.uint32).ravel().tolist()
    assert np.allclose(out.view(np.float32).reshape(64, 64), a @ b, atol=1e-5)


@pytest.mark.parametrize(
    ("pairs", "cycles", "dma_busy"), [(2, 2111, 72.8), (512, 414191, 94.9)]
)
def test_double_buffered_add(pairs: int, cycles: int, dma_busy: float) -> None:
    n = 2048 * pairs
    source = (EXAMPLES / "vadd4096_db.s").read_text().replace("t5, 2 ", f"t5, {pairs} ")
    assert len(assemble(source).code) == 50
    rng = np.random.default_rng(3)
    x, y = (rng.standard_normal(n, np.float32) for _ in range(2))
    profile, out = _run(source, "vadd4096_db", [x, y], 4 * n)
    assert profile.cycles == cycles
    assert round(100 * profile.dma_busy, 1) == dma_busy
    assert out.view(np.uint32).tolist() == (x + y).view(np.uint32).tolist()


def matmul64_db() -> str:
    """Section 11.3's program with its assembly-time loops unrolled."""
    lines = [
        ".kernel matmul64_db, 3",
        "li t0, 16 ; li t1, 256 ; li t2, 64",
        "dma.cfg t0, t1, t1, raw",
        "mcfg t1, t1",
        "li t3, 0x4000 ; dma.ld t3, a0, t1, 4",
    ]
    lines += [
        f"li t3, {k * 0x1000} ; addi t4, a1, {k * 4096} ; dma.ld t3, t4, t1, {k}"
        for k in range(4)
    ]
    lines += [
        f"li t3, {0x4000 + i * 0x1000} ; addi t4, a0, {i * 4096} ; dma.ld t3, t4, t1, {4 + i}"
        for i in range(1, 4)
    ]
    lines.append("dma.wait 4 ; mzero m0 ; mzero m1 ; mzero m2 ; mzero m3")
    for k in range(4):
        lines.append(f"dma.wait {k} ; li t3, {0x4000 + k * 64}")
        lines += [f"li t4, {k * 0x1000 + j * 64} ; mmac m{j}, t3, t4" for j in range(4)]
    lines += [
        f"li t3, {0x8000 + j * 64} ; mst m{j}, t3, t1 ; addi t4, a2, {j * 64} ; "
        "dma.st t3, t4, t2, 0"
        for j in range(4)
    ]
    for i in range(1, 4):
        lines.append(f"dma.wait {4 + i}")
        for j in range(4):
            lines.append("mzero m0")
            lines += [
                f"li t3, {0x4000 + i * 0x1000 + k * 64} ; li t4, {k * 0x1000 + j * 64} ; "
                "mmac m0, t3, t4"
                for k in range(4)
            ]
            lines.append(
                f"li t3, {0x8000 + i * 0x1000 + j * 64} ; mst m0, t3, t1 ; "
                f"addi t4, a2, {i * 4096 + j * 64} ; dma.st t3, t4, t2, 0"
            )
    lines.append("halt")
    return "\n".join(lines)


def test_double_buffered_matmul() -> None:
    source = matmul64_db()
    assert len(assemble(source).code) == 313
    rng = np.random.default_rng(4)
    a, b = (rng.standard_normal((64, 64), np.float32) for _ in range(2))
    profile, out = _run(source, "matmul64_db", [a, b], 64 * 64 * 4)
    assert profile.cycles == 2046
    assert round(100 * profile.mac_utilization, 1) == 50.0
    assert round(100 * profile.dma_busy, 1) == 75.1
    assert np.allclose(out.view(np.float32).reshape(64, 64), a @ b, atol=1e-5)
