"""Q4 as xlir sees it: the `Target` the `xlir.targets` entry point names, and
its runtime (xlir's targets/base.py): the host's memory standing for the
chip's, a simulator standing for the chip, a program's host schedule run by
xlir's generic executor of the `device` dialect."""

import re
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.targets.base import Compiler, DeviceBuffer
from xlir.targets.device_schedule import ScheduleCompiler
from xlir.targets.host_memory import HostKernel, HostMemoryPlatform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.assembly import assembly_text
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.pass_manager import passes_of, run_pipeline
from xlir_qdsp.dialect import BITS, F32, I32, ISA, LANES, REGISTERS

REFUSED = ["compare_select", "conv2d_nhwc", "dynamic_slice", "gather_index", "int_ops",
           "slice_concat_pad", "train_step_mlp", "transpose_reshape_bcast", "while_loops"]  # fmt: skip
WHY = "ops Q4 has no instruction for, refused in one diagnostic"


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
        return KnownGaps(corpus=dict.fromkeys(REFUSED, WHY))

    def make_platform(self) -> "QdspPlatform":
        return QdspPlatform()


class QdspPlatform(HostMemoryPlatform):
    name = "qdsp"

    def compiler(self) -> Compiler:
        return QdspCompiler(self)


class QdspCompiler(ScheduleCompiler):
    def compile_kernels(self, module: ModuleOp, sources: Any = None) -> dict:
        """The kernels lowered, allocated and assembled: the chip's program."""
        passes = self.target.backend_pipeline(self.options)
        run_pipeline(make_context(), module, passes, sources)
        return assemble(assembly_text(module))


def assemble(text: str) -> dict[str, "Kernel"]:
    """An assembly text's kernels by name, each line split once."""
    kernels: dict[str, Kernel] = {}
    for line in text.splitlines():
        mnemonic, *fields = re.findall(r"[^\s,]+", line)
        if mnemonic == ".kernel":  # .kernel name, buffer or scalar, ...
            kernel = kernels[fields[0]] = Kernel(fields[0], fields[1:])
            continue
        if mnemonic == "loop":
            kernel.loops.append(len(kernel.code))
        if mnemonic == "endloop":
            kernel.ends[kernel.loops.pop()] = len(kernel.code)
        kernel.code.append((mnemonic, fields))
    return kernels


class Kernel(HostKernel):
    """The simulator: a kernel's lines run on sixteen registers of four
    32-bit lanes, each instruction as `ISA` says."""

    def __init__(self, name: str, kinds: list[str]):
        self.name, self.kinds = name, kinds
        self.code: list[tuple[str, list[str]]] = []
        self.loops: list[int] = []  # the lines of the `loop`s not ended yet
        self.ends: dict[int, int] = {}  # the line of each `loop`: its `endloop`'s

    def run(self, grid: tuple[int, ...], arguments: Any) -> None:
        """A launch: Q4's one core runs the whole kernel, whatever the grid."""
        kinds = [
            "buffer" if isinstance(a, DeviceBuffer) else "scalar" for a in arguments
        ]
        if kinds != self.kinds:
            raise XlirError(f"error: @{self.name} takes {self.kinds}, not {kinds}")
        args = [
            a.handle.view(BITS) if isinstance(a, DeviceBuffer) else a for a in arguments
        ]
        with np.errstate(all="ignore"):
            self.execute(0, len(self.code), np.zeros((REGISTERS, LANES), BITS), args)

    def execute(self, line: int, end: int, registers: np.ndarray, args: list) -> None:
        """Lines `line` to `end` (excluded)."""
        while line < end:
            mnemonic, fields = self.code[line]
            numbers = [int(field[1:]) for field in fields if field[0] == "r"]
            if mnemonic == "loop":  # loop rd, start, step, count, lanes
                start, step, count, lanes = map(int, fields[1:])
                for trip in range(0, count, lanes):
                    iteration = np.minimum(trip + np.arange(LANES) % lanes, count - 1)
                    registers[numbers[0]] = (start + step * iteration).astype(I32)
                    self.execute(line + 1, self.ends[line], registers, args)
                line = self.ends[line]
            elif mnemonic in ISA:
                lanes, meaning = ISA[mnemonic][2:]
                reads = [registers[number].view(lanes) for number in numbers[1:]]
                result = np.asarray(meaning(*reads))
                result = result.astype(BITS if result.dtype == bool else lanes)
                registers[numbers[0]] = result.view(BITS)
            elif mnemonic in ("li", "lf", "argi", "argf"):
                value = fields[1] if mnemonic[0] == "l" else args[int(fields[1])]
                kind = F32 if mnemonic[-1] == "f" else I32
                registers[numbers[0]] = np.array(value, kind).view(BITS)
            elif mnemonic in ("ld", "st"):  # ld rd, ra, k / st rs, ra, k: word ra of k
                words, index = args[int(fields[2])], registers[numbers[1]].view(I32)
                if index.min() < 0 or index.max() >= len(words):
                    raise XlirError(
                        f"error: @{self.name}: {mnemonic} of word {index} of {len(words)}"
                    )
                if mnemonic == "ld":
                    registers[numbers[0]] = words[index]
                else:
                    words[index] = registers[numbers[0]]
            line += 1
