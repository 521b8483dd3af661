"""The accel compiler: a program's kernels to one XA1 object, its host
schedule run by the generic executor of the `device` dialect over the
simulator's StreamExecutor (`targets/device_schedule.py`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xlir.dialects import accel
from xlir.targets.accel.aot import program_file, read_program
from xlir.targets.accel.disassembler import disassemble
from xlir.targets.accel.encoding import encode_kernels
from xlir.targets.accel.loop_to_accel import SCRATCHPAD_ATTRIBUTE
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.accel.rodata import RodataConstant, with_constants
from xlir.targets.accel.runtime import AccelStreamExecutor
from xlir.targets.accel.target import AccelTarget
from xlir.targets.aot import AotOptions, AotResult
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    Executable,
    Platform,
    ProgramRecord,
    StreamExecutor,
    program_record,
)
from xlir.targets.device_schedule import DeviceScheduleExecutable

from xlir.assembly import assembly_text
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.pass_manager import run_pipeline
from xlir.signature import MemoryStats


class AccelExecutable(DeviceScheduleExecutable):
    """The host schedule over the simulator; `as_text` is the assembly.
    The constants `rodata` places are the object's read-only data, which
    loading the object puts in DRAM (rodata.py)."""

    def __init__(
        self,
        platform: Platform,
        module: ModuleOp,
        image: ObjectFile,
        assembly: str | None,
        record: ProgramRecord,
        sources: dict[str, str] | None,
        high_water: int | None = None,
        rodata: dict[str, RodataConstant] | None = None,
    ):
        """`assembly`: the text of `image` (None: the module's kernels,
        printed when first asked for); `high_water`: the scratchpad bytes
        its kernels use (None: read off the module's kernels); `rodata`:
        where the image holds each constant (None: none, each run copies
        them)."""
        super().__init__(platform, module, image, record.signature.function, sources)
        # the program's own types (ui8 stays ui8; its buffers are signless)
        self.signature = record.signature
        self.assembly = assembly
        if high_water is None:
            high_water = scratchpad_high_water(module)
        self.high_water = high_water
        self.rodata = rodata or {}
        self._gp: dict[StreamExecutor, int] = {}

    def image_constant(
        self, executor: StreamExecutor, name: str
    ) -> DeviceBuffer | None:
        """The constant in the loaded object's rodata, at `gp` + its offset."""
        constant = self.rodata.get(name)
        if constant is None:
            return None
        if executor not in self._gp:
            assert isinstance(executor, AccelStreamExecutor)
            self._gp[executor] = executor.program(self.image).simulator.gp
        address = self._gp[executor] + constant.offset
        return DeviceBuffer(executor.ordinal, constant.size, address)

    def memory_stats(self) -> MemoryStats:
        """The loop level's figures, the object's code and the scratchpad's
        high-water mark."""
        assert isinstance(self.image, ObjectFile)
        stats = super().memory_stats()
        if self.rodata:  # a loaded program's schedule keeps no loop.global
            constants = sum(c.size for c in self.rodata.values())
            stats = replace(stats, constant_size_in_bytes=constants)
        return replace(
            stats,
            generated_code_size_in_bytes=4 * len(self.image.code),
            scratchpad_size_in_bytes=self.high_water,
        )

    def as_text(self) -> str:
        if self.assembly is None:
            assert self.module is not None
            self.assembly = assembly_text(self.module, self.sources)
        return self.assembly


class AccelCompiler(Compiler):
    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> Any:
        """The object of a loop-level module's kernels (lowered in a copy)."""
        lowered = module.clone()
        target = self.target
        assert isinstance(target, AccelTarget)
        passes = target.loop_pipeline(self.options)
        run_pipeline(make_context(), lowered, passes, sources, verify=False)
        return encode_kernels(lowered)

    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        target = self.target
        assert isinstance(target, AccelTarget)
        if record.loop_level:
            passes = target.loop_pipeline(self.options)
        else:
            passes = target.backend_pipeline(self.options)
        run_pipeline(make_context(), module, passes, sources, verify=False)
        image, rodata = with_constants(encode_kernels(module), module)
        return AccelExecutable(
            self.platform, module, image, None, record, sources, rodata=rodata
        )

    def compile_ahead_of_time(
        self,
        module: ModuleOp,
        options: Any = None,
        function: str = "main",
        sources: dict[str, str] | None = None,
        pipeline: str | None = None,
    ) -> AotResult:
        """The program file of `function`: its kernels' object followed by
        its program section (aot.py), which `load_ahead_of_time` runs."""
        options = options or AotOptions()
        given = [
            flag
            for flag, value in (
                ("--triple", options.triple),
                ("--cpu", options.cpu),
                ("--features", options.features),
                ("--entry", options.entry),
                ("--threads", options.threads),
            )
            if value is not None
        ]
        if given:
            verb = "does" if len(given) == 1 else "do"
            raise XlirError(
                f"error: target 'accel' compiles for XA-1, one core with no C "
                f"entry point: {', '.join(given)} {verb} not apply; drop it"
            )
        record = self.optimize(module, function, sources, pipeline)
        executable = self.run_backend(module, record, sources)
        assert isinstance(executable, AccelExecutable)
        data = program_file(
            executable.image,
            module,
            record.signature,
            executable.high_water,
            executable.rodata,
        )
        return AotResult(
            data,
            "",
            function,
            "xa1",
            record.signature,
            record.arena_bytes,
            executable.memory_stats(),
        )

    def load_ahead_of_time(self, data: bytes, name: str) -> Executable:
        """A program file's executable, without compiling: its schedule
        over the simulator, its text the object's disassembly."""
        program = read_program(data, name)
        function = program.signature.function
        record = program_record(program.module, function, True, program.sources)
        return AccelExecutable(
            self.platform,
            program.module,
            program.obj,
            disassemble(program.obj),
            replace(record, signature=program.signature),
            program.sources,
            program.scratchpad_bytes,
            program.rodata,
        )


def scratchpad_high_water(module: ModuleOp) -> int:
    """The most scratchpad bytes a kernel of a lowered module uses."""
    return max(
        (
            attribute.value.data
            for op in module.body.block.ops
            if isinstance(op, accel.KernelOp)
            and isinstance(
                attribute := op.attributes.get(SCRATCHPAD_ATTRIBUTE), IntegerAttr
            )
        ),
        default=0,
    )
