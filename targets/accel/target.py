"""The `accel` target as the registry sees it: XA-1 (the vendor manual,
../shared/accel/XA-1.md) behind the runtime interfaces, with its
`TargetInfo` from the manual and its pipelines (docs/accel.md)."""

from __future__ import annotations

from dataclasses import replace

from xdsl.passes import ModulePass
from xlir.targets.accel.objfile import MAGIC
from xlir.targets.base import Platform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.pass_manager import passes_of

SCRATCHPAD_BYTES = 512 * 1024
STACK_BYTES = 32 * 1024
"""The scratchpad's top, kept for the stack and spill slots."""

INFO = TargetInfo(
    vector_bits=16 * 32,
    vector_registers=32,
    threads=1,
    pointer_bits=32,
    element_types=frozenset(
        {"f32", "bf16", "f16", "i32", "ui32", "i16", "ui16", "i8", "ui8", "i1"}
    ),
    times_launches=True,
    ahead_of_time=True,
    device_code=True,
    scratchpad_bytes=SCRATCHPAD_BYTES,
)
"""Manual section 1: 32 vector registers of 16 x 32-bit lanes, one core,
32-bit addresses. Of table 2.7's types, those the compiler computes whole
(bf16 and f16 in f32, rounded per op: `widen-floats`, `half_floats.py`).
64-bit integers are emulated in 32-bit words (`wide_integers.py`) except in
divisions and conversions to and from floats, which are refused, so i64 and
ui64 are not listed. The simulator times every launch in cycles (runtime.py).
Ahead of time it writes a program file (the kernels' object and the host
schedule: aot.py), which `xlir-compile` makes only when accel is named."""


class AccelTarget(Target):
    name = "accel"
    description = "XA-1, an accelerator without LLVM: own assembly, simulated"
    program_magic = MAGIC

    def info(self, options: CompileOptions) -> TargetInfo:
        return INFO

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("hlo-opt")

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-to-loop`, then `loop_pipeline`."""
        from xlir.lowering.hlo_to_loop import HloToLoopPass

        return [HloToLoopPass(), *self.loop_pipeline(options)]

    def loop_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """From the loop level to allocated accel assembly: the math
        functions as arithmetic (`expand-math`), bf16 and f16 arithmetic in
        f32 rounded per op (`widen-floats`, integers converted through f32:
        XA-1 has no f64; they move in their f32 containers, the DMA
        converting), index arithmetic folded
        (`fold-index`: a reshape's round trip leaves tileable indices), tiling into the scratchpad
        (`accel-tile`) and `loop-to-accel` (the scratchpad's size from the
        TargetInfo), register allocation."""
        from xlir.passes.loop.expand_math import ExpandMathPass
        from xlir.passes.loop.fold_index import FoldIndexPass
        from xlir.passes.loop.widen_floats import WidenFloatsPass
        from xlir.targets.accel.backend import AccelRegistersPass
        from xlir.targets.accel.loop_to_accel import LoopToAccelPass
        from xlir.targets.accel.tiling import TileScratchpadPass

        scratchpad = self.info(options).scratchpad_bytes
        return [
            ExpandMathPass(),
            WidenFloatsPass(f64=False),
            FoldIndexPass(),
            TileScratchpadPass(scratchpad_bytes=scratchpad, reserved_bytes=STACK_BYTES),
            LoopToAccelPass(scratchpad_bytes=scratchpad, reserved_bytes=STACK_BYTES),
            AccelRegistersPass(),
        ]

    def known_gaps(self) -> KnownGaps:
        from xlir.targets.accel.known_gaps import GAPS

        return GAPS

    def make_platform(self) -> Platform:
        from xlir.targets.accel.runtime import AccelPlatform

        return AccelPlatform()


def naive_pipeline(passes: list[ModulePass]) -> list[ModulePass]:
    """`passes` (a pipeline of `AccelTarget`) without the matrix unit and
    without double buffering: matrix products on the vector lanes, and each
    tile's DMA waited for before and after its compute. The baseline that
    `benchmarks/accel.py` measures what those two buy against."""
    from xlir.targets.accel.loop_to_accel import LoopToAccelPass
    from xlir.targets.accel.tiling import TileScratchpadPass

    naive: list[ModulePass] = []
    for p in passes:
        if isinstance(p, LoopToAccelPass):
            p = replace(p, matrix=False, double_buffering=False)
        elif isinstance(p, TileScratchpadPass):
            p = replace(p, matrix=False)
        naive.append(p)
    return naive
