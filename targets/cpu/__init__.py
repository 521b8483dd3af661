"""The `cpu` target: native code for this machine through LLVM (docs/cpu.md).

`CpuCompiler` runs the HLO pipeline (`hlo-opt` with `dot-layout` and
`conv-padding` before `fuse` by default: `CpuCompiler.DEFAULT_PIPELINE`),
then the backend pipeline `BACKEND_PIPELINE` down to the llvm dialect,
translates it with xDSL's llvmlite translation, optimizes at -O2 for the
host CPU and emits object code (`codegen_parts`), which `CpuExecutable` loads
and calls. Compiles of program text go through the persistent cache
(`cache`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xlir.lowering.llvm.launch_timers import LAUNCH_SITES
from xlir.targets.base import (
    Compiler,
    Executable,
    MemoryStats,
    Platform,
    Signature,
    StreamExecutor,
    planned_memory_stats,
)
from xlir.targets.cpu import cache
from xlir.targets.cpu.codegen_parts import compile_parts
from xlir.targets.cpu.executable import CpuExecutable
from xlir.targets.cpu.host_machine import host_description
from xlir.targets.cpu.launch_timers import launch_sites
from xlir.targets.cpu.planted_miscompile import plant_miscompile, planted_kernel
from xlir.targets.host_memory import HostMemoryExecutor, LoopKernels
from xlir.targets.signatures import function_signature, loop_signature

from xlir.context import make_context
from xlir.levels import is_loop_level
from xlir.pass_manager import PIPELINES, run_pipeline
from xlir.walk import walk

LOOP_PIPELINE = (
    "widen-floats,fuse-kernels,split-ranges,register-tile,vectorize,pack-panels,block-sums,"
    "expand-math,"
    "interleave,parallelize,"
    "loop-to-llvm,device-to-llvm"
)
"""From the loop level to the llvm dialect: a module whose object code, with
the thread pool `thread_runtime.define_runtime` defines where it is called, needs only
the C library."""

BACKEND_PIPELINE = f"hlo-to-loop,{LOOP_PIPELINE}"
"""From the fused, planned HLO level to the llvm dialect."""


FAST_MATH = "XLIR_FAST_MATH"
"""Set to 1, float sums and products may be reassociated (`vectorize`'s
`reassociate=true`: partial sums that vectorize), as XLA:CPU's reductions
do; off by default, so results are bit for bit those of a fixed order (the
sequential one, sums of more than 256 terms in `block-sums`' blocks)."""


BOUNDS_CHECK = "XLIR_CPU_BOUNDS_CHECK"
"""Set to 1, every compile checks each load and store of the generated code
against its buffer's bounds (`loop-to-llvm{bounds-check=true}`, a debug
mode: lowering/llvm/bounds_checks.py), as `xlir.compile(...,
bounds_check=True)` does for one."""


def loop_pipeline(bounds_check: bool = False, time_launches: bool = False) -> str:
    """The loop pipeline compiles use now: `LOOP_PIPELINE`, reassociating
    with `XLIR_FAST_MATH=1` in the environment, checking bounds where
    `bounds_check` or `XLIR_CPU_BOUNDS_CHECK=1` asks, with timers around
    each launch where `time_launches` asks (launch_timers.py)."""
    pipeline = LOOP_PIPELINE
    if time_launches:
        pipeline = pipeline.replace(
            "device-to-llvm", "device-to-llvm{time-launches=true}"
        )
    if os.environ.get(FAST_MATH) == "1":
        pipeline = pipeline.replace("vectorize", "vectorize{reassociate=true}", 1)
    if bounds_check or os.environ.get(BOUNDS_CHECK) == "1":
        pipeline = pipeline.replace("loop-to-llvm", "loop-to-llvm{bounds-check=true}")
    return pipeline


class CpuPlatform(Platform):
    name = "cpu"

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        return HostMemoryExecutor(self, ordinal)

    def compiler(self) -> Compiler:
        return CpuCompiler(self)


def _temp_bytes(module: ModuleOp) -> int:
    """The arena of the host function: the allocation its views are of."""
    for op in walk(module):
        if op.name == "loop.view":
            owner = op.operands[0].owner
            if getattr(owner, "name", "") == "device.alloc":
                type_ = op.operands[0].type
                assert isinstance(type_, MemRefType)
                return type_.get_shape()[0]
    return 0


@dataclass(frozen=True)
class Lowered:
    """What a module lowered to the llvm dialect is called with."""

    signature: Signature
    temp_bytes: int
    stats: MemoryStats


def lower_to_llvm(
    module: ModuleOp,
    function: str,
    sources: dict[str, str] | None = None,
    pipeline: str | None = None,
) -> Lowered:
    """Lowers an optimized HLO-level (or loop-level) module in place to the
    llvm dialect (`pipeline` from the loop level, default `loop_pipeline()`);
    its signature, arena size and the plan's memory figures."""
    if is_loop_level(module):
        signature = loop_signature(module, function)
        stats = planned_memory_stats(None, signature)
    else:
        signature = function_signature(module, function)
        stats = planned_memory_stats(module, signature)
        run_pipeline(make_context(), module, "hlo-to-loop", sources, verify=False)
    temp = _temp_bytes(module)
    # Not verified in between: LLVM verifies the result (xlir-opt runs the
    # same pipelines with a verifier after each pass, to find a culprit).
    run_pipeline(
        make_context(), module, pipeline or loop_pipeline(), sources, verify=False
    )
    return Lowered(signature, temp, stats)


class CpuCompiler(Compiler):
    time_launches = False
    """Whether compiles time each kernel launch (`xlir-run --profile`)."""

    DEFAULT_PIPELINE = ",".join(
        step
        for name in PIPELINES["hlo-opt"]
        for step in (
            ("dot-layout", "conv-padding", name)
            if name == "fuse"
            else ("decompose{keep-top-k=true}", "quant-to-math", "split-complex")
            if name == "decompose"
            else ("inline{inline-public=true}",)
            if name == "inline"
            else (name,)
        )
    )
    """`hlo-opt` with `quant-to-math` and `split-complex` after `decompose`
    and `dot-layout` and `conv-padding` before `fuse`: quantized values as
    their storage integers (passes/hlo/quant_to_math.py), complex numbers as
    pairs of floats (passes/hlo/split_complex.py), the dot kernels read their rhs with unit
    stride (passes/hlo/dot_layout.py), the convolution kernels an input padded
    beforehand (passes/hlo/conv_padding.py); `decompose` keeps chlo.top_k for its
    selection kernel (lowering/kernels/top_k.py); and calls of public
    functions are inlined too, as XLA's call inliner does (the entry is
    compiled as one program; the loop level has no calls)."""

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

    def _key(self, text: str, function: str, pipeline: str | None) -> str | None:
        """The cache key of compiling `function` of `text`; None with the
        cache off."""
        if cache.cache_dir() is None or self.time_launches:
            return None  # the cache keeps no launch sites
        hlo = self.DEFAULT_PIPELINE if pipeline is None else pipeline
        backend = f"hlo-to-loop,{loop_pipeline(self.bounds_check)}"
        if planted_kernel():
            backend += f",planted-miscompile={planted_kernel()}"
        return cache.cache_key(text, function, hlo, backend, host_description())

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
        key = self._key(text, function, pipeline) if text is not None else None
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
                ),
            )
        return executable

    def run_backend(
        self,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
    ) -> Executable:
        kernel = planted_kernel()
        if kernel and not is_loop_level(module):
            plant_miscompile(module, kernel)
        lowered = lower_to_llvm(
            module,
            function,
            sources,
            loop_pipeline(self.bounds_check, self.time_launches),
        )
        sites = module.attributes.pop(LAUNCH_SITES, None)
        ir, objects = compile_parts(module)
        return CpuExecutable(
            self.platform,
            lowered.signature,
            objects,
            lowered.temp_bytes,
            lowered.stats,
            llvm_ir=ir,
            launch_sites=launch_sites(sites),
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
        from xlir.targets.cpu.aot import AotOptions, compile_object

        optimized = self.run_hlo_passes(module, pipeline, sources)
        return compile_object(optimized, options or AotOptions(), function, sources)
