"""The `accel` dialect: XA-1 assembly (shared/accel/XA-1.md) as IR, modelled on
xDSL's `riscv` and `x86` dialects.

* One op per instruction of the manual, generated from the instruction table
  (`xlir.targets.accel.isa`), so the dialect, the assembler and the simulator
  agree by construction: `accel.add`, `accel.vfadd`, `accel.dma.ld`, ...
  Destination registers are results, source registers operands, immediates
  properties, branch and loop targets label names. Each op prints itself as
  one line of assembly (xDSL's `OneLineAssemblyPrintable`).
* Register types per register file, `!accel.x`, `!accel.v`, `!accel.m`:
  unallocated until register allocation, then named (`!accel.x<t0>`,
  `!accel.v<v3>`, `!accel.m<m1>`).
* Verifiers: immediate ranges (the encodable values), register classes (the
  operand types), label names, DMA modes, and alignment: a memory op's offset
  must be a multiple of its access size, since the dialect keeps base
  registers aligned (the offset then carries the alignment).
* `accel.kernel`: a routine with the calling convention of manual section 8.2
  (its block arguments are the first arguments, in `a0`..`a15`).
* Structured control over allocated registers, lowered to labels and
  branches after register allocation by `lower_structured_control`:
  `accel.repeat` (a hardware loop) and `accel.if` (a two-way branch).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from functools import cache, lru_cache
from io import StringIO
from typing import ClassVar, Self

from xdsl.backend.assembly_printer import (
    AssemblyPrintable,
    AssemblyPrinter,
    OneLineAssemblyPrintable,
)
from xdsl.backend.register_allocatable import RegisterConstraints
from xdsl.backend.register_allocator import BlockAllocator
from xdsl.backend.register_type import RegisterType
from xdsl.dialects.builtin import (
    I32,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
)
from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.device import LaunchableKernel
from xlir.dialects.instruction_op import Instruction, immediate, instruction_op
from xlir.dialects.register_allocation import RegisterLoop
from xlir.dialects.symbols import lookup_symbol
from xlir.targets.accel.isa import (
    DMA_MODES,
    IMMEDIATE_RANGES,
    SPECS,
    InstructionSpec,
    Kind,
    RegClass,
    register_index,
    register_name,
)
from xlir.targets.accel.objfile import NAME_PATTERN

# --- register types ------------------------------------------------------------


@cache
def _index_by_name(file: RegClass) -> dict[str, int]:
    """Both names of each register of `file` -> its index (built once: xDSL
    asks for it whenever it makes or verifies a register type)."""
    names = {f"{file.prefix}{i}": i for i in range(file.count)}
    return names | {register_name(file, i): i for i in range(file.count)}


@cache
def _shared_register(
    cls: type[AccelRegisterType], index: int | None
) -> AccelRegisterType:
    """The register type of `cls` with `index`, or the unallocated one, made
    once (attributes are immutable): the lowering and the allocator ask for
    them thousands of times, and each new attribute is verified."""
    if index is None:
        register = super(AccelRegisterType, cls).unallocated()
    else:
        register = super(AccelRegisterType, cls).from_index(index)
    assert isinstance(register, AccelRegisterType)
    return register


@cache
def _named_register(cls: type[AccelRegisterType], name: str) -> AccelRegisterType:
    """The register type of `cls` named `name` (`zero`, `sp`, `a3`), made once."""
    register = super(AccelRegisterType, cls).from_name(name)
    assert isinstance(register, AccelRegisterType)
    return register


@cache
def _abi_name_by_index(file: RegClass) -> dict[int, str]:
    return {i: register_name(file, i) for i in range(file.count)}


class AccelRegisterType(RegisterType, ABC):
    """A register of one of XA-1's register files."""

    REGISTER_FILE: ClassVar[RegClass]

    @classmethod
    def _file(cls) -> RegClass:
        """The register file of a concrete type (NotImplementedError on the base,
        which is how xDSL's RegisterType recognises abstract subclasses)."""
        if "REGISTER_FILE" not in cls.__dict__:
            raise NotImplementedError()
        return cls.REGISTER_FILE

    @classmethod
    def index_by_name(cls) -> dict[str, int]:
        return _index_by_name(cls._file())

    @classmethod
    def unallocated(cls) -> Self:
        register = _shared_register(cls, None)
        assert isinstance(register, cls)
        return register

    @classmethod
    def from_index(cls, index: int) -> Self:
        if index < 0:  # xDSL's infinite registers
            return super().from_index(index)
        register = _shared_register(cls, index)
        assert isinstance(register, cls)
        return register

    @classmethod
    def from_name(cls, register_name: StringAttr | str) -> Self:
        name = (
            register_name.data
            if isinstance(register_name, StringAttr)
            else register_name
        )
        register = _named_register(cls, name)
        assert isinstance(register, cls)
        return register

    @classmethod
    def abi_name_by_index(cls) -> dict[int, str]:
        return _abi_name_by_index(cls.REGISTER_FILE)

    @classmethod
    def infinite_register_prefix(cls) -> str:
        return f"{cls._file().prefix}_inf"

    @property
    def assembly_name(self) -> str:
        """The register's name in assembly (ABI names for x registers)."""
        index = register_index(self.REGISTER_FILE, self.register_name.data)
        assert index is not None, self.register_name.data
        return register_name(self.REGISTER_FILE, index)


@irdl_attr_definition
class XRegisterType(AccelRegisterType):
    """A scalar register (x0..x31, by number or ABI name)."""

    name = "accel.x"
    REGISTER_FILE = RegClass.X


@irdl_attr_definition
class VRegisterType(AccelRegisterType):
    """A vector register (v0..v31)."""

    name = "accel.v"
    REGISTER_FILE = RegClass.V


@irdl_attr_definition
class MRegisterType(AccelRegisterType):
    """A matrix accumulator (m0..m3)."""

    name = "accel.m"
    REGISTER_FILE = RegClass.M


REGISTER_TYPES: dict[RegClass, type[AccelRegisterType]] = {
    RegClass.X: XRegisterType,
    RegClass.V: VRegisterType,
    RegClass.M: MRegisterType,
}

# --- instructions ----------------------------------------------------------------

RD_IS_SOURCE = frozenset(
    {"sb", "sh", "sw", "beq", "bne", "blt", "bge", "bltu", "bgeu", "vst", "vsx",
     "dma.ld", "dma.st", "mst"}
)  # fmt: skip
"""Instructions whose rd field names a source register (manual section 3.1)."""
ACCUMULATING = frozenset({"mmac", "mmac.ta", "mmac.tb", "mmac.tatb"})
"""Instructions whose destination is also read: the accumulator is an operand
and a result, allocated to the same register."""
ACCESS_SIZE = {"lh": 2, "lhu": 2, "sh": 2, "lw": 4, "sw": 4, "vld": 4, "vst": 4}
LABEL_KINDS = (Kind.BRANCH16, Kind.JUMP21, Kind.LOOP16)


class NoAssembly(Exception):
    """Assembly was asked of an op that has none yet: its registers are not
    allocated, its structured control is not lowered, or it is no accel op."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def _require_allocated(value: SSAValue, user: Operation) -> AccelRegisterType:
    register = value.type
    assert isinstance(register, AccelRegisterType)
    if not register.is_allocated:
        raise NoAssembly(
            user,
            f"'{user.name}' has an unallocated !{register.name} register (assembly "
            "needs register allocation first)",
        )
    return register


def _register(value: SSAValue, user: Operation) -> str:
    register = _require_allocated(value, user)
    index = register_index(register.REGISTER_FILE, register.register_name.data)
    if index is None:
        raise NoAssembly(
            user,
            f"'{user.name}' names register {register.register_name.data}, beyond "
            "the register file (spill slots are given by accel-registers)",
        )
    return register_name(register.REGISTER_FILE, index)


class AccelInstruction(Instruction, ABC):
    """An XA-1 instruction: `spec` says its syntax; `slots` which op field holds
    each operand of that syntax. For xDSL's register allocator its sources
    are `ins`, its destinations `outs`, and `mmac`'s accumulator an inout."""

    SPEC: ClassVar[InstructionSpec]
    SLOTS: ClassVar[tuple[str, ...]]

    def get_register_constraints(self) -> RegisterConstraints:
        if self.SPEC.mnemonic in ACCUMULATING:
            return RegisterConstraints(
                self.operands[1:], (), ((self.operands[0], self.results[0]),)
            )
        return super().get_register_constraints()

    def assembly_line(self) -> str | None:
        texts = []
        for operand, slot in zip(self.SPEC.operands, self.SLOTS, strict=True):
            if operand.kind is Kind.REG:
                texts.append(
                    _register(getattr(self, slot), self)
                )  # an operand or result
            elif operand.kind is Kind.MEM:
                offset = self.properties["offset"]
                assert isinstance(offset, IntegerAttr)
                texts.append(
                    f"{offset.value.data}({_register(self.operands[-1], self)})"
                )
            else:
                value = self.properties[slot]
                assert isinstance(value, IntegerAttr | StringAttr)
                texts.append(
                    str(
                        value.value.data
                        if isinstance(value, IntegerAttr)
                        else value.data
                    )
                )
        return AssemblyPrinter.assembly_line(self.SPEC.mnemonic, ", ".join(texts))

    def verify_(self) -> None:
        for operand, slot in zip(self.SPEC.operands, self.SLOTS, strict=True):
            if operand.kind in LABEL_KINDS:
                label = self.properties[slot]
                assert isinstance(label, StringAttr)
                if not NAME_PATTERN.fullmatch(label.data):
                    raise VerifyException(f"'{label.data}' is not a valid label name")
            elif operand.kind is Kind.MODE:
                mode = self.properties[slot]
                assert isinstance(mode, StringAttr)
                if mode.data not in DMA_MODES:
                    raise VerifyException(
                        f"DMA mode '{mode.data}' is not one of {', '.join(DMA_MODES)}"
                    )
            elif operand.kind is not Kind.REG:
                value = self.properties[slot]
                assert isinstance(value, IntegerAttr)
                low, high = IMMEDIATE_RANGES[operand.kind]
                if not low <= value.value.data <= high:
                    raise VerifyException(
                        f"{operand.kind.value} {value.value.data} of {self.SPEC.mnemonic} "
                        f"is out of range [{low}, {high}]"
                    )
                size = ACCESS_SIZE.get(self.SPEC.mnemonic, 1)
                if operand.kind is Kind.MEM and value.value.data % size:
                    raise VerifyException(
                        f"offset {value.value.data} of {self.SPEC.mnemonic} is not a "
                        f"multiple of its access size {size}"
                    )
        if self.SPEC.mnemonic in ACCUMULATING:
            before, after = self.operands[0].type, self.results[0].type
            if before != after:
                raise VerifyException(
                    f"the accumulator is read and written: {before} and {after} must be "
                    "the same register"
                )


def _instruction(spec: InstructionSpec) -> type[AccelInstruction]:
    """The op class of one instruction."""
    fields: dict[str, object] = {}
    slots: list[str] = []
    syntax: list[str] = []
    for operand in spec.operands:
        if operand.kind is Kind.REG:
            assert operand.cls is not None
            register = REGISTER_TYPES[operand.cls]
            if operand.field == "rd" and spec.mnemonic not in RD_IS_SOURCE:
                if spec.mnemonic in ACCUMULATING:
                    fields["acc"] = operand_def(register)
                    syntax.append("$acc")
                fields["rd"] = result_def(register)
                slots.append("rd")
                continue
            name = "value" if operand.field == "rd" else operand.field
            fields[name] = operand_def(register)
            slots.append(name)
            syntax.append(f"${name}")
        elif operand.kind is Kind.MEM:
            fields["offset"] = prop_def(IntegerAttr[I32])
            fields["rs1"] = operand_def(XRegisterType)
            slots.append("offset")
            syntax.append("$offset `(` $rs1 `)`")
        elif operand.kind in LABEL_KINDS or operand.kind is Kind.MODE:
            name = "mode" if operand.kind is Kind.MODE else "target"
            fields[name] = prop_def(StringAttr)
            slots.append(name)
            syntax.append(f"${name}")
        else:
            fields["imm"] = prop_def(IntegerAttr[I32])
            slots.append("imm")
            syntax.append("$imm")
    fields |= {
        "__annotations__": {
            "SPEC": ClassVar[InstructionSpec],
            "SLOTS": ClassVar[tuple[str, ...]],
        },
        "SPEC": spec,
        "SLOTS": tuple(slots),
        "__doc__": f"`{spec.mnemonic}` (opcode {spec.opcode:#04x}, format {spec.format.value}).",
    }
    return instruction_op(f"accel.{spec.mnemonic}", AccelInstruction, fields, syntax)


INSTRUCTIONS: dict[str, type[AccelInstruction]] = {
    mnemonic: _instruction(spec) for mnemonic, spec in SPECS.items()
}
"""The op class of every instruction, by mnemonic."""


def instruction(
    mnemonic: str,
    operands: Sequence[SSAValue | Operation] = (),
    results: Sequence[Attribute] = (),
    **properties: int | str,
) -> AccelInstruction:
    """Build the op of `mnemonic`: integer properties become i32, strings labels or modes."""
    values = [o if isinstance(o, SSAValue) else o.results[0] for o in operands]
    return INSTRUCTIONS[mnemonic].make(values, results, **properties)


# --- labels, kernels, structured control -------------------------------------------


@irdl_op_definition
class LabelOp(IRDLOperation, OneLineAssemblyPrintable):
    """`name:`, the address of the next instruction."""

    name = "accel.label"
    label = prop_def(StringAttr)
    assembly_format = "$label attr-dict"

    def __init__(self, label: str):
        super().__init__(properties={"label": StringAttr(label)})

    def verify_(self) -> None:
        if not NAME_PATTERN.fullmatch(self.label.data):
            raise VerifyException(f"'{self.label.data}' is not a valid label name")

    def assembly_line(self) -> str | None:
        return f"{self.label.data}:"


MAX_ARGUMENTS = 64
REGISTER_ARGUMENTS = 16


class RoutineOp(IRDLOperation, AssemblyPrintable, ABC):
    """A routine of the object's symbol table (manual section 7.2) with the
    calling convention of sections 8.2/8.3: `nargs` 32-bit arguments, the first
    16 in a0..a15 (its block arguments), the rest on the stack at sp."""

    DIRECTIVE: ClassVar[str]
    sym_name = prop_def(StringAttr)
    nargs = prop_def(IntegerAttr[I32])
    body = region_def("single_block")
    assembly_format = "$sym_name `,` $nargs attr-dict-with-keyword $body"

    def __init__(self, name: str, nargs: int, body: Region):
        super().__init__(
            properties={"sym_name": StringAttr(name), "nargs": IntegerAttr(nargs, i32)},
            regions=[body],
        )

    def verify_(self) -> None:
        name, nargs = self.sym_name.data, self.nargs.value.data
        if not NAME_PATTERN.fullmatch(name):
            raise VerifyException(f"'{name}' is not a valid symbol name")
        if not 0 <= nargs <= MAX_ARGUMENTS:
            raise VerifyException(f"{nargs} arguments, expected 0 to {MAX_ARGUMENTS}")
        arguments = self.body.block.args
        expected = min(nargs, REGISTER_ARGUMENTS)
        if len(arguments) != expected:
            raise VerifyException(
                f"{self.DIRECTIVE[1:]} with {nargs} arguments has {len(arguments)} "
                f"block arguments, expected {expected} (a0..a{expected - 1})"
            )
        for i, argument in enumerate(arguments):
            if argument.type != XRegisterType.from_name(f"a{i}"):
                raise VerifyException(
                    f"argument {i} is {argument.type}, expected !accel.x<a{i}>"
                )

    def print_assembly(self, printer: AssemblyPrinter) -> None:
        printer.print_string(
            f"{self.DIRECTIVE} {self.sym_name.data}, {self.nargs.value.data}\n"
        )


@irdl_op_definition
class KernelOp(RoutineOp):
    """A kernel (symbol kind 0): launched by the runtime, it ends the launch
    with `accel.halt`."""

    name = "accel.kernel"
    DIRECTIVE: ClassVar[str] = ".kernel"
    traits = traits_def(NoTerminator(), SymbolOpInterface(), LaunchableKernel())


@irdl_op_definition
class FuncOp(RoutineOp):
    """A device-side function (symbol kind 1, manual section 8.3): reached by
    `accel.call` only, it returns with `accel.ret`, its results in a0/a1
    (scalars) and v0/v1 (vectors)."""

    name = "accel.func"
    DIRECTIVE: ClassVar[str] = ".func"
    traits = traits_def(NoTerminator(), SymbolOpInterface())

    @property
    def returned(self) -> tuple[Attribute, ...] | None:
        """The registers its `accel.ret`s return (None if it has none)."""
        rets = [op for op in self.body.walk() if isinstance(op, RetOp)]
        return tuple(rets[0].values.types) if rets else None

    def verify_(self) -> None:
        super().verify_()
        last = self.body.block.last_op
        if not isinstance(last, RetOp):
            raise VerifyException(
                f"function '{self.sym_name.data}' must end with accel.ret (its code "
                "would run on into the next routine)"
            )
        for ret in self.body.walk():
            if isinstance(ret, RetOp) and tuple(ret.values.types) != self.returned:
                raise VerifyException(
                    f"function '{self.sym_name.data}' returns "
                    f"({_types(ret.values.types)}) and ({_types(self.returned or ())}): "
                    "every accel.ret must return the same registers"
                )


RESULT_REGISTERS: dict[type[AccelRegisterType], tuple[str, ...]] = {
    XRegisterType: ("a0", "a1"),
    VRegisterType: ("v0", "v1"),
}
"""Where a function's results go, by register file (manual section 8.3)."""


def _types(types: Sequence[Attribute]) -> str:
    return ", ".join(str(t) for t in types)


def _check_results(types: Sequence[Attribute], what: str) -> None:
    """Section 8.3: results in a0, a1 (scalars) and v0, v1 (vectors), in order."""
    used: dict[type[AccelRegisterType], int] = {}
    for t in types:
        file = type(t) if isinstance(t, AccelRegisterType) else None
        names = RESULT_REGISTERS.get(file, ()) if file is not None else ()
        position = used.get(file, 0) if file is not None else 0
        if file is None or position >= len(names):
            raise VerifyException(
                f"{what} {t}: results are scalars in a0, a1 and vectors in v0, v1"
            )
        expected = file.from_name(names[position])
        if t != expected:
            raise VerifyException(
                f"{what} {t}, expected {expected} (results are scalars in a0, a1 "
                "and vectors in v0, v1, in order)"
            )
        used[file] = position + 1


def _in_hardware_loop(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, RepeatOp) or (
            isinstance(parent, ForOp) and parent.hardware is not None
        ):
            return True
        parent = parent.parent_op()
    return False


@irdl_op_definition
class CallOp(IRDLOperation, OneLineAssemblyPrintable):
    """`call name` (= `jal ra, name`, manual sections 4.11, 8.3): arguments in
    a0.., results in a0/a1 and v0/v1. It overwrites ra and every caller-saved
    register; not allowed inside a hardware loop."""

    name = "accel.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def(XRegisterType)
    ress = var_result_def(AccelRegisterType)
    assembly_format = (
        "$callee `(` $args `)` attr-dict `:` functional-type($args, $ress)"
    )

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue | Operation],
        result_types: Sequence[AccelRegisterType],
    ):
        super().__init__(
            operands=[args],
            result_types=[result_types],
            properties={"callee": SymbolRefAttr(callee)},
        )

    def verify_(self) -> None:
        callee = self.callee.string_value()
        for i, arg in enumerate(self.args):
            if i >= REGISTER_ARGUMENTS or arg.type != XRegisterType.from_name(f"a{i}"):
                raise VerifyException(
                    f"argument {i} of the call to '{callee}' is {arg.type}, expected "
                    f"!accel.x<a{i}> (arguments go in a0..a15)"
                )
        _check_results(self.ress.types, "result")
        if _in_hardware_loop(self):
            raise VerifyException(
                f"call to '{callee}' inside a hardware loop (manual section 8.3)"
            )
        try:
            target = lookup_symbol(self, self.callee)
        except ValueError:  # no symbol table above the call
            raise VerifyException(
                f"call to '{callee}' outside a module: its callee is a symbol"
            ) from None
        if isinstance(target, KernelOp):
            raise VerifyException(
                f"'{callee}' is a kernel: kernels are launched by the runtime, not called"
            )
        if not isinstance(target, FuncOp):
            raise VerifyException(f"no accel.func named '{callee}'")
        expected = min(target.nargs.value.data, REGISTER_ARGUMENTS)
        if len(self.args) != expected:
            raise VerifyException(
                f"'{callee}' takes {target.nargs.value.data} arguments: the call "
                f"passes {len(self.args)} registers, expected {expected}"
            )
        returned = target.returned
        if returned is not None and tuple(self.ress.types) != returned:
            raise VerifyException(
                f"the call expects ({_types(self.ress.types)}) but '{callee}' returns "
                f"({_types(returned)})"
            )

    def assembly_line(self) -> str | None:
        for arg in self.args:
            _register(arg, self)
        return AssemblyPrinter.assembly_line("call", self.callee.string_value())


@irdl_op_definition
class RetOp(IRDLOperation, OneLineAssemblyPrintable):
    """`ret` (= `jalr zero, ra, 0`): the function's results are in a0/a1 and
    v0/v1 (manual section 8.3)."""

    name = "accel.ret"
    values = var_operand_def(AccelRegisterType)
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, RoutineOp):
            parent = parent.parent_op()
        if not isinstance(parent, FuncOp):
            raise VerifyException("accel.ret outside an accel.func")
        if _in_hardware_loop(self):
            raise VerifyException("accel.ret inside a hardware loop")
        _check_results(self.values.types, "returned value")

    def assembly_line(self) -> str | None:
        return AssemblyPrinter.assembly_line("ret", "")


@irdl_op_definition
class GetRegisterOp(IRDLOperation, OneLineAssemblyPrintable):
    """A value already in an allocated register (x0, an argument register): no
    instruction."""

    name = "accel.get_register"
    result = result_def(AccelRegisterType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, register: AccelRegisterType):
        # Operation's own constructor, as `create` uses: IRDL's generic one
        # costs three times as much, and the lowering reads zero and sp
        # thousands of times.
        Operation.__init__(self, result_types=[register])

    def verify_(self) -> None:
        register = self.result.type
        assert isinstance(register, AccelRegisterType)
        if not register.is_allocated:
            raise VerifyException("accel.get_register needs an allocated register")

    def assembly_line(self) -> str | None:
        return None


BRANCHES = ("beq", "bne", "blt", "bge", "bltu", "bgeu")
INVERSE_BRANCH = {"beq": "bne", "bne": "beq", "blt": "bge", "bge": "blt",
                  "bltu": "bgeu", "bgeu": "bltu"}  # fmt: skip


class StructuredControl(IRDLOperation, AssemblyPrintable, ABC):
    """An op that `lower_structured_control` turns into labels and branches."""

    def print_assembly(self, printer: AssemblyPrinter) -> None:
        raise NoAssembly(
            self, f"'{self.name}' has no assembly: run lower_structured_control first"
        )


@irdl_op_definition
class RepeatOp(StructuredControl):
    """Run the body x[count] times (unsigned; 0 skips it) on a hardware loop
    (manual section 4.4): no branch, jump, call or halt inside."""

    name = "accel.repeat"
    count = operand_def(XRegisterType)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$count attr-dict `:` type($count) $body"

    def __init__(self, count: SSAValue | Operation, body: Region):
        super().__init__(operands=[count], regions=[body])

    def verify_(self) -> None:
        for op in self.body.walk():
            spec = getattr(op, "SPEC", None)
            if spec is not None and spec.mnemonic in ("jal", "jalr", "halt", *BRANCHES):
                raise VerifyException(
                    f"'{op.name}' inside accel.repeat: a hardware loop's body may not "
                    "branch out, jump, call or halt"
                )


@irdl_op_definition
class IfOp(StructuredControl):
    """`then` if `condition` (a branch mnemonic) holds for lhs and rhs, else `otherwise`."""

    name = "accel.if"
    condition = prop_def(StringAttr)
    lhs = operand_def(XRegisterType)
    rhs = operand_def(XRegisterType)
    then = region_def("single_block")
    otherwise = region_def()
    """Empty (no block) when there is no else branch."""
    traits = traits_def(NoTerminator())
    assembly_format = "$condition $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) $then $otherwise"

    def verify_(self) -> None:
        if len(self.otherwise.blocks) > 1:
            raise VerifyException("the else region has more than one block")
        if self.condition.data not in BRANCHES:
            raise VerifyException(
                f"condition '{self.condition.data}' is not one of {', '.join(BRANCHES)}"
            )


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """The values an `accel.for` body passes to its next iteration."""

    name = "accel.yield"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(ForOp)))


UNIT = UnitAttr()


@lru_cache(maxsize=64)
def _segment_sizes(carried: int) -> DenseArrayBase:
    """An `accel.for`'s operand segments: lower, bound, `carried` values."""
    return DenseArrayBase.from_list(i32, (1, 1, carried))


@irdl_op_definition
class ForOp(StructuredControl, RegisterLoop):
    """A counted loop with loop-carried values, before and after register
    allocation (as xDSL's `riscv_scf.for`): the block arguments are the
    induction variable, starting at `lower` and advanced by `step` after
    each iteration, then the carried values (`iter_args` first, `accel.yield`
    next); the results are the last carried values.

    With `hardware`, `bound` is the trip count and the loop is a hardware
    loop (manual section 4.4: no branch out, jump or halt inside); without,
    `bound` is the induction variable's exclusive end, reached exactly, and
    the loop is a backward branch."""

    name = "accel.for"
    lower = operand_def(XRegisterType)
    bound = operand_def(XRegisterType)
    iter_args = var_operand_def(AccelRegisterType)
    res = var_result_def(AccelRegisterType)
    step = prop_def(IntegerAttr[I32])
    hardware = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        lower: SSAValue,
        bound: SSAValue,
        step: int,
        iter_args: Sequence[SSAValue],
        body: Region,
        hardware: bool,
    ):
        # Operation's own constructor, as `GetRegisterOp`'s: the lowering
        # builds a loop per loop dimension, and IRDL's generic one, which
        # also makes new attributes each time, costs several times as much.
        properties: dict[str, Attribute] = {"step": immediate(step)}
        if hardware:
            properties["hardware"] = UNIT
        properties["operandSegmentSizes"] = _segment_sizes(len(iter_args))
        Operation.__init__(
            self,
            operands=[lower, bound, *iter_args],
            result_types=[a.type for a in iter_args],
            properties=properties,
            regions=[body],
        )

    @property
    def induction_var(self) -> SSAValue:
        return self.body.block.args[0]

    def verify_(self) -> None:
        args = self.body.block.args
        if len(args) != 1 + len(self.iter_args) or not isinstance(
            args[0].type, XRegisterType
        ):
            raise VerifyException(
                "the body takes the induction variable (!accel.x) and one argument "
                "per carried value"
            )
        step = self.step.value.data
        low, high = IMMEDIATE_RANGES[Kind.SIMM16]
        if not 0 < step <= high or step < low:
            raise VerifyException(f"step {step} is not in [1, {high}]")
        if self.hardware is not None:
            for op in self.body.walk():
                spec = getattr(op, "SPEC", None)
                if spec is not None and spec.mnemonic in ("jal", "jalr", "halt"):
                    raise VerifyException(
                        f"'{op.name}' inside a hardware accel.for: a hardware "
                        "loop's body may not jump, call or halt"
                    )

    def allocate_registers(self, allocator: BlockAllocator) -> None:
        """Bottom-up, as xDSL's riscv_scf.for: what the body uses from outside
        (and the bound of a branch loop) stay live through the loop, a hardware
        loop's trip count only up to the loop; each carried value, its
        yielded value and the loop's result share one register; the initial
        values and `lower` get the registers just freed where they are free,
        so that the loop needs no moves in the common case."""
        body = self.body.block
        yielded = body.last_op
        assert isinstance(yielded, YieldOp)
        carried = zip(body.args[1:], yielded.operands, self.res, strict=True)
        every_trip = [] if self.hardware else [self.bound]  # a branch loop's compare
        self.allocate_loop(allocator, carried, every_trip)
        allocator.allocate_value(self.bound)  # a hardware loop's: read on entry
        for arg, initial in zip(body.args, (self.lower, *self.iter_args), strict=True):
            allocator.free_value(arg)
            allocator.allocate_value(initial)


def _move(target: SSAValue, source: SSAValue) -> AccelInstruction | None:
    """A register copy from `source` to `target`'s register; None if they are
    the same register."""
    if target.type == source.type:
        return None
    if isinstance(target.type, VRegisterType):
        return instruction("vor", [source, source], [target.type])
    return instruction("addi", [source], [target.type], imm=0)


def _lower_for(op: ForOp, labels: Sequence[str]) -> list[Operation]:
    body = op.body.block
    ops: list[Operation] = [
        move
        for target, source in zip(body.args, (op.lower, *op.iter_args), strict=True)
        if (move := _move(target, source)) is not None
    ]
    inner = list(body.ops)[:-1]  # without the yield
    iv = op.induction_var
    advance = instruction("addi", [iv], [iv.type], imm=op.step.value.data)
    end = labels[0]
    if op.hardware is not None:
        ops += [instruction("loop", [op.bound], target=end), *inner, LabelOp(end)]
        ops.append(advance)
    else:
        head = labels[1]
        ops += [
            instruction("bge", [iv, op.bound], target=end),
            LabelOp(head),
            *inner,
            advance,
            instruction("blt", [iv, op.bound], target=head),
            LabelOp(end),
        ]
    registers: list[Operation] = []
    for arg, result in zip(body.args, (None, *op.res), strict=True):
        assert isinstance(arg.type, AccelRegisterType)
        register = GetRegisterOp(arg.type)
        arg.replace_all_uses_with(register.result)
        if result is not None:
            result.replace_all_uses_with(
                register.result
            )  # the same register after the loop
        registers.append(register)
    return [*registers, *ops]


def _label_kinds(op: StructuredControl) -> tuple[str, ...]:
    """The kinds of the labels lowering `op` places, in the order they are named."""
    if isinstance(op, ForOp):
        return ("for",) if op.hardware is not None else ("for", "body")
    if isinstance(op, RepeatOp):
        return ("repeat",)
    return ("else", "endif")


def lower_structured_control(module: ModuleOp) -> None:
    """Replace every accel.repeat and accel.if by labels and branches; registers
    must be allocated (the new branch and loop instructions name them).
    Labels are numbered inner ops first; the ops are lowered outer ops first,
    so that each instruction moves out of its nest once, not once per level."""
    structured = [op for op in module.walk() if isinstance(op, StructuredControl)]
    counter = 0
    labels: dict[StructuredControl, list[str]] = {}
    for op in reversed(structured):
        labels[op] = []
        for kind in _label_kinds(op):
            counter += 1
            labels[op].append(f".L{kind}{counter}")
    for op in structured:
        if op in labels:
            _lower_structured(op, labels)


def _lower_structured(
    op: StructuredControl, labels: dict[StructuredControl, list[str]]
) -> None:
    """Replace `op` by labels and branches (its inner ops stay structured, but
    a repeat's last one, which the repeat's end label must go inside)."""
    names = labels.pop(op)
    for operand in op.operands:
        _require_allocated(operand, op)
    block, ops = op.parent_block(), []
    assert block is not None
    if isinstance(op, ForOp):
        ops = _lower_for(op, names)
    elif isinstance(op, RepeatOp):
        while isinstance(last := op.body.block.last_op, StructuredControl):
            _lower_structured(last, labels)
        body = list(op.body.block.ops)
        last = body[-1] if body else None
        if not isinstance(last, AccelInstruction) or last.SPEC.mnemonic in (
            "loop",
            *BRANCHES,
        ):
            x0 = XRegisterType.from_name("zero")
            zero = GetRegisterOp(x0)
            body += [zero, instruction("addi", [zero], [x0], imm=0)]
        end = names[0]
        ops = [
            instruction("loop", [op.count], target=end),
            *body[:-1],
            LabelOp(end),
            body[-1],
        ]
    else:
        assert isinstance(op, IfOp)
        then = list(op.then.block.ops)
        otherwise = [o for b in op.otherwise.blocks for o in b.ops]
        skip, end = names
        branch = INVERSE_BRANCH[op.condition.data]
        ops = [instruction(branch, [op.lhs, op.rhs], target=skip if otherwise else end)]
        ops += then
        if otherwise:
            jump = instruction("jal", [], [XRegisterType.from_name("zero")], target=end)
            ops += [jump, LabelOp(skip), *otherwise]
        ops.append(LabelOp(end))
    for inner in ops:
        if inner.parent is not None:
            inner.detach()
    block.insert_ops_before(ops, op)
    op.detach()
    op.erase()


def print_assembly(module: ModuleOp) -> str:
    """The module's assembly text (structured control must be lowered)."""
    for op in module.body.walk():
        if not isinstance(op, AssemblyPrintable):
            raise NoAssembly(
                op, f"'{op.name}' is not in the accel dialect: it has no XA-1 assembly"
            )
    stream = StringIO()
    AssemblyPrinter(stream=stream).print_module(module)
    return stream.getvalue()


Accel = Dialect(
    "accel",
    [
        *INSTRUCTIONS.values(),
        LabelOp,
        GetRegisterOp,
        KernelOp,
        FuncOp,
        CallOp,
        RetOp,
        RepeatOp,
        IfOp,
        ForOp,
        YieldOp,
    ],
    [XRegisterType, VRegisterType, MRegisterType],
)
