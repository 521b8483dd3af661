"""The `cpu` target: native code for this machine through LLVM (docs/cpu.md).

`CpuCompiler` runs the target's HLO pipeline, then its backend pipeline down
to the llvm dialect (both built from pass objects in `target.py`),
writes it as LLVM IR text (lowering/llvm/ir_text.py), optimizes at -O2 for the
host CPU and emits object code (`codegen_parts`), which `CpuExecutable` loads
and calls. Compiles of program text go through the persistent cache
(`cache`).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xlir.dialects.stablehlo.process_groups import Grid, module_grid
from xlir.lowering.llvm.collective_calls import COLLECTIVE_SITES
from xlir.lowering.llvm.launch_timers import LAUNCH_SITES
from xlir.targets.base import Compiler, Executable, ProgramRecord
from xlir.targets.cpu import cache
from xlir.targets.cpu.codegen_parts import compile_parts
from xlir.targets.cpu.executable import CpuExecutable
from xlir.targets.cpu.host_machine import host_description
from xlir.targets.cpu.launch_timers import launch_sites
from xlir.targets.cpu.planted_miscompile import plant_miscompile, planted_kernel
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.host_memory import LoopKernels
from xlir.targets.target import CompileOptions

from xlir.context import make_context
from xlir.pass_manager import run_pipeline


def lower_to_llvm(
    target: CpuTarget,
    module: ModuleOp,
    record: ProgramRecord,
    options: CompileOptions,
    sources: dict[str, str] | None = None,
) -> int:
    """Lowers an optimized module in place to the llvm dialect with the
    target's passes from the level `record` says it is at (`loop_pipeline`
    at the loop level, else `backend_pipeline`), and returns the bytes of
    its entry's `temp` (the plan's arena and the scratch put in it). Not
    verified in between: LLVM verifies the result (xlir-opt runs the same
    pipelines with a verifier after each pass, to find a culprit)."""
    from xlir.targets.cpu.llvm_lowering import TEMP_BYTES  # with the pipeline's

    if record.loop_level:
        passes = target.loop_pipeline(options)
    else:
        passes = target.backend_pipeline(options)
    run_pipeline(make_context(), module, passes, sources, verify=False)
    temps = module.attributes.pop(TEMP_BYTES)
    assert isinstance(temps, DictionaryAttr)
    temp = temps.data[record.signature.function]
    assert isinstance(temp, IntegerAttr)
    return temp.value.data


class CpuCompiler(Compiler):
    @property
    def cpu(self) -> CpuTarget:
        target = self.target
        assert isinstance(target, CpuTarget)
        return target

    def lookup(
        self, text: str, function: str, pipeline: str | None
    ) -> Executable | None:
        return self._load(self._key(text, function, pipeline))

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> LoopKernels:
        """The loop evaluator's: the cpu's native code is whole programs (the
        entry of `run_backend`), which its executor launches as one kernel."""
        return LoopKernels(module, sources)

    def _key(
        self, text: str, function: str, pipeline: str | None, grid: str = ""
    ) -> str | None:
        """The cache key of compiling `function` of `text` for a process grid
        (`_grid_part`); None with the cache off."""
        if cache.cache_dir() is None or self.options.time_launches:
            return None  # the cache keeps no launch sites
        # The target's pipelines follow from the options, the target's info
        # and xlir's code (in the key's fingerprint): keyed by those, a cache
        # hit builds no pass object (importing every pass module).
        hlo = "<target's>" if pipeline is None else pipeline
        info = self.cpu.info(self.options)
        planted = planted_kernel() or ""
        return cache.cache_key(
            text,
            function,
            hlo,
            repr(self.options),
            repr(info),
            f"planted-miscompile={planted}",
            host_description(),
            grid,
        )

    def _load(self, key: str | None) -> CpuExecutable | None:
        entry = cache.load(key) if key is not None else None
        if entry is None:
            return None
        return CpuExecutable(
            self.platform,
            entry.signature,
            entry.objects,
            entry.temp_bytes,
            entry.stats,
            llvm_ir=entry.llvm_ir,
            collective_sites=entry.collective_sites,
            grid=Grid(*entry.grid),
        )

    def compile(
        self,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> Executable:
        """Through the cache when the module comes from one program text."""
        text = next(iter(sources.values())) if sources and len(sources) == 1 else None
        grid = _grid_part(module)
        key = self._key(text, function, pipeline, grid) if text is not None else None
        cached = self._load(key)
        if cached is not None:
            return cached
        executable = super().compile(module, function, sources, pipeline)
        assert isinstance(executable, CpuExecutable)
        if key is not None:
            cache.store(
                key,
                cache.Entry(
                    executable.objects,
                    executable.signature,
                    executable.temp_bytes,
                    executable.memory_stats(),
                    executable.llvm_ir,
                    executable.collective_sites,
                    (executable.grid.num_replicas, executable.grid.num_partitions),
                ),
            )
        return executable

    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        kernel = planted_kernel()
        if kernel and not record.loop_level:
            plant_miscompile(module, kernel)
        temp_bytes = lower_to_llvm(self.cpu, module, record, self.options, sources)
        sites = module.attributes.pop(LAUNCH_SITES, None)
        collectives = module.attributes.pop(COLLECTIVE_SITES, None)
        ir, objects = compile_parts(module)
        return CpuExecutable(
            self.platform,
            record.signature,
            objects,
            temp_bytes,
            record.stats,
            llvm_ir=ir,
            launch_sites=launch_sites(sites),
            collective_sites=[
                site.data
                for site in getattr(collectives, "data", ())
                if isinstance(site, StringAttr)
            ],
            grid=module_grid(module),
        )

    def compile_ahead_of_time(
        self,
        module: ModuleOp,
        options: Any = None,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> Any:
        """An object file and its C header for `options.triple` (docs/aot.md)."""
        from xlir.targets.aot import AotOptions
        from xlir.targets.cpu.aot import compile_object

        record = self.optimize(module, function, sources, pipeline)
        return compile_object(
            module, record, options or AotOptions(), self.cpu, self.options, sources
        )


def _grid_part(module: ModuleOp) -> str:
    """The key's part for a process grid of several devices: the grid may be
    `xlir.compile(num_partitions=...)`'s rather than the text's. Empty for
    one device, so that `lookup`, which reads no module, finds those."""
    grid = module_grid(module)
    if grid.size == 1:
        return ""
    return f"grid={grid.num_replicas}x{grid.num_partitions}"
