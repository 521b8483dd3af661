"""The `nvptx` target: NVIDIA GPUs through LLVM's NVPTX backend
(docs/nvptx.md).

`NvptxCompiler` runs the target's HLO pipeline, then its backend pipeline
down to the loop level mapped onto the GPU (`map-to-gpu`), and makes PTX of
the kernels (ptx.py). The executable runs the host schedule through the
generic executor of the `device` dialect (targets/device_schedule.py) on a
GPU of the CUDA driver (runtime.py); its text is the PTX. Ahead of time it
writes the PTX (or a cubin, through ptxas) and the manifest of the host
side (manifest.py). Without a driver or a GPU the platform has no device,
and says why (`unavailable`); compiling needs neither.
"""

from __future__ import annotations

import json
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xlir.targets.aot import AotOptions, AotResult
from xlir.targets.base import (
    Compiler,
    Executable,
    Platform,
    ProgramRecord,
    StreamExecutor,
)
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.nvptx.cuda_driver import CudaDriver, load_driver
from xlir.targets.nvptx.manifest import manifest
from xlir.targets.nvptx.ptx import DEFAULT_SM, compile_ptx
from xlir.targets.nvptx.runtime import CudaExecutor, PtxImage
from xlir.targets.nvptx.target import NvptxTarget

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.pass_manager import run_pipeline

MANIFEST_SUFFIX = ".manifest.json"


class NvptxPlatform(Platform):
    name = "nvptx"

    def __init__(self) -> None:
        super().__init__()
        self._driver: CudaDriver | None = None
        self._reason: str | None = None

    def driver(self) -> CudaDriver | None:
        """The CUDA driver, loaded on first use; None where there is none."""
        if self._reason is None:
            self._driver, self._reason = load_driver()
        return self._driver

    def device_count(self) -> int:
        driver = self.driver()
        return driver.device_count() if driver is not None else 0

    def unavailable(self) -> str | None:
        driver = self.driver()
        if driver is None:
            return self._reason
        if driver.device_count() == 0:
            return "the CUDA driver reports no GPU"
        return None

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        driver = self.driver()
        assert driver is not None  # device_count() > 0
        return CudaExecutor(self, ordinal, driver)

    def compiler(self) -> Compiler:
        return NvptxCompiler(self)


class NvptxExecutable(DeviceScheduleExecutable):
    """The host schedule over a GPU; its text is the kernels' PTX."""

    def as_text(self) -> str:
        assert isinstance(self.image, PtxImage)
        return self.image.ptx


class NvptxCompiler(Compiler):
    executable_class: type[DeviceScheduleExecutable] = NvptxExecutable
    """What runs the host schedule over the compiled kernels."""

    @property
    def nvptx(self) -> NvptxTarget:
        target = self.target
        assert isinstance(target, NvptxTarget)
        return target

    def lower(
        self, module: ModuleOp, loop_level: bool, sources: dict[str, str] | None
    ) -> None:
        """The optimized module, in place, to the loop level mapped onto the GPU."""
        options = self.options
        passes = (
            self.nvptx.loop_pipeline(options)
            if loop_level
            else self.nvptx.backend_pipeline(options)
        )
        run_pipeline(make_context(), module, passes, sources, verify=False)

    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        self.lower(module, record.loop_level, sources)
        image = self.compile_kernels(module, sources)
        return self.executable_class(
            self.platform,
            module,
            image,
            record.signature.function,
            sources,
            record.signature,
        )

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> PtxImage:
        """PTX of a loop-level module's kernels (mapped onto the GPU here
        where they are not yet)."""
        ptx, kernels = compile_ptx(self.mapped(module, sources), DEFAULT_SM, sources)
        return PtxImage(ptx, {k.name: k for k in kernels})

    def mapped(self, module: ModuleOp, sources: dict[str, str] | None) -> ModuleOp:
        from xlir.dialects.loop.kernel import KernelOp
        from xlir.passes.loop.map_to_gpu import launch_of

        kernels = [o for o in module.ops if isinstance(o, KernelOp)]
        if all(launch_of(k) is not None for k in kernels):
            return module
        copy = module.clone()
        self.lower(copy, True, sources)
        return copy

    def compile_ahead_of_time(
        self,
        module: ModuleOp,
        options: Any = None,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> AotResult:
        """PTX for the compute capability `options.cpu` names (sm_80 by
        default), or a cubin where `options.output` ends in .cubin, with the
        manifest to write beside it (`AotResult.companions`)."""
        from xlir.targets.nvptx.ptxas import assemble

        options = options or AotOptions()
        if options.triple is not None:
            raise XlirError(
                "error: target 'nvptx' compiles for nvptx64-nvidia-cuda; name the "
                "GPU with --sm (e.g. --sm 90), not a triple"
            )
        sm = sm_number(options.cpu)
        record = self.optimize(module, function, sources, pipeline)
        self.lower(module, record.loop_level, sources)
        ptx, kernels = compile_ptx(module, sm, sources)
        output = options.output or "model.ptx"
        image: bytes = ptx.encode()
        if output.endswith(".cubin"):
            image, _ = assemble(ptx, sm)
        name = output.rsplit("/", 1)[-1]
        text = json.dumps(
            manifest(module, kernels, sm, name, function, sources), indent=1
        )
        return AotResult(
            image,
            "",
            function,
            f"nvptx64-nvidia-cuda sm_{sm}",
            record.signature,
            record.arena_bytes,
            record.stats,
            companions={MANIFEST_SUFFIX: text.encode()},
        )


def sm_number(cpu: str | None) -> int:
    """The compute capability an AOT compile names ("sm_90", "90"; None:
    sm_80)."""
    if cpu is None:
        return DEFAULT_SM
    text = cpu.removeprefix("sm_")
    if not text.isdigit():
        raise XlirError(
            f"error: '{cpu}' is not a CUDA compute capability; expected e.g. "
            "--sm 80 (Ampere) or --sm 90 (Hopper)"
        )
    return int(text)
