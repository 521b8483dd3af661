"""The target object the `xlir.targets` entry point names: what xlir asks of
every target (targets/target.py), answered for `reference-f64`."""

from __future__ import annotations

from xdsl.passes import ModulePass
from xlir.targets.base import Platform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.pass_manager import passes_of


class ReferenceF64Target(Target):
    name = "reference-f64"
    description = "the evaluator with f16, bf16 and f32 computed at f64 (out of tree)"

    def info(self, options: CompileOptions) -> TargetInfo:
        """numpy's arrays have no registers to size passes for: the defaults."""
        return TargetInfo()

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("hlo-opt")

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """Widening to f64 happens on the executable's own copy of the module
        (platform.py), so the record keeps the program's types."""
        return []

    def known_gaps(self) -> KnownGaps:
        """A bitcast between widths has no f64 meaning."""
        return KnownGaps()

    def make_platform(self) -> Platform:
        from xlir.targets.host_memory import HostMemoryPlatform

        from xlir_reference_f64.platform import ReferenceF64Compiler

        return HostMemoryPlatform(self.name, ReferenceF64Compiler)
