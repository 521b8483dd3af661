"""Register allocation of the accel dialect with xDSL's allocator
(`xdsl.backend.block_naive_allocator`, as its riscv and x86 backends use it),
run while loops are still structured (`accel.for` allocates its own body).

Values the allocator cannot fit in the register files get xDSL's
"infinite" registers; `spill` then gives each of those a slot in the spill
area at the top of the scratchpad (below `sp`) and rewrites every
definition to store and every use to reload through a few registers held
back for that (manual section 8.3's stack, addressed from `sp`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.backend.register_stack import RegisterStack
from xdsl.dialects.builtin import IntAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xlir.dialects import accel
from xlir.dialects.register_allocation import allocate_block
from xlir.targets.accel.isa import RegClass

from xlir.diagnostics import XlirError, format_at_op

X, V, M = accel.XRegisterType, accel.VRegisterType, accel.MRegisterType
RESERVED = ("zero", "ra", "sp", "gp")
"""Scalar registers the convention fixes (manual section 8.2)."""
SPILL_TEMPORARIES = {RegClass.X: ("s4", "s5", "t5"), RegClass.V: ("v29", "v30", "v31")}
"""Registers kept out of allocation when a kernel spills: an instruction
reads at most three registers of one file (`dma.cfg`, `vfmadd`)."""
SPILL_LIMIT = 32 * 1024
"""The spill area: below `sp`, inside the scratchpad's reserved top."""


@dataclass(frozen=True)
class Allocation:
    spilled: int
    """Values kept in the spill area."""


def _stack(kernel: accel.KernelOp, held_back: bool) -> RegisterStack:
    arguments = {arg.type for arg in kernel.body.block.args}
    excluded = set(RESERVED)
    if held_back:
        excluded |= {*SPILL_TEMPORARIES[RegClass.X], *SPILL_TEMPORARIES[RegClass.V]}
    registers = [
        X.from_index(i)
        for i in range(RegClass.X.count)
        if X.from_index(i).assembly_name not in excluded
        and X.from_index(i) not in arguments
    ]
    registers += [
        V.from_index(i) for i in range(RegClass.V.count) if f"v{i}" not in excluded
    ]
    registers += [M.from_index(i) for i in range(RegClass.M.count)]
    return RegisterStack.get(registers, allow_infinite=True)


def allocate_kernel(kernel: accel.KernelOp) -> Allocation:
    """Allocate every register of `kernel` in place; spill what does not fit."""
    if _allocate(kernel.clone(), held_back=False) == 0:
        _allocate(kernel, held_back=False)
        return Allocation(0)
    _allocate(kernel, held_back=True)
    return Allocation(spill(kernel))


def _allocate(kernel: accel.KernelOp, held_back: bool) -> int:
    """Allocate; the number of values given infinite registers."""
    registers = _stack(kernel, held_back)
    allocate_block(kernel.body.block, registers, accel.AccelRegisterType)
    return len(_infinite_values(kernel))


def _infinite_values(kernel: accel.KernelOp) -> list[SSAValue]:
    values: list[SSAValue] = []
    for op in kernel.body.walk():
        candidates = [*op.results] + [
            a for r in op.regions for b in r.blocks for a in b.args
        ]
        values += [v for v in candidates if _is_infinite(v)]
    return values


def _is_infinite(value: SSAValue) -> bool:
    register = value.type
    return (
        isinstance(register, accel.AccelRegisterType)
        and isinstance(register.index, IntAttr)
        and register.index.data < 0
    )


def spill(kernel: accel.KernelOp) -> int:
    """Rewrite the values in infinite registers to live in spill slots: each
    use reloads it into a held-back register, each definition writes a
    held-back register and stores it. The number of slots."""
    slots: dict[accel.AccelRegisterType, int] = {}
    offset = 0
    for value in _infinite_values(kernel):
        register = value.type
        assert isinstance(register, accel.AccelRegisterType)
        if isinstance(value, BlockArgument) or not isinstance(
            value.owner, accel.AccelInstruction
        ):
            raise XlirError(
                format_at_op(
                    kernel,
                    f"kernel @{kernel.sym_name.data} would spill a loop's induction "
                    "variable or carried value, which the allocator cannot",
                )
            )
        if register not in slots:
            size = 64 if isinstance(register, V) else 4
            offset = -(-(offset + size) // size) * size
            slots[register] = -offset
    if offset > SPILL_LIMIT:
        raise XlirError(
            format_at_op(
                kernel,
                f"kernel @{kernel.sym_name.data} needs {offset} bytes of spill "
                f"slots, more than the {SPILL_LIMIT} reserved for them",
            )
        )
    instructions = [
        op for op in kernel.body.walk() if isinstance(op, accel.AccelInstruction)
    ]
    for op in instructions:
        _reload_operands(op, slots)
    for loop in [op for op in kernel.body.walk() if isinstance(op, accel.ForOp)]:
        if loop.hardware is None and loop.bound.type in slots:
            raise XlirError(
                format_at_op(
                    kernel,
                    f"kernel @{kernel.sym_name.data} would spill the bound of a "
                    "branch loop, which every iteration reads",
                )
            )
        if sum(o.type in slots for o in loop.operands) > len(
            SPILL_TEMPORARIES[RegClass.X]
        ):
            raise XlirError(
                format_at_op(
                    kernel,
                    f"kernel @{kernel.sym_name.data} would spill more of a loop's "
                    "bounds and initial values than it holds registers back for",
                )
            )
        _reload_operands(loop, slots)  # read once, on entry
    for op in instructions:
        _store_results(op, slots)
    return len(slots)


def _sp(before: Operation) -> SSAValue:
    sp = accel.GetRegisterOp(X.from_name("sp"))
    block = before.parent_block()
    assert block is not None
    block.insert_op_before(sp, before)
    return sp.result


def _temporary(register: accel.AccelRegisterType, nth: int) -> accel.AccelRegisterType:
    return type(register).from_name(SPILL_TEMPORARIES[register.REGISTER_FILE][nth])


def _reload_operands(
    op: accel.AccelInstruction | accel.ForOp,
    slots: dict[accel.AccelRegisterType, int],
) -> None:
    count = 0
    for index, operand in enumerate(op.operands):
        register = operand.type
        if register not in slots:
            continue
        assert isinstance(register, accel.XRegisterType | accel.VRegisterType)
        load = accel.instruction(
            "vld" if isinstance(register, V) else "lw",
            [_sp(op)],
            [_temporary(register, count)],
            offset=slots[register],
        )
        count += 1
        op.parent_block().insert_op_before(load, op)  # pyright: ignore[reportOptionalMemberAccess]
        op.operands[index] = load.results[0]


def _store_results(
    op: accel.AccelInstruction, slots: dict[accel.AccelRegisterType, int]
) -> None:
    for result in op.results:
        register = result.type
        if register not in slots:
            continue
        assert isinstance(register, accel.XRegisterType | accel.VRegisterType)
        value = Rewriter.replace_value_with_new_type(result, _temporary(register, 0))
        store = accel.instruction(
            "vst" if isinstance(register, V) else "sw",
            [value, _sp(op)],
            offset=slots[register],
        )
        op.parent_block().insert_op_after(store, op)  # pyright: ignore[reportOptionalMemberAccess]


def allocate_module(module: ModuleOp) -> dict[str, Allocation]:
    """Allocate the registers of every kernel; per kernel, what spilled."""
    return {
        op.sym_name.data: allocate_kernel(op)
        for op in module.body.block.ops
        if isinstance(op, accel.KernelOp)
    }
