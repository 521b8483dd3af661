"""`qdsp`: Q4's assembly as an xDSL dialect, as xDSL's riscv and x86 ones: a
register type, one op per instruction with a declarative format, one line of
assembly per op. `ISA` says once what each instruction reads and computes."""

import numpy as np
from xdsl import irdl
from xdsl.backend.assembly_printer import AssemblyPrinter, OneLineAssemblyPrintable, reg
from xdsl.backend.register_allocator import BlockAllocator
from xdsl.backend.register_type import RegisterType
from xdsl.dialects import builtin
from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Dialect
from xdsl.traits import IsTerminator, NoTerminator, SymbolOpInterface
from xlir.dialects.device import LaunchableKernel
from xlir.dialects.instruction_op import Instruction, instruction_op
from xlir.dialects.register_allocation import RegisterLoop

LANES, REGISTERS = 4, 16
F32, I32, BITS = np.float32, np.int32, np.uint32  # how an instruction reads lanes
ISA = {  # mnemonic: (the loop-level op it runs, registers read, lanes, meaning)
    "fadd": ("arith.addf", 2, F32, np.add),
    "fsub": ("arith.subf", 2, F32, np.subtract),
    "fmul": ("arith.mulf", 2, F32, np.multiply),
    "fdiv": ("arith.divf", 2, F32, np.divide),
    "fmax": ("arith.maximumf", 2, F32, np.maximum),
    "fmin": ("arith.minimumf", 2, F32, np.minimum),
    "fneg": ("arith.negf", 1, F32, np.negative),
    "fexp": ("math.exp", 1, F32, np.exp),
    "ftanh": ("math.tanh", 1, F32, np.tanh),
    "fsqrt": ("math.sqrt", 1, F32, np.sqrt),
    "frsqrt": ("math.rsqrt", 1, F32, lambda value: 1 / np.sqrt(value)),
    "fcmp.oeq": ("arith.cmpf oeq", 2, F32, np.equal),
    "fcmp.une": ("arith.cmpf une", 2, F32, np.not_equal),
    "fcmp.ogt": ("arith.cmpf ogt", 2, F32, np.greater),
    "icmp.slt": ("arith.cmpi slt", 2, I32, np.less),
    "and": ("arith.andi", 2, BITS, np.bitwise_and),
    "or": ("arith.ori", 2, BITS, np.bitwise_or),
    "sel": ("arith.select", 3, BITS, lambda mask, a, b: np.where(mask != 0, a, b)),
    "mv": ("arith.index_cast", 1, BITS, np.copy),
    "iadd": (None, 2, I32, np.add),  # the lowering's own: addresses
    "imul": (None, 2, I32, np.multiply),
}
INT, FLOAT = builtin.IntegerAttr[builtin.I32], builtin.FloatAttr[builtin.Float32Type]
MEMORY = {  # mnemonic: (registers read, registers written, immediate k)
    "li": (0, 1, INT),  # rd = k
    "lf": (0, 1, FLOAT),  # rd = k
    "argf": (0, 1, INT),  # rd = the kernel's f32 argument k
    "ld": (1, 1, INT),  # rd = the word rs1 of buffer argument k
    "st": (2, 0, INT),  # the word rs2 of buffer argument k = rs1
}


@irdl.irdl_attr_definition
class Reg(RegisterType):
    """A vector register r0..r15: four 32-bit lanes (f32, i32 or 0/1)."""

    name = "qdsp.reg"

    @classmethod
    def index_by_name(cls) -> dict[str, int]:
        return {f"r{i}": i for i in range(REGISTERS)}

    @classmethod
    def infinite_register_prefix(cls) -> str:
        return "spill"


def instruction(mnemonic: str, reads: int, writes=1, imm=None) -> type[Instruction]:
    """An instruction's op: the registers it reads are operands (`rs1`...),
    the one it writes a result (`rd`), its immediate a property (`imm`)."""
    operands = ["rs1", "rs2", "rs3"][:reads]
    fields: dict = {name: irdl.operand_def(Reg) for name in operands}
    fields |= {"rd": irdl.result_def(Reg)} if writes else {}
    fields |= {"imm": irdl.prop_def(imm)} if imm else {}
    return instruction_op(f"qdsp.{mnemonic}", Instruction, fields)


INSTRUCTIONS = {
    **{m: instruction(m, reads) for m, (_, reads, _, _) in ISA.items()},
    **{m: instruction(m, *shape) for m, shape in MEMORY.items()},
}


@irdl.irdl_op_definition
class LoopOp(irdl.IRDLOperation, RegisterLoop, OneLineAssemblyPrintable):
    """`loop rd, carried..., start, step, count, lanes` ... `endloop`
    (docs/new-hardware.md): the body's arguments are its registers."""

    name = "qdsp.loop"
    inits = irdl.var_operand_def(Reg)
    outs = irdl.var_result_def(Reg)
    start, step, count, lanes = (irdl.prop_def(INT) for _ in range(4))
    body = irdl.region_def("single_block")

    def allocate_registers(self, allocator: BlockAllocator) -> None:
        """A carried value's operand, argument and result: one register."""
        carried = zip(self.inits, self.body.block.args[1:], self.outs, strict=True)
        self.allocate_loop(allocator, carried)

    def assembly_line(self) -> str:
        bounds = (self.start, self.step, self.count, self.lanes)
        fields = [reg(arg) for arg in self.body.block.args]  # rd, carried...
        fields += [str(bound.value.data) for bound in bounds]
        return AssemblyPrinter.assembly_line("loop", ", ".join(fields))


@irdl.irdl_op_definition
class EndLoopOp(AbstractYieldOperation[Reg], Instruction):
    """The end of a loop's body: the next trip's values, which the carried
    registers take all at once."""

    name = "qdsp.endloop"
    traits = irdl.traits_def(IsTerminator())


@irdl.irdl_op_definition
class KernelOp(irdl.IRDLOperation, OneLineAssemblyPrintable):
    """A kernel: its arguments are the launch's, buffers of 32-bit words
    (`ld` and `st` name them by position) and f32 scalars (`argf`)."""

    name = "qdsp.kernel"
    sym_name = irdl.prop_def(builtin.StringAttr)
    body = irdl.region_def("single_block")
    traits = irdl.traits_def(NoTerminator(), SymbolOpInterface(), LaunchableKernel())
    assembly_format = "$sym_name attr-dict-with-keyword $body"

    def assembly_line(self) -> str:
        args = self.body.block.args
        kinds = ["scalar" if arg.type == builtin.f32 else "buffer" for arg in args]
        return f".kernel {', '.join([self.sym_name.data, *kinds])}"


Qdsp = Dialect("qdsp", [*INSTRUCTIONS.values(), LoopOp, EndLoopOp, KernelOp], [Reg])
