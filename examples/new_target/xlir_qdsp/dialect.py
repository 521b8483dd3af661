"""`qdsp`: the assembly of Q4, a made-up DSP with sixteen vector registers
of four 32-bit lanes and no LLVM backend, as an xDSL dialect in the style of
xDSL's riscv and x86 ones: a register type, one op per instruction with a
declarative format, one line of assembly per op. `ISA` is the one
description of the instructions: the ops, the simulator's meaning."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl import irdl
from xdsl.backend.assembly_printer import AssemblyPrintable as Printable
from xdsl.backend.assembly_printer import AssemblyPrinter
from xdsl.backend.assembly_printer import OneLineAssemblyPrintable as OneLine
from xdsl.backend.register_allocatable import (
    HasRegisterConstraints,
    RegisterAllocatableOperation,
    RegisterConstraints,
)
from xdsl.backend.register_allocator import BlockAllocator
from xdsl.backend.register_type import RegisterType
from xdsl.dialects.builtin import (
    I32,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.traits import IsTerminator, NoTerminator, SymbolOpInterface
from xlir.dialects.device import LaunchableKernel

F, S, U = np.float32, np.int32, np.uint32  # how an instruction reads its lanes
ORDER = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
         "gt": np.greater, "ge": np.greater_equal}  # fmt: skip


def unordered(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.isnan(a) | np.isnan(b)


ISA: dict[str, tuple[int, type, Callable[..., np.ndarray]]] = {
    # mnemonic: (registers read, lane type, meaning per lane)
    "fadd": (2, F, np.add), "fsub": (2, F, np.subtract), "fmul": (2, F, np.multiply),
    "fdiv": (2, F, np.divide), "fmax": (2, F, np.maximum), "fmin": (2, F, np.minimum),
    "fneg": (1, F, np.negative), "fexp": (1, F, np.exp), "ftanh": (1, F, np.tanh),
    "fsqrt": (1, F, np.sqrt), "frsqrt": (1, F, lambda x: 1 / np.sqrt(x)),
    "iadd": (2, S, np.add), "isub": (2, S, np.subtract), "imul": (2, S, np.multiply),
    "idiv": (2, S, np.floor_divide), "irem": (2, S, np.remainder),
    "imin": (2, S, np.minimum), "and": (2, U, np.bitwise_and),
    "or": (2, U, np.bitwise_or), "xor": (2, U, np.bitwise_xor), "mv": (1, U, np.copy),
    "sel": (3, U, lambda c, a, b: np.where(c != 0, a, b)),
    "lane": (0, U, lambda: np.arange(4)),
    **{f"fcmp.o{p}": (2, F, lambda a, b, f=f: f(a, b) & ~unordered(a, b)) for p, f in ORDER.items()},
    **{f"fcmp.u{p}": (2, F, lambda a, b, f=f: f(a, b) | unordered(a, b)) for p, f in ORDER.items()},
    "fcmp.ord": (2, F, lambda a, b: ~unordered(a, b)), "fcmp.uno": (2, F, unordered),
    **{f"icmp.{p}": (2, S, ORDER[p]) for p in ("eq", "ne")},
    **{f"icmp.{s}{p}": (2, t, ORDER[p]) for s, t in (("s", S), ("u", U)) for p in ("lt", "le", "gt", "ge")},
}  # fmt: skip


LANES = 4


@irdl.irdl_attr_definition
class Reg(RegisterType):
    """A vector register r0..r15: four 32-bit lanes (f32, i32 or 0/1)."""

    name = "qdsp.reg"

    @classmethod
    def index_by_name(cls) -> dict[str, int]:
        return {f"r{i}": i for i in range(16)}

    @classmethod
    def infinite_register_prefix(cls) -> str:
        return "spill"


def register(value: SSAValue) -> str:
    assert isinstance(value.type, Reg) and value.type.is_allocated, value
    return value.type.register_name.data


class Instruction(irdl.IRDLOperation, HasRegisterConstraints, OneLine):
    """`mnemonic` written registers, read registers, immediate."""

    def get_register_constraints(self) -> RegisterConstraints:
        return RegisterConstraints(self.operands, self.results, ())

    def assembly_line(self) -> str | None:
        fields = [register(v) for v in (*self.results, *self.operands)]
        imm = self.properties.get("imm")
        if isinstance(imm, IntegerAttr | FloatAttr):
            fields.append(repr(imm.value.data))
        return AssemblyPrinter.assembly_line(self.name[5:], ", ".join(fields))


def _instruction(mnemonic: str, reads: int, writes: bool, imm: object) -> type:
    """The op of `mnemonic`: `reads` registers read, one written or none,
    an immediate of type `imm` (an attribute class) or none."""
    names = ("rs1", "rs2", "rs3")[:reads]
    fields = {name: irdl.operand_def(Reg) for name in names}
    fields |= {"rd": irdl.result_def(Reg)} if writes else {}
    fields |= {"imm": irdl.prop_def(imm)} if imm else {}
    types = {(True, True): "functional-type(operands, results)",
             (True, False): "type(operands)", (False, True): "type($rd)"}  # fmt: skip
    syntax = " `,` ".join([f"${n}" for n in (*names, *fields.keys() & {"imm"})])
    kind = types.get((reads > 0, writes))
    fields["assembly_format"] = f"{syntax} attr-dict" + (f" `:` {kind}" if kind else "")
    fields |= {"name": f"qdsp.{mnemonic}", "__module__": __name__}
    title = "".join(part.capitalize() for part in mnemonic.split(".")) + "Op"
    return irdl.irdl_op_definition(type(title, (Instruction,), fields))


INSTRUCTIONS: dict[str, type] = {
    **{m: _instruction(m, reads, True, None) for m, (reads, _, _) in ISA.items()},
    "li": _instruction("li", 0, True, IntegerAttr[I32]),  # rd = an integer
    "lf": _instruction("lf", 0, True, FloatAttr[Float32Type]),  # rd = a float
    "argf": _instruction("argf", 0, True, IntegerAttr[I32]),  # rd = f32 argument k
    "argi": _instruction("argi", 0, True, IntegerAttr[I32]),  # rd = i32 argument k
    "ld": _instruction("ld", 1, True, IntegerAttr[I32]),  # rd = word rs1 of buffer k
    "st": _instruction("st", 2, False, IntegerAttr[I32]),  # word rs2 of buffer k = rs1
    "ret": _instruction("ret", 0, False, None),  # the kernel's end
}


def instruction(mnemonic: str, *reads: SSAValue, imm: float | None = None) -> Operation:
    """An op of `INSTRUCTIONS`, its register unallocated."""
    written = [] if mnemonic in ("st", "ret") else [Reg.unallocated()]
    props: dict[str, Attribute] = {}
    if imm is not None:
        props["imm"] = FloatAttr(imm, 32) if mnemonic == "lf" else IntegerAttr(imm, 32)
    return INSTRUCTIONS[mnemonic](
        operands=reads, result_types=written, properties=props
    )


@irdl.irdl_op_definition
class LoopOp(irdl.IRDLOperation, RegisterAllocatableOperation, Printable):
    """`loop riv, start, step, count` ... `endloop`: a hardware loop, its body
    run `count` times, riv = start + step * trip. Its other block arguments
    are the carried values, in one register each with an operand, a result
    and an operand of `endloop`. `ploop` (`split`): the blocks of a launch's
    grid each run a share of the trips."""

    name = "qdsp.loop"
    inits = irdl.var_operand_def(Reg)
    outs = irdl.var_result_def(Reg)
    start, step, count = (irdl.prop_def(IntegerAttr[I32]) for _ in range(3))
    split = irdl.opt_prop_def(IntegerAttr[I32])
    body = irdl.region_def("single_block")

    def allocate_registers(self, allocator: BlockAllocator) -> None:
        """As xDSL's riscv_scf.for: live-ins first, then the carried values."""
        block, end = self.body.block, self.body.block.last_op
        assert end is not None
        for value in allocator.live_ins_per_block[block]:
            allocator.allocate_value(value)
        carried = zip(block.args[1:], self.inits, end.operands, self.outs, strict=True)
        for group in carried:
            allocator.allocate_values_same_reg(group)
        allocator.allocate_value(block.args[0])
        registers = [v.type for v in block.args[1:] if isinstance(v.type, Reg)]
        with allocator.available_registers.reserve_registers(registers):
            allocator.allocate_block(block)

    def update_liveness(self, ctx: object) -> None:
        raise NotImplementedError("qdsp.loop is allocated block-naively only")

    def print_assembly(self, printer: AssemblyPrinter) -> None:
        bounds = [str(b.value.data) for b in (self.start, self.step, self.count)]
        fields = ", ".join([register(self.body.block.args[0]), *bounds])
        mnemonic = "ploop" if self.split else "loop"
        printer.print_string(AssemblyPrinter.assembly_line(mnemonic, fields) + "\n")


@irdl.irdl_op_definition
class EndLoopOp(irdl.IRDLOperation, OneLine):
    """The end of a loop's body: the loop-carried values of the next trip."""

    name = "qdsp.endloop"
    values = irdl.var_operand_def(Reg)
    traits = irdl.traits_def(IsTerminator())
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def assembly_line(self) -> str | None:
        return AssemblyPrinter.assembly_line("endloop", "")


@irdl.irdl_op_definition
class KernelOp(irdl.IRDLOperation, Printable):
    """A kernel: its block arguments are the launch's arguments, buffers of
    32-bit words that `ld` and `st` name by position, and scalars."""

    name = "qdsp.kernel"
    sym_name = irdl.prop_def(StringAttr)
    body = irdl.region_def("single_block")
    traits = irdl.traits_def(NoTerminator(), SymbolOpInterface(), LaunchableKernel())
    assembly_format = "$sym_name attr-dict-with-keyword $body"

    def print_assembly(self, printer: AssemblyPrinter) -> None:
        kinds = [isinstance(a.type, MemRefType) for a in self.body.block.args]
        fields = ["buffer" if kind else "scalar" for kind in kinds]
        printer.print_string(f".kernel {', '.join([self.sym_name.data, *fields])}\n")


Qdsp = Dialect("qdsp", [*INSTRUCTIONS.values(), LoopOp, EndLoopOp, KernelOp], [Reg])
