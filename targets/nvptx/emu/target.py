"""The `nvptx-emu` target as the registry sees it: the nvptx target's
pipelines (so that its kernels are those of the PTX), its own runtime. It
compiles nothing ahead of time: its code lives in this process."""

from __future__ import annotations

from dataclasses import replace

from xlir.targets.base import Platform
from xlir.targets.nvptx.target import NvptxTarget
from xlir.targets.target import CompileOptions, KnownGaps, TargetInfo


class NvptxEmuTarget(NvptxTarget):
    name = "nvptx-emu"
    description = "an emulator: the nvptx target's GPU kernels executed on this host"

    def info(self, options: CompileOptions) -> TargetInfo:
        return replace(super().info(options), ahead_of_time=False)

    def known_gaps(self) -> KnownGaps:
        from xlir.targets.nvptx.emu.known_gaps import GAPS

        return GAPS

    def make_platform(self) -> Platform:
        from xlir.targets.nvptx.emu.runtime import EmulatorPlatform

        return EmulatorPlatform()
