"""From xlir's loop level to Q4's instructions: each `loop.kernel` rewritten
op by op into a `qdsp.kernel` (`REWRITES`; any other op, the instruction of
`ISA` that runs it), then its registers allocated by xDSL's allocator."""

from collections.abc import Callable
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xlir.dialects.arith import full_name
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.register_allocation import allocate_block
from xlir.passes.loop.split_parallel import SplitParallelPass

from xlir.diagnostics import XlirError, refuse_ops
from xlir_qdsp import dialect as qdsp

F32, I1 = builtin.f32, builtin.i1
SCALARS = (F32, builtin.i32, I1, builtin.IndexType())  # what a lane holds
MNEMONICS = {op: mnemonic for mnemonic, (op, *_) in qdsp.ISA.items() if op}


class KernelLowering:
    """One `loop.kernel` rewritten into `self.kernel`; what Q4 cannot run
    goes to `problems`."""

    def __init__(self, kernel: KernelOp, problems: list[tuple[Operation, str]]):
        self.block, self.problems = Block(arg_types=kernel.argument_types), problems
        self.values: dict[SSAValue, Any] = {}  # loop level: qdsp
        self.buffers = {arg: k for k, arg in enumerate(kernel.body.block.args)}
        for k, arg in enumerate(kernel.body.block.args):
            if arg.type == F32:
                self.values[arg] = self.emit("argf", imm=k)
            elif not isinstance(arg.type, builtin.MemRefType):
                why = f"'loop.kernel' takes an argument of {arg.type}"
                problems.append((kernel, why))
                self.values[arg] = self.emit("li", imm=0)  # so that its uses lower
        self.body(kernel.body.block)
        name = {"sym_name": kernel.sym_name}
        self.kernel = qdsp.KernelOp(properties=name, regions=[Region(self.block)])

    def emit(self, mnemonic: str, *reads: SSAValue, **imm: float) -> Any:
        """Append an instruction; the register it writes (`st`: none)."""
        out = [qdsp.Reg.unallocated()] * (mnemonic != "st")
        op = qdsp.INSTRUCTIONS[mnemonic].make(reads, out, **imm)
        self.block.add_op(op)
        return op.results[0] if op.results else None

    def body(self, block: Block) -> None:
        for op in list(block.ops)[:-1]:  # the terminator: its loop's or kernel's end
            why = "has a result of a type other than f32, i32, i1 or index"
            if all(v.type in SCALARS for v in op.results):
                why = REWRITES.get(type(op), KernelLowering.elementwise)(self, op)
            if why is not None:
                self.problems.append((op, f"'{full_name(op)}' {why}"))
                self.values.update((r, self.emit("li", imm=0)) for r in op.results)

    def elementwise(self, op: Operation) -> str | None:
        """The instruction of `ISA` that runs the op."""
        if full_name(op) not in MNEMONICS:
            return "has no qdsp instruction"
        reads = [self.values[v] for v in op.operands]
        self.values[op.results[0]] = self.emit(MNEMONICS[full_name(op)], *reads)

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value.value.data  # pyright: ignore[reportAttributeAccessIssue]
        value = value & 1 if op.result.type == I1 else value  # true: 1, not -1
        kind = "lf" if op.result.type == F32 else "li"
        self.values[op.result] = self.emit(kind, imm=value)

    def memory(self, op: LoadOp | StoreOp) -> str | None:
        """Each lane's word: the row-major number of its element."""
        memref = op.buffer.type
        assert isinstance(memref, builtin.MemRefType)
        if not (op.buffer in self.buffers and memref.element_type in (F32, builtin.i32)
                and isinstance(memref.layout, builtin.NoneAttr)):  # fmt: skip
            return f"on a {memref}; expected a row-major kernel argument of f32 or i32"
        indices = [self.values[i] for i in op.indices] or [self.emit("li", imm=0)]
        address, k = indices[0], self.buffers[op.buffer]
        for size, index in zip(memref.get_shape()[1:], indices[1:], strict=True):
            row = self.emit("imul", address, self.emit("li", imm=size))
            address = self.emit("iadd", row, index)
        if isinstance(op, LoadOp):
            self.values[op.result] = self.emit("ld", address, imm=k)
        else:
            self.emit("st", self.values[op.value], address, imm=k)

    def loop(self, op: ForOp | ParallelOp) -> str | None:
        """A hardware loop, its counter the index, its carried values in registers
        of their own; a parallel loop with none inside runs an iteration a lane."""
        if op.dynamic_lower or op.dynamic_upper or op.dynamic_step:
            return "has bounds that are not constants"
        (start,), (end,), (step,) = op.lower_bounds, op.upper_bounds, op.steps
        inner = any(isinstance(o, ParallelOp) for o in op.body.walk())
        bounds = {"start": start, "step": step, "count": -(-(end - start) // step)}
        bounds["lanes"] = qdsp.LANES if isinstance(op, ParallelOp) and not inner else 1
        inits = [self.emit("mv", self.values[v]) for v in op.operands]
        body = Block(arg_types=[qdsp.Reg.unallocated()] * len(op.body.block.args))
        props = {key: builtin.IntegerAttr(value, 32) for key, value in bounds.items()}
        loop = qdsp.LoopOp(operands=[inits], result_types=[body.arg_types[1:]],
                           properties=props, regions=[Region(body)])  # fmt: skip
        self.block.add_op(loop)
        outer, self.block = self.block, body
        self.values.update(zip(op.body.block.args, self.block.args, strict=True))
        self.body(op.body.block)
        yielded = [self.values[v] for v in op.yield_op().operands]
        self.block.add_op(qdsp.EndLoopOp(*yielded))
        self.block = outer
        self.values.update(zip(op.results, loop.results, strict=True))


REWRITES: dict[type[Operation], Callable[[KernelLowering, Any], str | None]] = {
    arith.ConstantOp: KernelLowering.constant,
    LoadOp: KernelLowering.memory,
    StoreOp: KernelLowering.memory,
    ForOp: KernelLowering.loop,
    ParallelOp: KernelLowering.loop,
}


class LowerToQdspPass(ModulePass):
    """Each `loop.kernel` as a `qdsp.kernel`, or one diagnostic listing every
    op the chip cannot run."""

    name = "convert-loop-to-qdsp"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        SplitParallelPass().apply(ctx, op)  # a hardware loop runs one dimension
        problems: list[tuple[Operation, str]] = []
        kernels = [k for k in op.ops if isinstance(k, KernelOp)]
        lowered = [KernelLowering(kernel, problems).kernel for kernel in kernels]
        refuse_ops("target 'qdsp' cannot run", problems, "of this program")
        for old, new in zip(kernels, lowered, strict=True):
            Rewriter.replace_op(old, new)


class AllocateRegistersPass(ModulePass):
    """r0..r15 for each kernel's values, from its last op up."""

    name = "qdsp-allocate-registers"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        registers = [qdsp.Reg.from_index(i) for i in reversed(range(qdsp.REGISTERS))]
        for kernel in [k for k in op.ops if isinstance(k, qdsp.KernelOp)]:
            if allocate_block(kernel.body.block, registers, qdsp.Reg):  # spills
                why = f"@{kernel.sym_name.data} needs more than 16 registers"
                raise XlirError(f"error: {why}")
