"""The `nvptx` target as the registry sees it: an NVIDIA GPU through LLVM's
NVPTX backend (docs/nvptx.md). Its `TargetInfo` is a GPU's; its pipelines
end in the loop level mapped onto the GPU (what the runtime launches, and
what PTX is made from: `ptx.compile_ptx`, for the compute capability an
ahead-of-time compile names)."""

from __future__ import annotations

from xdsl.passes import ModulePass
from xlir.targets.base import Platform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.pass_manager import passes_of

GPU_INFO = TargetInfo(
    vector_bits=32,
    warp_size=32,
    max_threads_per_block=1024,
    shared_memory_bytes=48 * 1024,
    ahead_of_time=True,
    device_code=True,
)
"""An NVIDIA GPU's (every compute capability since sm_20): warps of 32,
1024 threads and 48 KiB of static shared memory per block; a thread's
registers hold 32 bits."""


class NvptxTarget(Target):
    name = "nvptx"
    description = "NVIDIA GPUs: PTX through LLVM NVPTX, run by the CUDA driver"

    def info(self, options: CompileOptions) -> TargetInfo:
        return GPU_INFO

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-opt`, with calls of public functions inlined too (the entry is
        compiled as one program) and quantized and complex values in the
        types a kernel computes on, as the cpu target does."""
        from xlir.passes.hlo.decompose import DecomposePass
        from xlir.passes.hlo.inline import InlinePass
        from xlir.passes.hlo.quant_to_math import QuantToMathPass
        from xlir.passes.hlo.split_complex import SplitComplexPass

        passes: list[ModulePass] = []
        for pass_ in passes_of("hlo-opt"):
            if isinstance(pass_, InlinePass):
                passes.append(InlinePass(inline_public=True))
            elif isinstance(pass_, DecomposePass):
                passes += [pass_, QuantToMathPass(), SplitComplexPass()]
            else:
                passes.append(pass_)
        return passes

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-to-loop`, then `loop_pipeline`."""
        from xlir.lowering.hlo_to_loop import HloToLoopPass

        return [HloToLoopPass(), *self.loop_pipeline(options)]

    def loop_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """Narrow floats computed in f32, math expanded into arithmetic (a
        kernel has no libm), then the kernels mapped onto the GPU with the
        sizes of `info`. The result is the loop level the runtime runs; PTX
        is made from it (`ptx.compile_ptx`)."""
        from xlir.passes.loop.expand_math import ExpandMathPass
        from xlir.passes.loop.map_to_gpu import MapToGpuPass
        from xlir.passes.loop.widen_floats import WidenFloatsPass

        info = self.info(options)
        return [
            WidenFloatsPass(),
            ExpandMathPass(),
            MapToGpuPass(
                warp_size=info.warp_size,
                max_threads_per_block=info.max_threads_per_block,
                shared_memory_bytes=info.shared_memory_bytes,
            ),
        ]

    def known_gaps(self) -> KnownGaps:
        from xlir.targets.nvptx.known_gaps import GAPS

        return GAPS

    def make_platform(self) -> Platform:
        from xlir.targets.nvptx import NvptxPlatform

        return NvptxPlatform()
