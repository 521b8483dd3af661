"""From xlir's loop level to `qdsp`: each `loop.kernel` becomes a
`qdsp.kernel`, one rewrite per kind of op (`REWRITES`). The four lanes run
four iterations of a kernel's outer `loop.parallel` at once; inner loops run
in every lane on hardware loops, a reduction's values in registers."""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp

from xlir.diagnostics import XlirError, format_at_op
from xlir_qdsp import dialect as qdsp

MNEMONICS: dict[type[Operation], str] = {
    arith.AddfOp: "fadd", arith.SubfOp: "fsub", arith.MulfOp: "fmul",
    arith.DivfOp: "fdiv", arith.MaximumfOp: "fmax", arith.MinimumfOp: "fmin",
    arith.AddiOp: "iadd", arith.SubiOp: "isub", arith.MuliOp: "imul",
    arith.AndIOp: "and", arith.OrIOp: "or", arith.XOrIOp: "xor", arith.NegfOp: "fneg",
    math.ExpOp: "fexp", math.TanhOp: "ftanh", math.SqrtOp: "fsqrt",
    math.RsqrtOp: "frsqrt", arith.IndexCastOp: "mv", arith.SelectOp: "sel",
}  # fmt: skip
WORDS = (Float32Type(), IntegerType(32))
LANE_TYPES = (*WORDS, IndexType(), IntegerType(1))
Problems = dict[str, list[Operation]]


class KernelLowering:
    """One `loop.kernel` rewritten into `self.kernel`, a `qdsp.kernel`; what
    the chip cannot run goes to `problems`, by kind."""

    def __init__(self, kernel: KernelOp, problems: Problems):
        self.block, self.problems = Block(arg_types=kernel.argument_types), problems
        self.values: dict[SSAValue, SSAValue] = {}
        self.buffers = {arg: n for n, arg in enumerate(kernel.body.block.args)}
        for n, arg in enumerate(kernel.body.block.args):
            if arg.type in LANE_TYPES:  # a scalar argument
                read = "argf" if arg.type == Float32Type() else "argi"
                self.values[arg] = self.emit(read, imm=n)
            elif not isinstance(arg.type, MemRefType):
                problems.setdefault(f"a {arg.type} argument", []).append(kernel)
        self.body(kernel.body.block)
        self.emit("ret")
        name = {"sym_name": StringAttr(kernel.sym_name.data)}
        self.kernel = qdsp.KernelOp(properties=name, regions=[Region(self.block)])

    def emit(self, mnemonic: str, *reads: SSAValue, imm: float | None = None):
        op = qdsp.instruction(mnemonic, *reads, imm=imm)
        self.block.add_op(op)
        return ([*op.results, *reads, None])[0]

    def scaled(self, mnemonic: str, value: SSAValue, constant: int) -> SSAValue:
        """`mnemonic value, constant`, or `value` where that changes nothing."""
        if constant == (0 if mnemonic == "iadd" else 1):
            return value
        return self.emit(mnemonic, value, self.emit("li", imm=constant))

    def body(self, block: Block) -> None:
        for op in block.ops:
            rewrite = REWRITES.get(type(op))
            why = "no qdsp instruction" if rewrite is None else None
            if not all(v.type in LANE_TYPES for v in op.results):
                why = "a result of a type other than f32, i32, i1 or index"
            why = why or rewrite(self, op)  # pyright: ignore[reportOptionalCall]
            if why is not None:
                self.problems.setdefault(f"'{op.name}': {why}", []).append(op)
                self.values.update((r, self.emit("li", imm=0)) for r in op.results)

    def loop(self, bounds: tuple[int, ...], inits: list[SSAValue],
             fill: Callable[[SSAValue, list[SSAValue]], list[SSAValue]],
             split: bool = False) -> list[SSAValue]:  # fmt: skip
        """A hardware loop whose body `fill(iv, carried)` emits, returning the
        values of the next trip: copied twice, so that no carried register is
        written before the trip's last read of it."""
        registers = [qdsp.Reg.unallocated()] * (1 + len(inits))
        outer, self.block = self.block, Block(arg_types=registers)
        carried = fill(self.block.args[0], list(self.block.args[1:]))
        copies = [self.emit("mv", self.emit("mv", v)) for v in carried]
        body, self.block = self.block, outer
        body.add_op(qdsp.EndLoopOp(operands=[copies]))
        keys = ("start", "step", "count", "split")[: 3 + split]
        props: dict[str, Attribute] = {
            k: IntegerAttr(b, 32) for k, b in zip(keys, (*bounds, 1), strict=False)
        }
        inits = [self.emit("mv", v) for v in inits]
        loop = qdsp.LoopOp(operands=[inits], result_types=[registers[1:]],
                           properties=props, regions=[Region(body)])  # fmt: skip
        self.block.add_op(loop)
        return list(loop.results)

    def elementwise(self, op: Operation) -> str | None:
        mnemonic = MNEMONICS.get(type(op))
        if isinstance(op, arith.CmpfOp):
            mnemonic = (
                f"fcmp.{arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]}"
            )
        elif isinstance(op, arith.CmpiOp):
            mnemonic = (
                f"icmp.{arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]}"
            )
        if mnemonic in ("iadd", "isub", "imul") and op.results[0].type == IntegerType(
            1
        ):
            return "i1 arithmetic"
        reads = [self.values[v] for v in op.operands]
        self.values[op.results[0]] = self.emit(str(mnemonic), *reads)

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value.value.data  # pyright: ignore[reportAttributeAccessIssue]
        kind = "lf" if op.result.type == Float32Type() else "li"
        value = value & 1 if op.result.type == IntegerType(1) else value
        self.values[op.result] = self.emit(kind, imm=value)

    def memory(self, op: LoadOp | StoreOp) -> str | None:
        """Each lane's word: the row-major number of its element."""
        memref = op.buffer.type
        assert isinstance(memref, MemRefType)
        row_major = isinstance(memref.layout, NoneAttr)
        if (
            op.buffer not in self.buffers
            or memref.element_type not in WORDS
            or not row_major
        ):
            return f"a {memref}; expected a row-major kernel argument of f32 or i32"
        terms = [
            self.scaled("imul", self.values[index], prod(memref.get_shape()[dim + 1 :]))
            for dim, index in enumerate(op.indices)
        ] or [self.emit("li", imm=0)]
        address = terms[0]
        for term in terms[1:]:
            address = self.emit("iadd", address, term)
        if isinstance(op, LoadOp):
            self.values[op.result] = self.emit(
                "ld", address, imm=self.buffers[op.buffer]
            )
        else:
            self.emit("st", self.values[op.value], address, imm=self.buffers[op.buffer])

    def for_loop(self, op: ForOp) -> str | None:
        """A reduction: the values it carries stay in registers."""
        if not all(isinstance(b, int) for b in (op.lower, op.upper, op.step)):
            return "a loop whose bounds are not constants"
        lower, upper, step = (int(b) for b in (op.lower, op.upper, op.step))

        def fill(iv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            self.values.update(zip(op.body.block.args, [iv, *carried], strict=True))
            self.body(op.body.block)
            assert op.body.block.last_op is not None
            return [self.values[v] for v in op.body.block.last_op.operands]

        inits = [self.values[v] for v in op.iter_args]
        bounds = (lower, step, max(0, -(-(upper - lower) // step)))
        self.values.update(zip(op.results, self.loop(bounds, inits, fill), strict=True))

    def parallel(self, op: ParallelOp) -> str | None:
        """Iteration t (row-major) of the kernel's outer parallel loop in lane
        t % 4 (the last one repeated past the end: it stores what the last
        lane stores), of an inner one in every lane, one after another."""
        bounds = [*op.lower_bounds, *op.upper_bounds, *op.steps]
        if not all(isinstance(b, int) for b in bounds):
            return "a loop whose bounds are not constants"
        n = len(op.steps)
        lower, upper, step = (
            [int(b) for b in bounds[k * n : k * n + n]] for k in range(3)
        )
        sizes = [-(-(u - lo) // s) for lo, u, s in zip(lower, upper, step, strict=True)]
        total, outer = prod(sizes), isinstance(op.parent_op(), KernelOp)

        def fill(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            if outer:
                t = self.emit("iadd", t, self.emit("lane"))
                t = self.emit("imin", t, self.emit("li", imm=total - 1))
            for dim, arg in enumerate(op.body.block.args):
                index = self.scaled("idiv", t, prod(sizes[dim + 1 :]))
                if dim:  # t // prod(sizes[1:]) < sizes[0] already
                    index = self.emit("irem", index, self.emit("li", imm=sizes[dim]))
                index = self.scaled("imul", index, step[dim])
                self.values[arg] = self.scaled("iadd", index, lower[dim])
            self.body(op.body.block)
            return []

        lanes = qdsp.LANES if outer else 1
        self.loop((0, lanes, -(-total // lanes)), [], fill, split=outer)


REWRITES: dict[type[Operation], Callable[[KernelLowering, Any], str | None]] = {
    **dict.fromkeys([*MNEMONICS, arith.CmpfOp, arith.CmpiOp], KernelLowering.elementwise),
    arith.ConstantOp: KernelLowering.constant, LoadOp: KernelLowering.memory,
    StoreOp: KernelLowering.memory, ForOp: KernelLowering.for_loop,
    ParallelOp: KernelLowering.parallel, YieldOp: lambda *_: None,
    ReturnOp: lambda *_: None,
}  # fmt: skip


def lower(module: ModuleOp, sources: dict[str, str] | None = None) -> None:
    """Each `loop.kernel` as a `qdsp.kernel`; or one diagnostic listing each
    kind of op the chip cannot run, at its first use."""
    problems: Problems = {}
    kernels = [k for k in module.ops if isinstance(k, KernelOp)]
    lowered = [KernelLowering(kernel, problems).kernel for kernel in kernels]
    if problems:
        lines = [format_at_op(ops[0], f"{what} ({len(ops)} in all)", sources)
                 for what, ops in problems.items()]  # fmt: skip
        raise XlirError(
            f"error: target 'qdsp' cannot run {sum(map(len, problems.values()))} "
            f"op(s) of this program, of {len(problems)} kind(s):\n" + "\n".join(lines)
        )
    for old, new in zip(kernels, lowered, strict=True):
        module.body.block.insert_op_before(new, old)
        module.body.block.erase_op(old)


class LowerToQdspPass(ModulePass):
    name = "convert-loop-to-qdsp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower(op)
