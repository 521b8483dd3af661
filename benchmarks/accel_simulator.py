"""XA-1 simulator speed: simulated vector and matrix instructions per minute of
time, on three kernels: the manual's double-buffered elementwise add of 1M
f32 (section 11.2), a vector compute loop (hardware loops, vld/vfmadd/vst,
integer ops, a reduction) and back-to-back `mmac`s. Prints the best of
several runs per kernel, by wall time and by the process's CPU time (the
figure a quiet machine would show when the machine is shared).

    python benchmarks/accel_simulator.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.simulator import Simulator

EXAMPLES = Path(__file__).parent.parent / "tests" / "accel"
N = 1 << 20

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


def _double_buffered_add() -> tuple[Simulator, str, list[int]]:
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


def _kernel(source: str, name: str) -> tuple[Simulator, str, list[int]]:
    return Simulator(assemble(source), np.zeros(1 << 16, np.uint8)), name, []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for label, make in (
        ("double-buffered add, 1M f32", _double_buffered_add),
        ("vector loop", lambda: _kernel(VECTOR_LOOP, "vector_loop")),
        ("mmac loop", lambda: _kernel(MATRIX_LOOP, "matrix_loop")),
    ):
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
        counted = units["vector"] + units["matrix"]
        print(
            f"{label}: {profile.instructions:,} instructions ({counted:,} vector/matrix) "
            f"in {best:.2f} s wall, {best_cpu:.2f} s CPU: "
            f"{60 * counted / best / 1e6:.1f} M (wall) / "
            f"{60 * counted / best_cpu / 1e6:.1f} M (CPU) vector/matrix instructions "
            "per minute"
        )


if __name__ == "__main__":
    main()
