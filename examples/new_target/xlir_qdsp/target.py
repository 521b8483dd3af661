"""Q4 as xlir sees it: the `Target` its entry point names, and its runtime
(xlir's targets/base.py): the host's memory standing for the chip's, and a
simulator standing for the chip."""

from collections.abc import Iterator
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xlir.targets.device_schedule import ScheduleCompiler
from xlir.targets.host_memory import HostKernel, HostMemoryPlatform
from xlir.targets.target import CompileOptions, KnownGaps, Target, TargetInfo

from xlir.assembly import assembly_text
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.pass_manager import passes_of, run_pipeline
from xlir_qdsp.dialect import BITS, F32, I32, ISA, LANES, REGISTERS


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
        refused = ["compare_select", "conv2d_nhwc", "dynamic_slice", "gather_index", "int_ops",
                   "slice_concat_pad", "train_step_mlp", "transpose_reshape_bcast", "while_loops"]  # fmt: skip
        return KnownGaps(corpus=dict.fromkeys(refused, "ops Q4 has no instruction for"))

    def make_platform(self) -> HostMemoryPlatform:
        return HostMemoryPlatform(self.name, QdspCompiler)


class QdspCompiler(ScheduleCompiler):
    def compile_kernels(self, module: ModuleOp, sources: Any = None) -> dict:
        """The kernels lowered, allocated and assembled: the chip's program."""
        passes = self.target.backend_pipeline(self.options)
        run_pipeline(make_context(), module, passes, sources)
        return assemble(assembly_text(module))


def assemble(text: str) -> dict[str, "Kernel"]:
    """An assembly text's kernels by name: the program the chip runs."""
    kernels = [Kernel(*part.split("\n", 1)) for part in text.split(".kernel ")[1:]]
    return {kernel.name: kernel for kernel in kernels}


def nest(lines: Iterator[str]) -> list:
    """Each line split once, up to the `endloop` of the loop whose body they
    are (or the last line), each loop's lines nested in it."""
    code = []
    for mnemonic, *fields in (line.replace(",", " ").split() for line in lines):
        code.append((mnemonic, fields, nest(lines) if mnemonic == "loop" else []))
        if mnemonic == "endloop":
            break
    return code


class Kernel(HostKernel):
    """The simulator: a kernel's lines run on sixteen registers of four
    32-bit lanes, each instruction as `ISA` says."""

    def __init__(self, header: str, body: str):
        self.name, *kinds = header.split(", ")  # .kernel name, buffer or scalar, ...
        self.buffer_parameters = [kind == "buffer" for kind in kinds]
        self.code = nest(iter(body.splitlines()))  # (mnemonic, fields, body) a line

    def run(self, grid: tuple[int, ...], arguments: list) -> None:
        """Q4's one core runs the whole kernel, whatever the grid."""
        with np.errstate(all="ignore"):
            self.execute(self.code, np.zeros((REGISTERS, LANES), BITS), arguments)

    def execute(self, code: list, registers: np.ndarray, arguments: list) -> Any:
        """Each line of `code` in turn (a loop's body, trip after trip, up to
        its `endloop`, which names the carried registers' next values)."""
        for mnemonic, fields, body in code:
            if mnemonic == "endloop":
                return [int(field[1:]) for field in fields]
            rd, *rs = [int(field[1:]) for field in fields if field[0] == "r"]
            if mnemonic == "loop":  # loop rd, carried rs..., start, step, count, lanes
                start, step, count, lanes = map(int, fields[-4:])
                for trip in range(0, count, lanes):
                    iteration = np.minimum(trip + np.arange(LANES) % lanes, count - 1)
                    registers[rd] = (start + step * iteration).astype(I32)
                    registers[rs] = registers[self.execute(body, registers, arguments)]
            elif mnemonic in ISA:
                lanes, meaning = ISA[mnemonic][2:]
                result = meaning(*[registers[source].view(lanes) for source in rs])
                registers[rd] = result if result.dtype == bool else result.view(BITS)
            elif mnemonic in ("li", "lf", "argf"):  # rd = k, or argument k
                value = arguments[int(fields[1])] if mnemonic == "argf" else fields[1]
                kind = I32 if mnemonic == "li" else F32
                registers[rd] = np.array(value, kind).view(BITS)
            else:  # ld rd, ra, k / st rs, ra, k: the word ra of buffer k
                words = arguments[int(fields[2])].handle.view(BITS)
                index = registers[rs[0]].view(I32)
                if index.min() < 0 or index.max() >= len(words):
                    why = f"{mnemonic} of word {index} of {len(words)}"
                    raise XlirError(f"error: @{self.name}: {why}")
                if mnemonic == "ld":
                    registers[rd] = words[index]
                else:
                    words[index] = registers[rd]
