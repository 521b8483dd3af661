"""The `nvptx-emu` target as the registry sees it: the nvptx target's
passes (so that its kernels are those of the PTX), its own runtime."""

from __future__ import annotations

from xdsl.passes import ModulePass
from xlir.targets.base import Platform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.pass_manager import passes_of


class NvptxEmuTarget(Target):
    name = "nvptx-emu"
    description = "an emulator: the nvptx target's GPU kernels executed on this host"

    def info(self, options: CompileOptions) -> TargetInfo:
        return TargetInfo()

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("hlo-opt")

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-to-loop`, then `mapping_pipeline`."""
        from xlir.lowering.hlo_to_loop import HloToLoopPass

        return [HloToLoopPass(), *self.mapping_pipeline(options)]

    def mapping_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """From the loop level to kernels mapped onto the GPU's grid."""
        from xlir.passes.loop.expand_math import ExpandMathPass
        from xlir.passes.loop.map_to_gpu import MapToGpuPass

        return [ExpandMathPass(), MapToGpuPass()]

    def known_gaps(self) -> KnownGaps:
        from xlir.targets.nvptx.emu.known_gaps import GAPS

        return GAPS

    def make_platform(self) -> Platform:
        from xlir.targets.nvptx.emu.runtime import EmulatorPlatform

        return EmulatorPlatform()
