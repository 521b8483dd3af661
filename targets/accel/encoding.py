"""The XA1 object of a lowered module's kernels, encoded from their ops:
the words the assembler makes of their text (`assembly_text`), without
printing the text and reading it back (a compile needs the object; the
text is printed when asked for, `AccelExecutable.as_text`).

Two passes, as the assembler's: the address of every routine and label,
then each instruction's word, a branch's target an offset from it. A value
that does not fit its field is a compiler bug, reported at the op, never
encoded truncated."""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xlir.dialects import accel
from xlir.targets.accel.isa import (
    DMA_MODES,
    IMMEDIATE_RANGES,
    SPECS,
    X_ABI_NAMES,
    Instruction,
    InstructionSpec,
    Kind,
    encode,
    register_index,
)
from xlir.targets.accel.objfile import (
    FUNCTION,
    INSTRUCTION_MEMORY,
    KERNEL,
    ObjectFile,
    Symbol,
)

from xlir.diagnostics import XlirError, format_at_op
from xlir.walk import walk

TARGETS = (Kind.BRANCH16, Kind.JUMP21, Kind.LOOP16)
WORD_OPS = frozenset({*accel.INSTRUCTIONS.values(), accel.CallOp, accel.RetOp})
"""The op classes that take one word of code, asked by class: `isinstance`
with the abstract instruction class is slow for the ops it is not."""
"""The kinds whose operand is a label, encoded as an offset in words."""
CALL, RET = SPECS["jal"], SPECS["jalr"]
"""`call f` is `jal ra, f`; `ret` is `jalr zero, ra, 0` (manual section 8.3)."""
ZERO, RA = X_ABI_NAMES.index("zero"), X_ABI_NAMES.index("ra")


class _Invalid(Exception):
    """An operand the encoding cannot hold: the op and what is wrong."""


def encode_kernels(module: ModuleOp) -> ObjectFile:
    """The object of `module`'s routines (its host code is not XA-1's), in
    module order; an XlirError at the op that has no encoding."""
    routines = [op for op in module.ops if isinstance(op, accel.RoutineOp)]
    ops = [op for routine in routines for op in walk(routine)]
    labels: dict[str, int] = {}
    pc = 0
    for op in ops:
        if type(op) in WORD_OPS:
            pc += 4
        elif isinstance(op, accel.LabelOp | accel.RoutineOp):
            name = op.label.data if isinstance(op, accel.LabelOp) else op.sym_name.data
            if name in labels:
                raise XlirError(format_at_op(op, f"label '{name}' is defined twice"))
            labels[name] = pc
        elif not isinstance(op, accel.GetRegisterOp):
            why = f"'{op.name}' has no assembly: its kernel is not fully lowered"
            raise XlirError(format_at_op(op, why))
    if pc > INSTRUCTION_MEMORY:
        raise XlirError(
            f"error: the accel kernels' code of {pc} bytes exceeds the "
            f"{INSTRUCTION_MEMORY} of the instruction memory"
        )
    words: list[int] = []
    entries: list[tuple[accel.RoutineOp, int]] = []
    for op in ops:
        try:
            if isinstance(op, accel.AccelInstruction):
                words.append(_word(op, labels, 4 * len(words)))
            elif isinstance(op, accel.CallOp):
                for argument in op.args:
                    _register(argument)
                callee = op.callee.string_value()
                target = _offset(labels, callee, Kind.JUMP21, 4 * len(words))
                words.append(encode(Instruction(CALL, (RA, target))))
            elif isinstance(op, accel.RetOp):
                words.append(encode(Instruction(RET, (ZERO, RA, 0))))
            elif isinstance(op, accel.RoutineOp):
                entries.append((op, 4 * len(words)))
        except _Invalid as error:
            raise XlirError(
                format_at_op(op, f"the accel backend made invalid assembly: {error}")
            ) from None
    ends = [*(entry for _, entry in entries[1:]), 4 * len(words)]
    symbols = [
        Symbol(
            routine.sym_name.data,
            entry,
            end - entry,
            routine.nargs.value.data,
            KERNEL if isinstance(routine, accel.KernelOp) else FUNCTION,
        )
        for (routine, entry), end in zip(entries, ends, strict=False)
    ]
    return ObjectFile(words, b"", symbols)


def _word(op: accel.AccelInstruction, labels: dict[str, int], pc: int) -> int:
    spec: InstructionSpec = op.SPEC
    registers = _register_slots(type(op))
    values: list[int | tuple[int, int]] = []
    for operand, slot in zip(spec.operands, op.SLOTS, strict=True):
        kind = operand.kind
        if kind is Kind.REG:
            written, index = registers[slot]
            values.append(_register((op.results if written else op.operands)[index]))
        elif kind is Kind.MEM:
            offset = _immediate(op, slot, Kind.MEM)
            values.append((offset, _register(op.operands[-1])))
        elif kind is Kind.MODE:
            mode = op.properties[slot]
            assert isinstance(mode, StringAttr)
            if mode.data not in DMA_MODES:
                raise _Invalid(f"no DMA mode '{mode.data}'")
            values.append(DMA_MODES.index(mode.data))
        elif kind in TARGETS:
            label = op.properties[slot]
            assert isinstance(label, StringAttr)
            values.append(_offset(labels, label.data, kind, pc))
        else:
            values.append(_immediate(op, slot, kind))
    return encode(Instruction(spec, tuple(values)))


@cache
def _register_slots(
    cls: type[accel.AccelInstruction],
) -> dict[str, tuple[bool, int]]:
    """Where an instruction class keeps each register field: (a result?,
    its index), read directly rather than through IRDL's accessors."""
    definition = cls.get_irdl_definition()
    slots = {name: (False, i) for i, (name, _) in enumerate(definition.operands)}
    return slots | {name: (True, i) for i, (name, _) in enumerate(definition.results)}


def _register(value: SSAValue) -> int:
    register = value.type
    assert isinstance(register, accel.AccelRegisterType)
    name = register.register_name.data
    index = register_index(register.REGISTER_FILE, name) if name else None
    if index is None:
        raise _Invalid(f"register '{name or '?'}' is not in the register file")
    return index


def _immediate(op: Operation, slot: str, kind: Kind) -> int:
    value = op.properties[slot]
    assert isinstance(value, IntegerAttr)
    low, high = IMMEDIATE_RANGES[kind]
    if not low <= value.value.data <= high:
        raise _Invalid(
            f"{kind.value} {value.value.data} is out of range [{low}, {high}]"
        )
    return value.value.data


def _offset(labels: dict[str, int], label: str, kind: Kind, pc: int) -> int:
    if label not in labels:
        raise _Invalid(f"unknown label '{label}'")
    offset = (labels[label] - pc) // 4
    low, high = IMMEDIATE_RANGES[kind]
    if not low <= offset <= high:
        raise _Invalid(f"{kind.value} '{label}' is {offset} words away")
    return offset
