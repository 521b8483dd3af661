"""Q4 as xlir sees it: the `Target` the `xlir.targets` entry point names, and
its runtime (xlir's targets/base.py): the host's memory standing for the
chip's, a simulator standing for the chip, a program's host schedule run by
xlir's generic executor of the `device` dialect."""

import re
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    Executable,
    Platform,
    ProgramRecord,
)
from xlir.targets.device_schedule import DeviceScheduleExecutable
from xlir.targets.host_memory import HostKernel, HostMemoryExecutor
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.diagnostics import XlirError
from xlir.pass_manager import passes_of
from xlir_qdsp.dialect import ISA, LANES, F, S, U
from xlir_qdsp.lowering import AllocateRegistersPass, assembly, lower

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


class QdspCompiler(Compiler):
    def run_backend(
        self, module: ModuleOp, record: ProgramRecord, sources: Any = None
    ) -> Executable:
        image = self.compile_kernels(module, sources)
        main = record.signature.function
        return DeviceScheduleExecutable(self.platform, module, image, main, sources)

    def compile_kernels(self, module: ModuleOp, sources: Any = None) -> "Program":
        """The kernels lowered, their registers allocated, assembled."""
        lower(module, sources)
        AllocateRegistersPass().apply(Context(), module)
        return Program(assembly(module))


class QdspExecutor(HostMemoryExecutor):
    def load_kernel(self, image: Any, name: str) -> "Kernel":
        if not isinstance(image, Program) or name not in image:
            raise XlirError(f"error: no qdsp kernel @{name} in {type(image).__name__}")
        return image[name]


class Program(dict[str, "Kernel"]):
    """An assembly text's kernels by name: the image the chip runs."""

    def __init__(self, text: str):
        super().__init__()
        for line in text.splitlines():
            mnemonic, *fields = re.findall(r"[^\s,]+", line)
            if mnemonic == ".kernel":  # .kernel name, buffer or scalar, ...
                kernel, loops = Kernel(fields[0], fields[1:]), []
                self[kernel.name] = kernel
                continue
            if mnemonic == "loop":
                loops.append(len(kernel.code))
            if mnemonic == "endloop":
                kernel.ends[loops.pop()] = len(kernel.code)
            kernel.code.append((mnemonic, fields))


class Kernel(HostKernel):
    """The simulator: a kernel's lines run on sixteen registers of four
    32-bit lanes, each instruction as `ISA` says."""

    def __init__(self, name: str, kinds: list[str]):
        self.name, self.kinds, self.code = name, kinds, []
        self.ends: dict[int, int] = {}  # the line of each `loop`: its `endloop`'s

    def run(self, grid: tuple[int, ...], arguments: Any) -> None:
        """A launch: Q4's one core runs the whole kernel, whatever the grid."""
        kinds = [
            "buffer" if isinstance(a, DeviceBuffer) else "scalar" for a in arguments
        ]
        if kinds != self.kinds:
            raise XlirError(f"error: @{self.name} takes {self.kinds}, not {kinds}")
        args = [
            a.handle.view(U) if isinstance(a, DeviceBuffer) else a for a in arguments
        ]
        with np.errstate(all="ignore"):
            self.execute(0, len(self.code), np.zeros((16, LANES), U), args)

    def execute(self, pc: int, end: int, r: np.ndarray, args: list) -> None:
        """Lines pc to end (excluded), on registers r."""
        while pc < end:
            m, f = self.code[pc]
            n = [int(x[1:]) for x in f if x[0] == "r"]  # register numbers
            if m == "loop":  # loop rd, start, step, count
                for trip in range(int(f[3])):
                    r[n[0]] = int(f[1]) + int(f[2]) * trip
                    self.execute(pc + 1, self.ends[pc], r, args)
                pc = self.ends[pc]
            elif m in ISA:
                lanes, meaning = ISA[m][2:]
                out = np.asarray(meaning(*(r[i].view(lanes) for i in n[1:])))
                r[n[0]] = out.astype(U if out.dtype == bool else lanes).view(U)
            elif m in ("li", "lf", "argi", "argf"):
                value = f[1] if m[0] == "l" else args[int(f[1])]
                r[n[0]] = np.array(value, F if m[-1] == "f" else S).view(U)
            elif m in ("ld", "st"):  # ld rd, ra, k / st rs, ra, k: word ra of k
                words, index = args[int(f[2])], r[n[1]].view(S)
                if index.min() < 0 or index.max() >= len(words):
                    raise XlirError(
                        f"error: @{self.name}: {m} of word {index} of {len(words)}"
                    )
                if m == "ld":
                    r[n[0]] = words[index]
                else:
                    words[index] = r[n[0]]
            pc += 1
