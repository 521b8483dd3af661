"""XA-1 simulator speed: simulated instructions per minute of CPU time, per
instruction class, on one kernel dominated by each class:

* scalar: a branch loop of integer ALU ops, scalar loads and stores;
* vector: hardware loops of vld/vfmadd/vfadd/vmul/vfmax/vsel/vst and a reduction;
* mmac: back-to-back `mmac`s on the four accumulators;
* DMA: the manual's double-buffered elementwise add of 1M f32 (section 11.2,
  DMA-bound), and a loop of small descriptors with a wait per tag.

Prints, per kernel, the best of several runs: simulated instructions (all, and
of the class) per minute of the process's CPU time (the figure a quiet
machine would show when the machine is shared) and of wall time. The issue's
goal is 20 million vector/matrix instructions per minute.

    python benchmarks/accel_simulator.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.simulator import Simulator

EXAMPLES = Path(__file__).parent.parent / "tests" / "accel"
N = 1 << 20

SCALAR_LOOP = """
.kernel scalar_loop, 0
    li t0, 100000 ; li t1, 0 ; li t2, 7
top:
    add t3, t1, t2 ; xor t4, t3, t0 ; slli t5, t4, 3 ; sltu a0, t5, t3
    sw t3, 64(zero) ; lw a1, 64(zero) ; sub a2, a1, t4 ; andi a3, a2, 255
    addi t1, t1, 1
    bne t1, t0, top
    halt
"""

VECTOR_LOOP = """
.kernel vector_loop, 0
    li t0, 2000 ; li t1, 64 ; li t2, 1
    vsplat v7, t2 ; vcvt.f32.i32 v7, v7
    loop t0, outer
    li t3, 0
    loop t1, inner
    vld v0, 0(t3) ; vfmadd v1, v0, v7, v1 ; vfadd v2, v2, v1 ; vmul v3, v3, v0
    vfmax v4, v4, v1 ; vsel v5, v3, v1, v2 ; vst v1, 4096(t3)
inner:
    addi t3, t3, 64
outer:
    vredsum.f v6, v2
    halt
"""

MATRIX_LOOP = """
.kernel matrix_loop, 0
    li t0, 20000 ; li t1, 1024
    loop t0, end
    mmac m0, zero, t1 ; mmac m1, zero, t1 ; mmac m2, zero, t1
end:
    mmac m3, zero, t1
    halt
"""

DESCRIPTOR_LOOP = """
.kernel descriptor_loop, 1          # a0 = &data (8 x 256 bytes)
    li t0, 4 ; li t1, 256 ; li t2, 64
    dma.cfg t0, t2, t2, raw         # 4 rows of 64 bytes
    li s0, 20000
top:
    dma.ld zero, a0, t2, 0 ; addi t3, a0, 256 ; dma.ld t1, t3, t2, 1
    addi t3, a0, 512 ; li t4, 512 ; dma.ld t4, t3, t2, 2
    addi t3, a0, 768 ; li t4, 768 ; dma.ld t4, t3, t2, 3
    dma.wait 0 ; dma.wait 1 ; dma.wait 2 ; dma.wait 3
    vld v0, 0(zero) ; vld v1, 256(zero) ; vfadd v2, v0, v1 ; vst v2, 1024(zero)
    dma.st t1, a0, t2, 4 ; dma.wait 4
    addi s0, s0, -1
    bne s0, zero, top
    halt
"""

Setup = tuple[Simulator, str, list[int]]


def _double_buffered_add() -> Setup:
    source = (
        (EXAMPLES / "vadd4096_db.s").read_text().replace("t5, 2 ", f"t5, {N // 2048} ")
    )
    dram = np.zeros((1 << 16) + 12 * N, np.uint8)
    base = 1 << 16
    return (
        Simulator(assemble(source), dram),
        "vadd4096_db",
        [base, base + 4 * N, base + 8 * N],
    )


def _kernel(source: str, name: str, *arguments: int) -> Callable[[], Setup]:
    return lambda: (
        Simulator(assemble(source), np.zeros(1 << 17, np.uint8)),
        name,
        list(arguments),
    )


KERNELS: list[tuple[str, str, Callable[[], Setup]]] = [
    ("scalar", "scalar loop", _kernel(SCALAR_LOOP, "scalar_loop")),
    ("vector", "vector loop", _kernel(VECTOR_LOOP, "vector_loop")),
    ("matrix", "mmac loop", _kernel(MATRIX_LOOP, "matrix_loop")),
    ("dma", "double-buffered add, 1M f32", _double_buffered_add),
    ("dma", "descriptor loop", _kernel(DESCRIPTOR_LOOP, "descriptor_loop", 1 << 16)),
]
"""(instruction class, label, setup) of each benchmark kernel."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for unit, label, make in KERNELS:
        simulator, kernel, arguments = make()
        best = best_cpu = float("inf")
        profile = None
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            profile = simulator.launch(kernel, arguments)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
        assert profile is not None
        units = profile.instructions_by_unit
        total, counted = profile.instructions, units[unit]
        vector_matrix = units["vector"] + units["matrix"]
        print(
            f"{label}: {total:,} instructions ({unit} {counted:,}, vector/matrix "
            f"{vector_matrix:,}) in {best_cpu:.2f} s CPU, {best:.2f} s wall; per "
            f"CPU-minute: {60 * total / best_cpu / 1e6:.1f} M instructions, "
            f"{60 * counted / best_cpu / 1e6:.1f} M {unit}, "
            f"{60 * vector_matrix / best_cpu / 1e6:.1f} M vector/matrix "
            f"(per wall-minute {60 * total / best / 1e6:.1f} M instructions)"
        )


if __name__ == "__main__":
    main()
