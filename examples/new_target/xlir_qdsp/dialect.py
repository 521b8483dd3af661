"""`qdsp`: Q4's assembly as an xDSL dialect, in the style of xDSL's riscv and
x86 ones: a register type, one op per instruction with a declarative format,
one line of assembly per op. `ISA` says once what each instruction reads and
computes, for its op, the lowering and the simulator."""

import numpy as np
from xdsl import irdl
from xdsl.backend import register_allocatable as allocatable
from xdsl.backend.assembly_printer import AssemblyPrinter, reg
from xdsl.backend.assembly_printer import OneLineAssemblyPrintable as OneLine
from xdsl.backend.register_allocator import BlockAllocator
from xdsl.backend.register_type import RegisterType
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.traits import IsTerminator, NoTerminator, SymbolOpInterface
from xlir.dialects.device import LaunchableKernel

LANES = 4
F, S, U = np.float32, np.int32, np.uint32  # lanes read as f32, i32 or bits
ISA = {  # mnemonic: (the loop-level op it runs, registers read, lanes, meaning)
    "fadd": ("arith.addf", 2, F, np.add), "fsub": ("arith.subf", 2, F, np.subtract),
    "fmul": ("arith.mulf", 2, F, np.multiply), "fdiv": ("arith.divf", 2, F, np.divide),
    "fmax": ("arith.maximumf", 2, F, np.maximum), "fneg": ("arith.negf", 1, F, np.negative),
    "fmin": ("arith.minimumf", 2, F, np.minimum), "fexp": ("math.exp", 1, F, np.exp),
    "ftanh": ("math.tanh", 1, F, np.tanh), "fsqrt": ("math.sqrt", 1, F, np.sqrt),
    "frsqrt": ("math.rsqrt", 1, F, lambda x: 1 / np.sqrt(x)),
    "fcmp.oeq": ("arith.cmpf oeq", 2, F, np.equal), "fcmp.une": ("arith.cmpf une", 2, F, np.not_equal),
    "fcmp.olt": ("arith.cmpf olt", 2, F, np.less), "fcmp.ole": ("arith.cmpf ole", 2, F, np.less_equal),
    "fcmp.ogt": ("arith.cmpf ogt", 2, F, np.greater), "fcmp.oge": ("arith.cmpf oge", 2, F, np.greater_equal),
    "iadd": ("arith.addi", 2, S, np.add), "isub": ("arith.subi", 2, S, np.subtract),
    "imul": ("arith.muli", 2, S, np.multiply), "icmp.slt": ("arith.cmpi slt", 2, S, np.less),
    "icmp.eq": ("arith.cmpi eq", 2, S, np.equal), "and": ("arith.andi", 2, U, np.bitwise_and),
    "or": ("arith.ori", 2, U, np.bitwise_or), "mv": ("arith.index_cast", 1, U, np.copy),
    "sel": ("arith.select", 3, U, lambda c, a, b: np.where(c != 0, a, b)),
    # the lowering's own: indices and addresses; each lane's number
    "idiv": (None, 2, S, np.floor_divide), "irem": (None, 2, S, np.remainder),
    "imin": (None, 2, S, np.minimum), "lane": (None, 0, U, lambda: np.arange(LANES)),
}  # fmt: skip
INT, FLOAT = builtin.IntegerAttr[builtin.I32], builtin.FloatAttr[builtin.Float32Type]
MEMORY = {  # mnemonic: (registers read, registers written, immediate k)
    "li": (0, 1, INT),  # rd = k
    "lf": (0, 1, FLOAT),  # rd = k
    "argi": (0, 1, INT),  # rd = the kernel's i32 argument k
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
        return {f"r{i}": i for i in range(16)}

    @classmethod
    def infinite_register_prefix(cls) -> str:
        return "spill"


class Instruction(irdl.IRDLOperation, allocatable.HasRegisterConstraints, OneLine):
    """`mnemonic` written registers, read registers, immediate."""

    def get_register_constraints(self) -> allocatable.RegisterConstraints:
        return allocatable.RegisterConstraints(self.operands, self.results, ())

    def assembly_line(self) -> str:
        fields = [reg(v) for v in (*self.results, *self.operands)]
        if (imm := self.properties.get("imm")) is not None:
            fields.append(repr(imm.value.data))  # pyright: ignore[reportAttributeAccessIssue]
        return AssemblyPrinter.assembly_line(self.name[5:], ", ".join(fields))


def instruction_op(mnemonic: str, reads: int, writes=1, imm=None) -> type[Instruction]:
    """An instruction's op: the registers it reads are operands, the one it
    writes a result, its immediate a property."""
    names = ["rs1", "rs2", "rs3"][:reads] + ["imm"] * (imm is not None)
    fields: dict = {name: irdl.operand_def(Reg) for name in names[:reads]}
    fields |= {"rd": irdl.result_def(Reg)} if writes else {}
    fields |= {"imm": irdl.prop_def(imm)} if imm else {}
    syntax = " `,` ".join(f"${name}" for name in names)
    types = "functional-type(operands, results)" if writes else "type(operands)"
    types = types if reads else "type($rd)"
    fields["assembly_format"] = f"{syntax} attr-dict `:` {types}"
    fields |= {"name": f"qdsp.{mnemonic}", "__module__": __name__}
    return irdl.irdl_op_definition(type(mnemonic, (Instruction,), fields))


INSTRUCTIONS = {
    **{m: instruction_op(m, reads) for m, (_, reads, _, _) in ISA.items()},
    **{m: instruction_op(m, *shape) for m, shape in MEMORY.items()},
}


def instruction(mnemonic: str, *reads: SSAValue, imm: float | None = None) -> Operation:
    """An instruction, the register it writes not allocated yet."""
    kind = builtin.FloatAttr if mnemonic == "lf" else builtin.IntegerAttr
    props: dict[str, Attribute] = {} if imm is None else {"imm": kind(imm, 32)}
    written = [Reg.unallocated()] * (mnemonic != "st")
    return INSTRUCTIONS[mnemonic](
        operands=reads, result_types=written, properties=props
    )


@irdl.irdl_op_definition
class LoopOp(irdl.IRDLOperation, allocatable.RegisterAllocatableOperation, OneLine):
    """`loop r, start, step, count` ... `endloop`: a hardware loop, its body
    run `count` times, r = start + step * trip. The body's other arguments
    are the values carried from trip to trip, each in one register."""

    name = "qdsp.loop"
    inits = irdl.var_operand_def(Reg)
    outs = irdl.var_result_def(Reg)
    start, step, count = (irdl.prop_def(INT) for _ in range(3))
    body = irdl.region_def("single_block")

    def allocate_registers(self, allocator: BlockAllocator) -> None:
        """As xDSL's riscv_scf.for: the body's live-ins, then one register
        for each carried value (operand, argument, `endloop`'s, result)."""
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

    def assembly_line(self) -> str:
        bounds = [str(b.value.data) for b in (self.start, self.step, self.count)]
        fields = ", ".join([reg(self.body.block.args[0]), *bounds])
        return AssemblyPrinter.assembly_line("loop", fields)


@irdl.irdl_op_definition
class EndLoopOp(Instruction):
    """The end of a loop's body: the values of the next trip."""

    name = "qdsp.endloop"
    values = irdl.var_operand_def(Reg)
    traits = irdl.traits_def(IsTerminator())
    assembly_format = "($values^ `:` type($values))? attr-dict"


@irdl.irdl_op_definition
class KernelOp(irdl.IRDLOperation, OneLine):
    """A kernel: its arguments are the launch's, buffers of 32-bit words
    (`ld` and `st` name them by position) and scalars (`argf`, `argi`)."""

    name = "qdsp.kernel"
    sym_name = irdl.prop_def(builtin.StringAttr)
    body = irdl.region_def("single_block")
    traits = irdl.traits_def(NoTerminator(), SymbolOpInterface(), LaunchableKernel())
    assembly_format = "$sym_name attr-dict-with-keyword $body"

    def assembly_line(self) -> str:
        args = self.body.block.args
        kinds = [
            "buffer" if isinstance(a.type, builtin.MemRefType) else "scalar"
            for a in args
        ]
        return f".kernel {', '.join([self.sym_name.data, *kinds])}"


Qdsp = Dialect("qdsp", [*INSTRUCTIONS.values(), LoopOp, EndLoopOp, KernelOp], [Reg])
