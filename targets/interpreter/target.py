"""The `interpreter` target as the registry sees it (targets/target.py)."""

from __future__ import annotations

from xdsl.passes import ModulePass
from xlir.targets.base import Platform
from xlir.targets.target import CompileOptions, Target, TargetInfo

from xlir.pass_manager import passes_of


class InterpreterTarget(Target):
    name = "interpreter"
    description = "StableHLO's semantics on numpy arrays: the reference"
    is_reference = True
    runs_check_ops = True

    def info(self, options: CompileOptions) -> TargetInfo:
        """Vectors and threads are numpy's business: the passes' defaults."""
        return TargetInfo()

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("hlo-opt")

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """None: the interpreter runs the planned HLO module itself."""
        return []

    def make_platform(self) -> Platform:
        from xlir.targets.host_memory import HostMemoryPlatform
        from xlir.targets.interpreter import InterpreterCompiler

        return HostMemoryPlatform(self.name, InterpreterCompiler)
