"""Register allocation of the accel dialect with xDSL's allocator
(`xdsl.backend.block_naive_allocator`, as its riscv and x86 backends use it),
run while loops are still structured (`accel.for` allocates its own body),
then the structured control lowered to labels and branches.

Values the allocator cannot fit in the register files get xDSL's
"infinite" registers (a loop's counter and carried values too: they stay
reserved through its body); `spill` then gives each of those registers a
slot in the spill area at the top of the scratchpad (below `sp`) and has
every instruction reload what it reads from a slot and store what it
writes, through a few registers held back for that (manual section 8.3's
stack, addressed from `sp`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xlir.dialects import accel
from xlir.dialects.register_allocation import allocate_block
from xlir.targets.accel.isa import RegClass
from xlir.targets.accel.rematerialize import rematerialize_constants

from xlir.diagnostics import XlirError, format_at_op
from xlir.rewriting import set_type, walk_region

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
    """Registers kept in the spill area."""


def _registers(
    kernel: accel.KernelOp, held_back: bool
) -> list[accel.AccelRegisterType]:
    arguments = {arg.type for arg in kernel.body.block.args}
    excluded = set(RESERVED)
    if held_back:
        excluded |= {*SPILL_TEMPORARIES[RegClass.X], *SPILL_TEMPORARIES[RegClass.V]}
    registers: list[accel.AccelRegisterType] = [
        X.from_index(i)
        for i in range(RegClass.X.count)
        if X.from_index(i).assembly_name not in excluded
        and X.from_index(i) not in arguments
    ]
    registers += [
        V.from_index(i) for i in range(RegClass.V.count) if f"v{i}" not in excluded
    ]
    registers += [M.from_index(i) for i in range(RegClass.M.count)]
    return registers


def allocate_kernel(kernel: accel.KernelOp) -> bool:
    """Allocate every register of `kernel` in place; whether some did not
    fit (then `spill` must run once its structured control is lowered).
    A kernel that does not fit with every register is allocated again from
    its unallocated registers with its loops' constants made where they
    are read (`rematerialize.py`), kept if then nothing spills; else
    without them, with the spill code's registers held back."""
    unallocated = _register_types(kernel)
    if _allocate(kernel, held_back=False) == 0:
        return False
    _unallocate(unallocated)
    copies = rematerialize_constants(kernel)
    if copies.copies:
        with_copies = _register_types(kernel)
        if _allocate(kernel, held_back=False) == 0:
            copies.commit()
            return False
        _unallocate(with_copies)
        copies.undo()
    _allocate(kernel, held_back=True)
    return True


def _unallocate(
    unallocated: list[tuple[Operation | Block, tuple[Attribute, ...]]],
) -> None:
    """Give every value the type `_register_types` read before allocating."""
    for holder, types in unallocated:
        values = holder.results if isinstance(holder, Operation) else holder.args
        for value, type_ in zip(values, types, strict=True):
            if value.type != type_:
                set_type(value, type_)


def _register_types(
    kernel: accel.KernelOp,
) -> list[tuple[Operation | Block, tuple[Attribute, ...]]]:
    """The types of the results of each op of `kernel` and of the arguments
    of each of its blocks."""
    types: list[tuple[Operation | Block, tuple[Attribute, ...]]] = [
        (block, tuple(a.type for a in block.args)) for block in kernel.body.blocks
    ]
    for op in walk_region(kernel.body):
        types.append((op, tuple(r.type for r in op.results)))
        types += [
            (block, tuple(a.type for a in block.args))
            for region in op.regions
            for block in region.blocks
        ]
    return types


def _allocate(kernel: accel.KernelOp, held_back: bool) -> int:
    """Allocate; the number of registers given out beyond the files (each
    taken by a value: the stack makes a new one only when asked for one)."""
    registers = _registers(kernel, held_back)
    return allocate_block(kernel.body.block, registers, accel.AccelRegisterType)


def _is_infinite(value: SSAValue) -> bool:
    register = value.type
    return (
        isinstance(register, accel.AccelRegisterType)
        and isinstance(register.index, IntAttr)
        and register.index.data < 0
    )


def spill(kernel: accel.KernelOp) -> int:
    """Give each infinite register a spill slot, once structured control is
    lowered (so a loop's counter, bound and carried values are read and
    written by plain instructions): each instruction reloads the operands
    it reads from slots into held-back registers and stores what it writes
    to one. As every value of one register shares its slot, the slot holds
    that register's contents at every point, across branches and loops.
    The number of slots."""
    slots = _slots(kernel)
    loop_ends = _hardware_loop_ends(kernel)
    instructions = [
        op for op in walk_region(kernel.body) if isinstance(op, accel.AccelInstruction)
    ]
    labels = {op: _labels_before(op, loop_ends) for op in instructions}
    reloads = [  # all reloads first: a store retypes the stored value
        load for op in instructions for load in _reload_operands(op, slots)
    ]
    for op in instructions:
        last = _store_results(op, slots)
        for label in labels[op]:  # a hardware loop's end names its last instruction
            label.detach()
            last.parent_block().insert_op_before(label, last)  # pyright: ignore[reportOptionalMemberAccess]
    for load in reloads:
        _forward_store(load)
    for op in list(
        walk_region(kernel.body)
    ):  # a lowered loop's names, read through slots now
        if isinstance(op, accel.GetRegisterOp) and _is_infinite(op.result):
            Rewriter.erase_op(op)
    return len(slots)


def _slots(kernel: accel.KernelOp) -> dict[accel.AccelRegisterType, int]:
    """Each infinite register's slot, an offset from `sp`; a diagnostic at the
    op if one cannot be spilled, or at the kernel if they do not fit."""
    slots: dict[accel.AccelRegisterType, int] = {}
    offset = 0
    for op in walk_region(kernel.body):
        for value in (*op.operands, *op.results):
            register = value.type
            if not _is_infinite(value) or register in slots:
                continue
            assert isinstance(register, accel.AccelRegisterType)
            if isinstance(op, accel.GetRegisterOp):
                continue  # a lowered loop's counter or carried value: no code
            if not isinstance(op, accel.AccelInstruction) or isinstance(register, M):
                file = register.REGISTER_FILE
                raise XlirError(
                    format_at_op(
                        op,
                        f"kernel @{kernel.sym_name.data} needs more {file.prefix} "
                        f"registers than the {file.count} of its file, and "
                        f"'{op.name}' cannot read or write a spilled one",
                    )
                )
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
    return slots


def _hardware_loop_ends(kernel: accel.KernelOp) -> set[str]:
    """The labels `loop` instructions name: each marks a body's last instruction."""
    return {
        target.data
        for op in walk_region(kernel.body)
        if isinstance(op, accel.AccelInstruction) and op.SPEC.mnemonic == "loop"
        if isinstance(target := op.properties["target"], StringAttr)
    }


def _labels_before(
    op: accel.AccelInstruction, loop_ends: set[str]
) -> list[accel.LabelOp]:
    """The hardware-loop end labels right before `op` (nested loops may share it)."""
    labels: list[accel.LabelOp] = []
    previous = op.prev_op
    while isinstance(previous, accel.LabelOp) and previous.label.data in loop_ends:
        labels.insert(0, previous)
        previous = previous.prev_op
    return labels


def _sp(before: Operation) -> SSAValue:
    sp = accel.GetRegisterOp(X.from_name("sp"))
    block = before.parent_block()
    assert block is not None
    block.insert_op_before(sp, before)
    return sp.result


def _temporary(register: accel.AccelRegisterType, nth: int) -> accel.AccelRegisterType:
    return type(register).from_name(SPILL_TEMPORARIES[register.REGISTER_FILE][nth])


def _reload_operands(
    op: accel.AccelInstruction, slots: dict[accel.AccelRegisterType, int]
) -> list[accel.AccelInstruction]:
    """Load each spilled operand of `op` into a held-back register; the loads."""
    loads: list[accel.AccelInstruction] = []
    for index, operand in enumerate(op.operands):
        register = operand.type
        if register not in slots:
            continue
        assert isinstance(register, accel.XRegisterType | accel.VRegisterType)
        load = accel.instruction(
            "vld" if isinstance(register, V) else "lw",
            [_sp(op)],
            [_temporary(register, len(loads))],
            offset=slots[register],
        )
        loads.append(load)
        op.parent_block().insert_op_before(load, op)  # pyright: ignore[reportOptionalMemberAccess]
        op.operands[index] = load.results[0]
    return loads


def _forward_store(load: accel.AccelInstruction) -> None:
    """Drop `load` if the instruction before it stored its slot from the
    register it loads into: that register still holds the value. Not after
    a labelled store, which may end a hardware loop: a zero trip count
    skips the body and continues right after it."""
    previous = load.prev_op
    while isinstance(previous, accel.GetRegisterOp):
        previous = previous.prev_op
    if not isinstance(previous, accel.AccelInstruction) or isinstance(
        previous.prev_op, accel.LabelOp
    ):
        return
    store = {"lw": "sw", "vld": "vst"}[load.SPEC.mnemonic]
    if previous.SPEC.mnemonic != store:
        return
    stored, base = previous.operands
    if (
        previous.properties["offset"] == load.properties["offset"]
        and base.type == X.from_name("sp")
        and stored.type == load.results[0].type
    ):
        sp = load.operands[0].owner
        load.results[0].replace_all_uses_with(stored)
        Rewriter.erase_op(load)
        if isinstance(sp, accel.GetRegisterOp) and not sp.result.uses:
            Rewriter.erase_op(sp)


def _store_results(
    op: accel.AccelInstruction, slots: dict[accel.AccelRegisterType, int]
) -> Operation:
    """Store each spilled result after `op`; the last op of the sequence."""
    last: Operation = op
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
        last = store
    return last


def allocate_module(module: ModuleOp) -> dict[str, Allocation]:
    """Allocate the registers of every kernel, lower the module's structured
    control (its labels unique across kernels), then spill; per kernel,
    what spilled."""
    kernels = [op for op in module.body.block.ops if isinstance(op, accel.KernelOp)]
    spilling = [allocate_kernel(kernel) for kernel in kernels]
    accel.lower_structured_control(module)
    return {
        kernel.sym_name.data: Allocation(spill(kernel) if spills else 0)
        for kernel, spills in zip(kernels, spilling, strict=True)
    }
