"""The XA-1 instruction set as data (manual sections 3 and 4): every mnemonic with its
opcode, function code, format and operand syntax, and the encoder and decoder of
32-bit words built from that one table.

The assembler, the disassembler, the simulator's decoder and the `accel` dialect
all read this table, so an instruction is described in exactly one place."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property


class Format(Enum):
    R = "R"
    R4 = "R4"
    I = "I"  # noqa: E741 - the manual's name for the format
    J = "J"


class RegClass(Enum):
    """A register file: the letter it prints with and how many registers it has."""

    X = ("x", 32)
    V = ("v", 32)
    M = ("m", 4)

    @property
    def prefix(self) -> str:
        return self.value[0]

    @property
    def count(self) -> int:
        return self.value[1]


X_ABI_NAMES: tuple[str, ...] = (
    "zero",
    "ra",
    "sp",
    "gp",
    *tuple(f"t{i}" for i in range(6)),
    *tuple(f"a{i}" for i in range(16)),
    *tuple(f"s{i}" for i in range(6)),
)
"""Section 2.1: the ABI name of x0..x31."""


def register_name(cls: RegClass, index: int) -> str:
    """The name a register prints with: ABI names for x registers."""
    return X_ABI_NAMES[index] if cls is RegClass.X else f"{cls.prefix}{index}"


_REGISTER_INDEX: dict[RegClass, dict[str, int]] = {
    cls: {f"{cls.prefix}{i}": i for i in range(cls.count)}
    | ({name: i for i, name in enumerate(X_ABI_NAMES)} if cls is RegClass.X else {})
    for cls in RegClass
}
"""Every name of every register, by file (the printer and the assembler
look one up per operand)."""


def register_index(cls: RegClass, name: str) -> int | None:
    """The index of register `name` in file `cls` (both xN and ABI names for x)."""
    return _REGISTER_INDEX[cls].get(name)


class Kind(Enum):
    """What an operand is, in assembly: a register, or an immediate with its range."""

    REG = "register"
    SIMM16 = "signed 16-bit immediate"
    UIMM16 = "unsigned 16-bit immediate"
    SHAMT = "shift amount"
    LANE = "lane"
    TAG = "DMA tag"
    MODE = "DMA mode"
    MEM = "memory operand"
    BRANCH16 = "branch target"
    JUMP21 = "jump target"
    LOOP16 = "loop end"


IMMEDIATE_RANGES: dict[Kind, tuple[int, int]] = {
    Kind.SIMM16: (-(1 << 15), (1 << 15) - 1),
    Kind.UIMM16: (0, (1 << 16) - 1),
    Kind.SHAMT: (0, 31),
    Kind.LANE: (0, 15),
    Kind.TAG: (0, 7),
    Kind.MODE: (0, 6),
    Kind.MEM: (-(1 << 15), (1 << 15) - 1),
    Kind.BRANCH16: (-(1 << 15), (1 << 15) - 1),
    Kind.JUMP21: (-(1 << 20), (1 << 20) - 1),
    Kind.LOOP16: (1, (1 << 15) - 1),
}
"""The values each immediate kind can encode (branch kinds: offsets in words)."""

DMA_MODES: tuple[str, ...] = ("raw", "i8", "u8", "i16", "u16", "f16", "bf16")
"""Section 4.5: DMA conversion modes by code."""


@dataclass(frozen=True)
class Operand:
    """One operand of an instruction's syntax: its kind, register file and field.

    `field` is the encoding field it lives in: rd, rs1, rs2, rs3, fn or imm (imm16
    or imm21). A memory operand `imm(reg)` fills both imm and rs1."""

    kind: Kind
    field: str
    cls: RegClass | None = None


def _reg(cls: RegClass, field: str) -> Operand:
    return Operand(Kind.REG, field, cls)


XD, XS1, XS2, XS3 = (_reg(RegClass.X, f) for f in ("rd", "rs1", "rs2", "rs3"))
VD, VS1, VS2, VS3 = (_reg(RegClass.V, f) for f in ("rd", "rs1", "rs2", "rs3"))
MD = _reg(RegClass.M, "rd")


class Unit(Enum):
    """The unit an instruction is counted against in a profile (section 6.2)."""

    SCALAR = "scalar"
    VECTOR = "vector"
    MATRIX = "matrix"
    DMA = "dma"


@dataclass(frozen=True)
class InstructionSpec:
    mnemonic: str
    opcode: int
    format: Format
    operands: tuple[Operand, ...]
    unit: Unit
    fn: int = 0
    """The function code (R: 11 bits, R4: 6 bits) when it selects the instruction."""

    @property
    def fn_is_operand(self) -> bool:
        return any(o.field == "fn" for o in self.operands)

    @cached_property
    def layout(self) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
        """How `encode` places the operands: the fixed bits (opcode, and a
        function code that is no operand), then per field an operand gives
        (operand index, part of a memory operand, lowest bit, mask): the
        fields `Instruction.field` reads, as it reads them."""
        fixed = self.opcode << 26
        placed: list[tuple[int, int, int, int]] = []
        for name, (low, width) in _FIELD_BITS[self.format].items():
            mask = (1 << width) - 1
            source = next(
                (
                    (index, part)
                    for index, operand in enumerate(self.operands)
                    for part in _parts(operand, name)
                ),
                None,
            )
            if source is not None:
                placed.append((*source, low, mask))
            elif name == "fn" and not self.fn_is_operand:
                fixed |= (self.fn & mask) << low
        return fixed, tuple(placed)

    @property
    def fields(self) -> frozenset[str]:
        used = {o.field for o in self.operands}
        if self.format in (Format.R, Format.R4):
            used.add("fn")
        if any(o.kind is Kind.MEM for o in self.operands):
            used.add("rs1")
        return frozenset(used)


INTEGER_FUNCTIONS: tuple[str, ...] = (
    "add", "sub", "mul", "div", "divu", "rem", "remu", "and", "or", "xor", "sll",
    "srl", "sra", "slt", "sltu", "sle", "sleu", "seq", "sne", "min", "minu", "max",
    "maxu",
)  # fmt: skip
"""Table 3.3, by function code."""

FLOAT_FUNCTIONS: tuple[str, ...] = (
    "vfadd", "vfsub", "vfmul", "vfdiv", "vfmin", "vfmax", "vfeq", "vfne", "vflt", "vfle",
)  # fmt: skip
UNARY_FUNCTIONS: tuple[str, ...] = (
    "vfsqrt", "vcvt.f32.i32", "vcvt.i32.f32", "vcvt.f32.u32", "vcvt.u32.f32",
    "vfround.rne", "vfround.rtz", "vfround.rdn", "vfround.rup", "vfround.rmm",
    "vredsum.f", "vredmax.f", "vredmin.f", "vredsum", "vredmax", "vredmin",
)  # fmt: skip
"""Section 3.4, by function code."""


def _specs() -> list[InstructionSpec]:
    S, V, M, D = Unit.SCALAR, Unit.VECTOR, Unit.MATRIX, Unit.DMA
    imm, mem = Operand(Kind.SIMM16, "imm"), Operand(Kind.MEM, "imm")
    specs = [
        InstructionSpec(name, 0x01, Format.R, (XD, XS1, XS2), S, fn)
        for fn, name in enumerate(INTEGER_FUNCTIONS)
    ]
    specs += [
        InstructionSpec("addi", 0x02, Format.I, (XD, XS1, imm), S),
        *(
            InstructionSpec(n, op, Format.I, (XD, XS1, Operand(Kind.UIMM16, "imm")), S)
            for n, op in (("andi", 0x03), ("ori", 0x04), ("xori", 0x05))
        ),
        *(
            InstructionSpec(n, op, Format.I, (XD, XS1, Operand(Kind.SHAMT, "imm")), S)
            for n, op in (("slli", 0x06), ("srli", 0x07), ("srai", 0x08))
        ),
        InstructionSpec("slti", 0x09, Format.I, (XD, XS1, imm), S),
        InstructionSpec("sltiu", 0x0A, Format.I, (XD, XS1, imm), S),
        InstructionSpec("lui", 0x0B, Format.I, (XD, Operand(Kind.UIMM16, "imm")), S),
    ]
    for op, name in enumerate(("lb", "lbu", "lh", "lhu", "lw", "sb", "sh", "sw"), 0x0C):
        specs.append(InstructionSpec(name, op, Format.I, (XD, mem), S))
    branch = Operand(Kind.BRANCH16, "imm")
    for op, name in enumerate(("beq", "bne", "blt", "bge", "bltu", "bgeu"), 0x14):
        specs.append(InstructionSpec(name, op, Format.I, (XD, XS1, branch), S))
    specs += [
        InstructionSpec("jal", 0x1A, Format.J, (XD, Operand(Kind.JUMP21, "imm")), S),
        InstructionSpec("jalr", 0x1B, Format.I, (XD, XS1, imm), S),
        InstructionSpec("loop", 0x1C, Format.I, (XS1, Operand(Kind.LOOP16, "imm")), S),
        InstructionSpec("halt", 0x1D, Format.R, (), D),
        InstructionSpec("rdcycle", 0x1E, Format.R, (XD,), S),
        InstructionSpec(
            "dma.cfg", 0x20, Format.R4, (XS1, XS2, XS3, Operand(Kind.MODE, "fn")), S
        ),
        InstructionSpec(
            "dma.ld", 0x21, Format.R, (XD, XS1, XS2, Operand(Kind.TAG, "fn")), D
        ),
        InstructionSpec(
            "dma.st", 0x22, Format.R, (XD, XS1, XS2, Operand(Kind.TAG, "fn")), D
        ),
        InstructionSpec("dma.wait", 0x23, Format.I, (Operand(Kind.TAG, "imm"),), D),
        InstructionSpec("vld", 0x28, Format.I, (VD, mem), V),
        InstructionSpec("vst", 0x29, Format.I, (VD, mem), V),
        InstructionSpec("vlx", 0x2A, Format.R, (VD, XS1, VS2), V),
        InstructionSpec("vsx", 0x2B, Format.R, (VD, XS1, VS2), V),
    ]
    specs += [
        InstructionSpec("v" + name, 0x2C, Format.R, (VD, VS1, VS2), V, fn)
        for fn, name in enumerate(INTEGER_FUNCTIONS)
    ]
    specs += [
        InstructionSpec(name, 0x2D, Format.R, (VD, VS1, VS2), V, fn)
        for fn, name in enumerate(FLOAT_FUNCTIONS)
    ]
    specs += [
        InstructionSpec(name, 0x2E, Format.R, (VD, VS1), V, fn)
        for fn, name in enumerate(UNARY_FUNCTIONS)
    ]
    specs += [
        InstructionSpec("vfmadd", 0x2F, Format.R4, (VD, VS1, VS2, VS3), V),
        InstructionSpec("vsel", 0x30, Format.R4, (VD, VS1, VS2, VS3), V),
        InstructionSpec("vsplat", 0x31, Format.R, (VD, XS1), V),
        InstructionSpec(
            "vext", 0x32, Format.I, (XD, VS1, Operand(Kind.LANE, "imm")), V
        ),
        InstructionSpec("vidx", 0x33, Format.R, (VD,), V),
        InstructionSpec("mcfg", 0x38, Format.R, (XS1, XS2), S),
        InstructionSpec("mzero", 0x39, Format.R, (MD,), M),
    ]
    specs += [
        InstructionSpec(name, 0x3A, Format.R, (MD, XS1, XS2), M, fn)
        for fn, name in enumerate(("mmac", "mmac.ta", "mmac.tb", "mmac.tatb"))
    ]
    specs += [
        InstructionSpec("mld", 0x3B, Format.R, (MD, XS1, XS2), M),
        InstructionSpec("mst", 0x3C, Format.R, (MD, XS1, XS2), M),
    ]
    return specs


SPECS: dict[str, InstructionSpec] = {s.mnemonic: s for s in _specs()}
"""Every instruction of the manual, by mnemonic (122)."""

_BY_OPCODE: dict[int, list[InstructionSpec]] = {}
for _spec in SPECS.values():
    _BY_OPCODE.setdefault(_spec.opcode, []).append(_spec)

_FIELD_BITS: dict[Format, dict[str, tuple[int, int]]] = {
    Format.R: {"rd": (21, 5), "rs1": (16, 5), "rs2": (11, 5), "fn": (0, 11)},
    Format.R4: {"rd": (21, 5), "rs1": (16, 5), "rs2": (11, 5), "rs3": (6, 5), "fn": (0, 6)},
    Format.I: {"rd": (21, 5), "rs1": (16, 5), "imm": (0, 16)},
    Format.J: {"rd": (21, 5), "imm": (0, 21)},
}  # fmt: skip
"""Section 3.1: (lowest bit, width) of every field of every format."""


@dataclass(frozen=True)
class Instruction:
    """A decoded instruction: its spec and the values of its syntax's operands, in
    order (a memory operand is one (offset, register) pair)."""

    spec: InstructionSpec
    operands: tuple[int | tuple[int, int], ...]

    def field(self, name: str) -> int:
        """The value of encoding field `name` (0 when the instruction does not use it)."""
        for operand, value in zip(self.spec.operands, self.operands, strict=True):
            if operand.kind is Kind.MEM:
                assert isinstance(value, tuple)
                if name == "imm":
                    return value[0]
                if name == "rs1":
                    return value[1]
            elif operand.field == name:
                assert isinstance(value, int)
                return value
        if name == "fn" and not self.spec.fn_is_operand:
            return self.spec.fn
        return 0

    def __str__(self) -> str:
        texts = []
        for operand, value in zip(self.spec.operands, self.operands, strict=True):
            if isinstance(value, tuple):
                texts.append(f"{value[0]}({register_name(RegClass.X, value[1])})")
            elif operand.kind is Kind.REG:
                assert operand.cls is not None
                texts.append(register_name(operand.cls, value))
            elif operand.kind is Kind.MODE:
                texts.append(DMA_MODES[value])
            else:
                texts.append(str(value))
        if not texts:
            return self.spec.mnemonic
        return f"{self.spec.mnemonic} {', '.join(texts)}"


class IllegalInstruction(Exception):
    """A word that is no instruction (section 3.5)."""


def encode(instruction: Instruction) -> int:
    """The word of a well-formed instruction (operands in range)."""
    fixed, placed = instruction.spec.layout
    word = fixed
    operands = instruction.operands
    for index, part, low, mask in placed:
        value = operands[index]
        if isinstance(value, tuple):
            value = value[part]
        word |= (value & mask) << low
    return word


def _parts(operand: Operand, name: str) -> tuple[int, ...]:
    """The part of `operand`'s value that is field `name`: (0,) for the
    whole value or a memory operand's offset, (1,) for its register, ()
    if it is not that field."""
    if operand.kind is Kind.MEM:
        return {"imm": (0,), "rs1": (1,)}.get(name, ())
    return (0,) if operand.field == name else ()


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) else value


def decode(word: int) -> Instruction:
    """The instruction of `word`, or IllegalInstruction saying why it is none."""
    candidates = _BY_OPCODE.get(word >> 26)
    if candidates is None:
        raise IllegalInstruction(f"opcode {word >> 26:#04x} is not in table 3.2")
    fmt = candidates[0].format
    fields = {
        name: (word >> low) & ((1 << width) - 1)
        for name, (low, width) in _FIELD_BITS[fmt].items()
    }
    if len(candidates) == 1 and (
        candidates[0].fn_is_operand or fmt in (Format.I, Format.J)
    ):
        spec = candidates[0]
    else:
        spec = next((s for s in candidates if s.fn == fields["fn"]), None)
        if spec is None:
            raise IllegalInstruction(
                f"function code {fields['fn']} is not listed for opcode {word >> 26:#04x}"
            )
    for name, value in fields.items():
        if value and name not in spec.fields:
            raise IllegalInstruction(f"unused field {name} of {spec.mnemonic} is not 0")
    values: list[int | tuple[int, int]] = []
    for operand in spec.operands:
        raw = fields[operand.field]
        if operand.kind is Kind.MEM:
            values.append((_signed(raw, 16), fields["rs1"]))
            continue
        value = raw
        if operand.kind in (Kind.SIMM16, Kind.BRANCH16, Kind.LOOP16):
            value = _signed(raw, 16)
        elif operand.kind is Kind.JUMP21:
            value = _signed(raw, 21)
        if operand.kind is Kind.REG:
            assert operand.cls is not None
            if value >= operand.cls.count:
                raise IllegalInstruction(f"{operand.cls.prefix} register {value} > 3")
        elif operand.kind in IMMEDIATE_RANGES:
            low, high = IMMEDIATE_RANGES[operand.kind]
            if not low <= value <= high:
                raise IllegalInstruction(
                    f"{operand.kind.value} {value} of {spec.mnemonic} is out of range"
                )
        values.append(value)
    return Instruction(spec, tuple(values))
