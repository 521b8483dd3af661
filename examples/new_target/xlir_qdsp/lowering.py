"""From xlir's loop level to Q4's assembly: each `loop.kernel` rewritten op by
op into a `qdsp.kernel` (`REWRITES`, any other op one instruction of `ISA`),
its registers allocated by xDSL's allocator, then printed."""

import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

from xdsl.backend.assembly_printer import AssemblyPrinter
from xdsl.backend.block_naive_allocator import BlockNaiveAllocator
from xdsl.backend.register_allocator import live_ins_per_block
from xdsl.backend.register_stack import RegisterStack
from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp

from xlir.api import load_module
from xlir.diagnostics import XlirError, format_at_op
from xlir_qdsp import dialect as qdsp

F32, I32, I1 = builtin.f32, builtin.i32, builtin.i1
SCALARS = (F32, I32, I1, builtin.IndexType())  # what a register's lane holds
MNEMONICS = {op: mnemonic for mnemonic, (op, *_) in qdsp.ISA.items() if op}


class KernelLowering:
    """One `loop.kernel` rewritten into `self.kernel`; what Q4 cannot run goes
    to `problems`, by kind."""

    def __init__(self, kernel: KernelOp, problems: dict[str, list[Operation]]):
        self.block, self.problems = Block(arg_types=kernel.argument_types), problems
        self.values: dict[SSAValue, SSAValue] = {}  # loop level: qdsp
        self.buffers = {arg: k for k, arg in enumerate(kernel.body.block.args)}
        for k, arg in enumerate(kernel.body.block.args):
            if arg.type in SCALARS:
                read = "argf" if arg.type == F32 else "argi"
                self.values[arg] = self.emit(read, imm=k)
            elif not isinstance(arg.type, builtin.MemRefType):
                problems.setdefault(f"a {arg.type} argument", []).append(kernel)
        self.body(kernel.body.block)
        name = {"sym_name": builtin.StringAttr(kernel.sym_name.data)}
        self.kernel = qdsp.KernelOp(properties=name, regions=[Region(self.block)])

    def emit(self, mnemonic: str, *reads: SSAValue, imm: float | None = None):
        """Append an instruction; the value it writes (none: `st`)."""
        op = qdsp.instruction(mnemonic, *reads, imm=imm)
        self.block.add_op(op)
        return op.results[0] if op.results else None

    def scaled(self, mnemonic: str, value: SSAValue, constant: int) -> SSAValue:
        """`mnemonic value, constant`, or `value` where that changes nothing."""
        if constant == (0 if mnemonic == "iadd" else 1):
            return value
        return self.emit(mnemonic, value, self.emit("li", imm=constant))

    def body(self, block: Block) -> None:
        for op in block.ops:
            why = "a result of a type other than f32, i32, i1 or index"
            if all(v.type in SCALARS for v in op.results):
                why = REWRITES.get(type(op), KernelLowering.elementwise)(self, op)
            if why is not None:
                self.problems.setdefault(f"'{op.name}': {why}", []).append(op)
                self.values.update((r, self.emit("li", imm=0)) for r in op.results)

    def elementwise(self, op: Operation) -> str | None:
        """The instruction of `ISA` that runs the op (a compare: its predicate)."""
        source = op.name
        if isinstance(op, arith.CmpfOp):
            source += " " + arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        if isinstance(op, arith.CmpiOp):
            source += " " + arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if source not in MNEMONICS:
            return "no qdsp instruction"
        if I1 in op.result_types and MNEMONICS[source] in ("iadd", "isub", "imul"):
            return "i1 arithmetic"  # 32-bit lanes do not wrap modulo 2
        reads = [self.values[v] for v in op.operands]
        self.values[op.results[0]] = self.emit(MNEMONICS[source], *reads)

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value.value.data  # pyright: ignore[reportAttributeAccessIssue]
        value = value & 1 if op.result.type == I1 else value  # true: 1, not -1
        kind = "lf" if op.result.type == F32 else "li"
        self.values[op.result] = self.emit(kind, imm=value)

    def memory(self, op: LoadOp | StoreOp) -> str | None:
        """Each lane's word: the row-major number of its element."""
        memref = op.buffer.type
        assert isinstance(memref, builtin.MemRefType)
        if not (op.buffer in self.buffers and memref.element_type in (F32, I32)
                and isinstance(memref.layout, builtin.NoneAttr)):  # fmt: skip
            return f"a {memref}; expected a row-major kernel argument of f32 or i32"
        indices = [self.values[i] for i in op.indices] or [self.emit("li", imm=0)]
        address, k = indices[0], self.buffers[op.buffer]
        for size, index in zip(memref.get_shape()[1:], indices[1:], strict=True):
            address = self.emit("iadd", self.scaled("imul", address, size), index)
        if isinstance(op, LoadOp):
            self.values[op.result] = self.emit("ld", address, imm=k)
        else:
            self.emit("st", self.values[op.value], address, imm=k)

    def loops(self, op: ForOp | ParallelOp) -> str | None:
        """Each dimension a hardware loop whose counter is the index; the last
        one of a kernel's outer parallel loop four iterations a trip, one a
        lane (the last lane repeated past the end: it stores what the last
        stores). A `loop.for`'s carried values stay in registers."""
        if op.dynamic_lower or op.dynamic_upper or op.dynamic_step:
            return "a loop whose bounds are not constants"
        bounds = zip(op.lower_bounds, op.upper_bounds, op.steps, strict=True)
        # each dimension's start, step and trip count
        dims = [(lo, s, -(-(up - lo) // s)) for lo, up, s in bounds]
        if not dims:  # no dimensions: the body once
            return self.body(op.body.block)
        lanes = qdsp.LANES if isinstance(op.parent_op(), KernelOp) else 1
        vector = len(dims) - 1 if lanes > 1 else None  # the dimension in lanes
        indices: list[SSAValue] = []

        def hardware(dim: int) -> tuple[int, int, int]:
            """The start, step and trip count of dimension dim's loop."""
            trips = dims[dim][2]
            return (0, lanes, -(-trips // lanes)) if dim == vector else dims[dim]

        def fill(counter: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            """The body of dimension len(indices)'s loop."""
            start, step, trips = dims[len(indices)]
            if len(indices) == vector:  # counter: lane 0's trip
                trip = self.emit("iadd", counter, self.emit("lane"))
                trip = self.emit("imin", trip, self.emit("li", imm=trips - 1))
                counter = self.scaled("iadd", self.scaled("imul", trip, step), start)
            indices.append(counter)
            if len(indices) < len(dims):
                return self.loop(*hardware(len(indices)), [], fill)
            block_args = [*indices, *carried]
            self.values.update(zip(op.body.block.args, block_args, strict=True))
            self.body(op.body.block)
            return [self.values[v] for v in op.yield_op().operands]

        inits = [self.values[v] for v in op.operands]  # (constant bounds) carried
        outs = self.loop(*hardware(0), inits, fill)
        self.values.update(zip(op.results, outs, strict=True))

    def loop(self, start: int, step: int, count: int, inits: list[SSAValue],
             fill: Callable[[SSAValue, list[SSAValue]], list[SSAValue]]) -> list[SSAValue]:  # fmt: skip
        """A hardware loop whose body `fill(counter, carried)` emits, returning
        the next trip's values; copied twice, so that no carried register is
        written before the trip's last read of it."""
        registers = [qdsp.Reg.unallocated()] * (1 + len(inits))
        outer, self.block = self.block, Block(arg_types=registers)
        carried = fill(self.block.args[0], list(self.block.args[1:]))
        copies = [self.emit("mv", self.emit("mv", v)) for v in carried]
        self.block.add_op(qdsp.EndLoopOp(operands=[copies]))
        body, self.block = self.block, outer
        bounds = {"start": start, "step": step, "count": count}
        props = {key: builtin.IntegerAttr(value, 32) for key, value in bounds.items()}
        inits = [self.emit("mv", v) for v in inits]  # registers of their own
        loop = qdsp.LoopOp(operands=[inits], result_types=[registers[1:]],
                           properties=props, regions=[Region(body)])  # fmt: skip
        self.block.add_op(loop)
        return list(loop.results)


REWRITES: dict[type[Operation], Callable[[KernelLowering, Any], str | None]] = {
    arith.ConstantOp: KernelLowering.constant,
    LoadOp: KernelLowering.memory,
    StoreOp: KernelLowering.memory,
    ForOp: KernelLowering.loops,
    ParallelOp: KernelLowering.loops,
    YieldOp: lambda *_: None,  # its values: the loop's next trip's
    ReturnOp: lambda *_: None,
}


def lower(module: builtin.ModuleOp, sources: dict[str, str] | None = None) -> None:
    """Each `loop.kernel` as a `qdsp.kernel`; or one diagnostic listing each
    kind of op the chip cannot run, at its first use."""
    problems: dict[str, list[Operation]] = {}
    kernels = [k for k in module.ops if isinstance(k, KernelOp)]
    lowered = [KernelLowering(kernel, problems).kernel for kernel in kernels]
    if problems:
        lines = [f"error: target 'qdsp' cannot run {sum(map(len, problems.values()))} "
                 f"op(s) of this program, of {len(problems)} kind(s):"]  # fmt: skip
        for what, ops in problems.items():
            lines.append(format_at_op(ops[0], f"{what} ({len(ops)} in all)", sources))
        raise XlirError("\n".join(lines))
    for old, new in zip(kernels, lowered, strict=True):
        module.body.block.insert_op_before(new, old)
        module.body.block.erase_op(old)


class LowerToQdspPass(ModulePass):
    name = "convert-loop-to-qdsp"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        lower(op)


class AllocateRegistersPass(ModulePass):
    """r0..r15 for each kernel's values, from its last op up."""

    name = "qdsp-allocate-registers"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        registers = [qdsp.Reg.from_index(i) for i in reversed(range(16))]
        for kernel in op.ops:
            if isinstance(kernel, qdsp.KernelOp):
                allocator = BlockNaiveAllocator(RegisterStack.get(registers), qdsp.Reg)
                allocator.live_ins_per_block = live_ins_per_block(kernel.body.block)
                try:
                    allocator.allocate_block(kernel.body.block)
                except DiagnosticException:
                    name = kernel.sym_name.data
                    raise XlirError(
                        f"error: @{name} needs more than 16 registers"
                    ) from None


def assembly(module: builtin.ModuleOp) -> str:
    """The text of the module's allocated kernels: each op's line."""
    printer = AssemblyPrinter(stream=StringIO())
    for kernel in module.ops:
        if isinstance(kernel, qdsp.KernelOp):
            for op in kernel.walk():
                op.print_assembly(printer)  # pyright: ignore[reportAttributeAccessIssue]
    return printer.stream.getvalue()


def main() -> None:
    """`qdsp-asm FILE`: the assembly of a loop-level file's kernels."""
    try:
        module, sources = load_module(Path(sys.argv[1]))
        lower(module, sources)
        AllocateRegistersPass().apply(Context(), module)
    except XlirError as error:
        sys.exit(str(error))
    print(assembly(module), end="")
