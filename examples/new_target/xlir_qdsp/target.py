"""Q4 as xlir sees it: the `Target` the `xlir.targets` entry point names,
and its runtime (xlir's targets/base.py): the host's memory standing for the
chip's, kernels run on the simulator, a program's host schedule through
xlir's generic executor of the `device` dialect."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.targets.base import Compiler, Executable, Platform, ProgramRecord
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.host_memory import HostMemoryExecutor
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.diagnostics import XlirError
from xlir.pass_manager import passes_of

REFUSED = [
    "compare_select",
    "conv2d_nhwc",
    "dynamic_slice",
    "gather_index",
    "int_ops",
    "slice_concat_pad",
    "train_step_mlp",
    "transpose_reshape_bcast",
    "while_loops",
]
WHY = "ops Q4 has no instruction for, refused in one diagnostic"
KNOWN_GAPS = KnownGaps(corpus=dict.fromkeys(REFUSED, WHY))


class QdspTarget(Target):
    name = "qdsp"
    description = "Q4, a made-up 4-lane SIMD DSP, on its simulator (out of tree)"

    def info(self, options: CompileOptions) -> TargetInfo:
        types = frozenset({"f32", "i32"})
        return TargetInfo(128, 16, threads=1, pointer_bits=32, element_types=types)

    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("hlo-opt,hlo-to-loop")

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        return passes_of("convert-loop-to-qdsp,qdsp-allocate-registers")

    def known_gaps(self) -> KnownGaps:
        return KNOWN_GAPS

    def make_platform(self) -> Platform:
        return QdspPlatform()


class QdspPlatform(Platform):
    name = "qdsp"

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> HostMemoryExecutor:
        return QdspExecutor(self, ordinal)

    def compiler(self) -> Compiler:
        return QdspCompiler(self)


class QdspExecutor(HostMemoryExecutor):
    def load_kernel(self, image: Any, name: str) -> Any:
        if not hasattr(image, "kernels"):  # not the compiler's `Program`
            raise XlirError(
                f"error: qdsp loads kernels from a qdsp Program, not {image}"
            )
        return image.kernel(name)


class QdspCompiler(Compiler):
    def run_backend(
        self, module: ModuleOp, record: ProgramRecord, sources: Any = None
    ) -> Executable:
        image = self.compile_kernels(module, sources)
        main = record.signature.function
        return DeviceScheduleExecutable(self.platform, module, image, main, sources)

    def compile_kernels(self, module: ModuleOp, sources: Any = None) -> Any:
        """The kernels lowered, their registers allocated, assembled."""
        from xlir_qdsp.assembly import AllocateRegistersPass, assembly
        from xlir_qdsp.lowering import lower
        from xlir_qdsp.simulator import Program

        lower(module, sources)
        AllocateRegistersPass().apply(None, module)  # pyright: ignore
        return Program(assembly(module))
