"""`loop-to-accel`: the kernels of the loop level (`loop` + `arith` + `math`)
to the `accel` dialect with unallocated registers, by xDSL rewrite patterns.
The host schedule (`device`) stays as it is: the target's executor runs it.

* Scalars: integers, `index` and `i1` live in scalar registers (32 bits;
  narrow integers in their container, sign-extended, `i1` as 0/1); f32 in
  vector registers (manual section 2.1: a scalar float is a vector with
  the value in every lane, so it is loaded with `lw` and `vsplat`). Each op becomes the instructions of the manual's table
  4.12; compares that need two instructions, negation, absolute value and
  copysign are bit operations on splatted masks; rounding to integral
  values is `vfround.*`, bit counts are software (`bit_counts.py`).
* Memory: each kernel stages its buffers in the scratchpad (`layout.py`):
  DMA loads every buffer in the prologue (in the manual's conversion mode
  for narrow types), computes there, and DMA stores the buffers it writes
  back before `halt`. `loop.load`/`loop.store` address the staged copy:
  the row-major offset of their indices, constants folded into the
  immediate.
* Loops: every dimension of `loop.parallel` (`split-parallel` makes each a
  loop of its own) and every `loop.for` becomes an `accel.for` (iteration
  values included); the innermost four levels of a nest run as hardware
  loops, outer ones as branches.

64-bit integers are pairs of 32-bit words (`wide_integers.py`). Ops or
types the chip cannot run (f64, complex, i64 ops without an emulation,
vectors of the CPU's vectorizer, an op without a lowering here) are
reported in one diagnostic listing all of them, before anything is changed.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from xdsl.context import Context
from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.dialects import accel
from xlir.dialects import arith as xarith
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp
from xlir.passes.loop.split_parallel import split_parallel
from xlir.targets.accel.bit_counts import Words, leading_zeros, population_count
from xlir.targets.accel.clamps import clamps_to_min_max
from xlir.targets.accel.half_floats import round_to_half
from xlir.targets.accel.hoist_invariants import (
    IMPURE,
    WITHOUT_EFFECT,
    hoist_invariants,
    instruction_key,
    is_pure,
)
from xlir.targets.accel.layout import (
    KernelLayout,
    Placement,
    dma_mode,
    dram_bytes,
    plan_layout,
)
from xlir.targets.accel.matmul import matmul_plan
from xlir.targets.accel.strength_reduction import count_addresses
from xlir.targets.accel.tiling import TILE_SIZE, TILE_SLOT, tile_dimension, tile_plan
from xlir.targets.accel.vector_argmax import vectorize_arg_reductions
from xlir.targets.accel.vector_lanes import LANES, vectorize_kernel
from xlir.targets.accel.vector_reductions import vectorize_reductions

from xlir.diagnostics import XlirError, format_at_op, refuse_ops
from xlir.rewriting import PatternRewriteWalker, walk_region
from xlir.walk import walk

X = accel.XRegisterType
V = accel.VRegisterType
HARDWARE_LOOPS = 4
"""Nested hardware loops the chip keeps (manual section 2.6)."""
SIGN_BIT = 0x80000000
SCRATCHPAD_ATTRIBUTE = "scratchpad_bytes"
"""On each `accel.kernel`: the scratchpad its staged buffers take."""


EXTUI = (arith.ExtUIOp, xarith.ExtUIOp)
EXTSI = (arith.ExtSIOp, xarith.ExtSIOp)
TRUNCI = (arith.TruncIOp, xarith.TruncIOp)
SITOFP = (arith.SIToFPOp, xarith.SIToFPOp)
FPTOSI = (arith.FPToSIOp, xarith.FPToSIOp)
"""xDSL's classes and xlir's (which also take vectors): passes build either."""


@cache
def register_type(type_: Attribute) -> type[accel.AccelRegisterType] | None:
    """The register file of a scalar of the loop level, or of 16 lanes of
    f32, i32 or i1 (`vector_lanes.py`); None: unsupported (asked once per
    type: the lowering asks for every value)."""
    if isinstance(type_, VectorType):
        element = type_.element_type
        lanes = type_.get_shape() == (LANES,)
        if lanes and (isinstance(element, Float32Type) or _width(element) in (1, 32)):
            return V
        return None
    if isinstance(type_, Float32Type | BFloat16Type | Float16Type):
        return V  # bf16, f16: the f32 the DMA widens it to (manual section 2.7)
    if isinstance(type_, IndexType):
        return X
    if isinstance(type_, IntegerType) and type_.width.data in (1, 8, 16, 32):
        return X
    return None


def _width(type_: Attribute) -> int:
    return type_.width.data if isinstance(type_, IntegerType) else 32


# --- what the lowering covers ------------------------------------------------------

INTEGER_BINARY = {
    arith.AddiOp: "add",
    arith.SubiOp: "sub",
    arith.MuliOp: "mul",
    arith.DivSIOp: "div",
    arith.RemSIOp: "rem",
    arith.AndIOp: "and",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
    arith.ShLIOp: "sll",
    arith.ShRSIOp: "sra",
    arith.MaxSIOp: "max",
    arith.MinSIOp: "min",
}
"""Integer ops on (sign-extended) container values."""
UNSIGNED_BINARY = {
    arith.DivUIOp: "divu",
    arith.RemUIOp: "remu",
    arith.ShRUIOp: "srl",
    arith.MaxUIOp: "maxu",
    arith.MinUIOp: "minu",
}
"""Integer ops that read their operands zero-extended."""
FLOAT_BINARY = {
    arith.AddfOp: "vfadd",
    arith.SubfOp: "vfsub",
    arith.MulfOp: "vfmul",
    arith.DivfOp: "vfdiv",
    arith.MaximumfOp: "vfmax",
    arith.MinimumfOp: "vfmin",
}
LANE_REDUCTIONS = {
    "add": "vredsum",
    "maximumf": "vredmax",
    "minimumf": "vredmin",
    "maxsi": "vredmax",
    "minsi": "vredmin",
}
"""`vector.reduction` kinds (`vector_reductions.py`) -> the `vred*`
instruction (`.f` for f32 lanes)."""
KEEPS_CANONICAL = (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.ShRSIOp)
"""Integer ops whose results stay in canonical form (no re-extension)."""
INTEGER_COMPARE = {
    "eq": ("seq", False),
    "ne": ("sne", False),
    "slt": ("slt", False),
    "sle": ("sle", False),
    "sgt": ("slt", True),
    "sge": ("sle", True),
    "ult": ("sltu", False),
    "ule": ("sleu", False),
    "ugt": ("sltu", True),
    "uge": ("sleu", True),
}
"""arith.cmpi predicate -> (instruction, operands swapped)."""
FLOAT_COMPARE = {
    "oeq": ("vfeq", False, False),
    "ogt": ("vflt", True, False),
    "oge": ("vfle", True, False),
    "olt": ("vflt", False, False),
    "ole": ("vfle", False, False),
    "une": ("vfne", False, False),
    "ugt": ("vfle", False, True),
    "uge": ("vflt", False, True),
    "ult": ("vfle", True, True),
    "ule": ("vflt", True, True),
}
"""arith.cmpf predicate -> (instruction, swapped, negated); `one`, `ueq`,
`ord`, `uno`, `false`, `true` are built from these."""
ROUNDINGS = {
    math.FloorOp: "vfround.rdn",
    math.CeilOp: "vfround.rup",
    math.RoundEvenOp: "vfround.rne",
    math.RoundOp: "vfround.rmm",
    math.TruncOp: "vfround.rtz",
}
"""f32 rounding to an integral value: one instruction each (manual 4.8)."""
BIT_COUNTS = (math.CountLeadingZerosOp, math.CtPopOp)
"""Software sequences (`bit_counts.py`)."""
SUPPORTED = (
    *INTEGER_BINARY,
    *UNSIGNED_BINARY,
    *FLOAT_BINARY,
    arith.ConstantOp,
    arith.CmpiOp,
    arith.CmpfOp,
    arith.SelectOp,
    arith.IndexCastOp,
    *EXTUI,
    *EXTSI,
    *TRUNCI,
    arith.NegfOp,
    *SITOFP,
    arith.UIToFPOp,
    *FPTOSI,
    arith.FPToUIOp,
    arith.BitcastOp,
    arith.ExtFOp,
    arith.TruncFOp,
    math.AbsFOp,
    math.CopySignOp,
    math.SqrtOp,
    math.RsqrtOp,
    *ROUNDINGS,
    math.AbsIOp,
    *BIT_COUNTS,
    vector.BroadcastOp,
    vector.ReductionOp,
    LoadOp,
    StoreOp,
    ReshapeOp,
    ForOp,
    ParallelOp,
    YieldOp,
    ReturnOp,
)


MOVES_BF16 = (LoadOp, StoreOp, arith.BitcastOp, arith.SelectOp, YieldOp, ForOp)
"""The ops that take bf16 values as they are, in their f32 containers:
`widen-floats` turns the arithmetic into f32 code and integer rounding."""
TAKES_F16 = (LoadOp, StoreOp, arith.SelectOp, YieldOp, ForOp, arith.ConstantOp)
"""The ops that take f16 values in their f32 containers as they are, beside
the conversions to and from f32 (`half_floats.py`): `widen-floats` turns
the arithmetic into f32 code between them."""


def unsupported_ops(kernel: KernelOp) -> list[tuple[Operation, str]]:
    """Every op of `kernel` this lowering cannot take, with the reason (an
    op on i64 only where `wide_integers.py` does not emulate it: a kernel
    it left as it is has such an op)."""
    found: list[tuple[Operation, str]] = []
    for argument in kernel.body.block.args:
        if not isinstance(argument.type, MemRefType) and not register_type(
            argument.type
        ):
            found.append((kernel, f"has an argument of type {argument.type}"))
    for op in walk_region(kernel.body):
        if isinstance(op, arith.ConstantOp) and not _scalar_or_lane_numbers(op.value):
            found.append((op, "has no lowering to XA-1"))
            continue
        arguments = tuple(a.type for r in op.regions for b in r.blocks for a in b.args)
        why = _refusal(type(op), op.operand_types, op.result_types, arguments)
        if why is not None:
            found.append((op, why))
    if not found:  # a kernel of no ops (an empty tensor's) uses none of its buffers
        found += [
            (kernel, f"has a buffer of {a.type} (XA-1 has none)")
            for a in kernel.body.block.args
            if isinstance(a.type, MemRefType) and dma_mode(a.type.element_type) is None
        ][:1]
    return found


@cache
def _refusal(
    kind: type[Operation],
    operands: Sequence[Attribute],
    results: Sequence[Attribute],
    arguments: Sequence[Attribute],
) -> str | None:
    """Why an op of class `kind` with values of these types (its operands',
    results', and its blocks' arguments') cannot be lowered; None: it can.
    Asked once per class and types: a kernel repeats few."""
    # Imported here: the emulation builds on this module's op classes.
    from xlir.targets.accel.wide_integers import EMULATED, WIDE_OPS, is_wide

    if not issubclass(kind, SUPPORTED):
        return "has no lowering to XA-1"
    for type_ in (*operands, *results, *arguments):
        if is_wide(type_) or (
            isinstance(type_, MemRefType) and is_wide(type_.element_type)
        ):
            if not issubclass(kind, EMULATED):
                return f"computes on {type_}, {WIDE_OPS}"
            continue
        if isinstance(type_, MemRefType):
            if dma_mode(type_.element_type) is None:
                return f"uses a buffer of {type_.element_type} (XA-1 has none)"
            continue
        if register_type(type_) is None:
            return f"computes on {type_} (XA-1 has no such type)"
        if isinstance(type_, BFloat16Type) and not issubclass(kind, MOVES_BF16):
            return "computes on bf16, which widen-floats leaves to f32"
        f16 = _takes_f16(kind, operands, results)
        if isinstance(type_, Float16Type) and not f16:
            if issubclass(kind, arith.BitcastOp):
                return "takes the bits of f16, which XA-1 holds as f32 containers"
            return "computes on f16, which widen-floats leaves to f32"
        if issubclass(kind, arith.ExtFOp | arith.TruncFOp) and not f16:
            return f"converts {type_} (XA-1 has f32 and f16 only)"
    return None


def _takes_f16(
    kind: type[Operation],
    operands: Sequence[Attribute],
    results: Sequence[Attribute],
) -> bool:
    """Whether an op of class `kind` (operands and results of these types)
    takes f16 values as they are, or converts between f16 and f32
    (`half_floats.py`)."""
    if issubclass(kind, arith.ExtFOp | arith.TruncFOp):
        return {type(operands[0]), type(results[0])} == {Float16Type, Float32Type}
    if issubclass(kind, (*SITOFP, arith.UIToFPOp, *FPTOSI, arith.FPToUIOp)):
        return True  # f16 rounded from the f32 conversion (`half_floats.py`)
    return issubclass(kind, TAKES_F16)


def _scalar_or_lane_numbers(value: Attribute) -> bool:
    """Whether a constant is a scalar or `vector_lanes.py`'s lane numbers
    0..15 (`vidx`), the only vector constant it makes."""
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return True
    return list(value.get_values()) == list(range(LANES))


def narrow_index_casts(kernel: KernelOp) -> None:
    """An index cast to i64 that only feeds `sitofp` is cast to i32 instead:
    an index is a 32-bit signed value on XA-1, so the conversion gives the
    same float (how iota's kernels number their elements)."""
    for op in [o for o in kernel.body.walk() if isinstance(o, arith.IndexCastOp)]:
        result = op.result
        if _width(result.type) != 64 or not isinstance(result.type, IntegerType):
            continue
        users = [use.operation for use in result.uses]
        if not users or not all(isinstance(u, SITOFP) for u in users):
            continue
        narrow = arith.IndexCastOp(op.input, IntegerType(32))
        Rewriter.insert_op(narrow, InsertPoint.before(op))
        for user in users:
            convert = xarith.SIToFPOp(narrow.result, user.results[0].type)
            Rewriter.replace_op(user, convert)
        Rewriter.erase_op(op)


def check_kernels(module: ModuleOp) -> None:
    """One diagnostic naming every op of the module's kernels that XA-1
    cannot run (none: nothing)."""
    problems = [
        p
        for op in module.body.block.ops
        if isinstance(op, KernelOp)
        for p in unsupported_ops(op)
    ]
    messages = [(op, f"'{xarith.full_name(op)}' {why}") for op, why in problems]
    refuse_ops("loop-to-accel cannot lower", messages, "for target 'accel'")


# --- building instructions ----------------------------------------------------------


@dataclass
class Lowered:
    """What the patterns have lowered so far: each value of the loop level
    -> the accel register that holds it, and the ops that defined them.
    Those ops stay where they were, read by the ops still to be lowered
    (which see the loop level's types), until the walk is over
    (`erase_lowered`): erasing each at once would need a cast standing in
    for every value it defined."""

    registers: dict[SSAValue, SSAValue] = field(
        default_factory=dict[SSAValue, SSAValue]
    )
    ops: list[Operation] = field(default_factory=list[Operation])
    computed: dict[Block, dict[tuple[object, ...], SSAValue]] = field(
        default_factory=dict[Block, dict[tuple[object, ...], SSAValue]]
    )
    """Per block: the pure instructions built in it before the ops the walk
    has reached, by what they compute (`Builder.emit`)."""


@dataclass
class Builder:
    """Inserts accel instructions before the op a pattern matched."""

    rewriter: PatternRewriter
    lowered: Lowered
    zeros: dict[tuple[Block, Operation | None], SSAValue] = field(
        default_factory=dict[tuple[Block, Operation | None], SSAValue]
    )
    """The zero register read at each insertion point: an op inserted there
    later comes after it, so one read serves all (constants need it)."""
    anchor: Operation | None = field(init=False)
    """The op the insertion point is before when the builder is made: the
    op the walk reached, or the loop that took its place (`_computed`)."""

    def __post_init__(self) -> None:
        self.anchor = self.rewriter.insertion_point.insert_before

    def emit(
        self,
        mnemonic: str,
        operands: Sequence[SSAValue] = (),
        result: type[accel.AccelRegisterType] | None = None,
        **properties: int | str,
    ) -> accel.AccelInstruction:
        """The instruction at the insertion point; a pure one that repeats
        one built before in the block, before an op the walk reached
        earlier, is that one (value numbering: what
        `share_common_instructions` would merge is not built twice)."""
        computed = None
        if result is not None and mnemonic not in IMPURE:
            computed = self._computed()
        if computed is not None:
            key = (mnemonic, *operands, *sorted(properties.items()))
            known = computed.get(key)
            if (
                known is not None
                and known.owner.parent is self.rewriter.insertion_point.block
            ):
                owner = known.owner
                assert isinstance(owner, accel.AccelInstruction)
                return owner
        op = accel.instruction(
            mnemonic,
            operands,
            [result.unallocated()] if result is not None else [],
            **properties,
        )
        self.insert(op)
        if computed is not None:
            computed[key] = op.results[0]
        return op

    def _computed(self) -> dict[tuple[object, ...], SSAValue] | None:
        """The pure values built in the insertion point's block, if it is
        right before the op being lowered (`anchor`): the walk lowers a
        block's ops in order, so what was built before one it reached
        earlier comes before the insertion point (other insertion points,
        at a block's end or before a loop's yield, may come before values
        built later)."""
        point = self.rewriter.insertion_point
        if point.insert_before is None or point.insert_before is not self.anchor:
            return None
        return self.lowered.computed.setdefault(point.block, {})

    def insert(self, op: Operation) -> None:
        """Put `op` at the insertion point, straight on the IR (`replace_with`
        says why)."""
        point = self.rewriter.insertion_point
        if point.insert_before is None:
            point.block.add_op(op)
        else:
            point.block.insert_op_before(op, point.insert_before)
        self.rewriter.has_done_action = True

    def x(self, mnemonic: str, *operands: SSAValue, **properties: int) -> SSAValue:
        return self.emit(mnemonic, operands, X, **properties).results[0]

    def v(self, mnemonic: str, *operands: SSAValue, **properties: int) -> SSAValue:
        return self.emit(mnemonic, operands, V, **properties).results[0]

    def register(self, name: str) -> SSAValue:
        """A register the convention sets (zero, sp), read once per block as
        `emit` builds pure instructions."""
        computed = self._computed()
        known = computed.get((name,)) if computed is not None else None
        if (
            known is not None
            and known.owner.parent is self.rewriter.insertion_point.block
        ):
            return known
        op = accel.GetRegisterOp(X.from_name(name))
        self.insert(op)
        if computed is not None:
            computed[(name,)] = op.result
        return op.result

    def zero(self) -> SSAValue:
        point = self.rewriter.insertion_point
        anchor = (point.block, point.insert_before)
        if anchor not in self.zeros:
            self.zeros[anchor] = self.register("zero")
        return self.zeros[anchor]

    def li(self, value: int) -> SSAValue:
        """A 32-bit constant in a new scalar register (the `li` pseudo)."""
        value &= 0xFFFFFFFF
        signed = value - (1 << 32) if value >= SIGN_BIT else value
        if -32768 <= signed <= 32767:
            return self.x("addi", self.zero(), imm=signed)
        if value <= 0xFFFF:
            return self.x("ori", self.zero(), imm=value)
        upper = self.emit("lui", (), X, imm=value >> 16).results[0]
        return self.x("ori", upper, imm=value & 0xFFFF) if value & 0xFFFF else upper

    def splat(self, value: SSAValue) -> SSAValue:
        return self.v("vsplat", value)

    def float_constant(self, bits: int) -> SSAValue:
        return self.splat(self.li(bits))

    def move(self, value: SSAValue) -> SSAValue:
        if isinstance(value.type, V):
            return self.v("vor", value, value)
        return self.x("addi", value, imm=0)

    def add_immediate(self, value: SSAValue, imm: int) -> SSAValue:
        if imm == 0:
            return value
        if -32768 <= imm <= 32767:
            return self.x("addi", value, imm=imm)
        return self.x("add", value, self.li(imm))

    def scale(self, value: SSAValue, factor: int) -> SSAValue:
        if factor == 0:  # a stride of an empty buffer
            return self.zero()
        if factor == 1:
            return value
        if factor & (factor - 1) == 0:
            return self.x("slli", value, imm=factor.bit_length() - 1)
        return self.x("mul", value, self.li(factor))

    def canonical(self, value: SSAValue, width: int) -> SSAValue:
        """An integer of `width` bits back in its container form."""
        if width == 1:
            return self.x("andi", value, imm=1)
        if width < 32:
            shifted = self.x("slli", value, imm=32 - width)
            return self.x("srai", shifted, imm=32 - width)
        return value

    def unsigned(self, value: SSAValue, width: int) -> SSAValue:
        """A container value zero-extended (i1 already is)."""
        if 1 < width < 32:
            return self.x("andi", value, imm=(1 << width) - 1)
        return value

    def signed(self, value: SSAValue, width: int) -> SSAValue:
        """A container value sign-extended (i1: 0/1 to 0/-1)."""
        if width == 1:
            return self.x("sub", self.zero(), value)
        return value


def accel_value(build: Builder, value: SSAValue) -> SSAValue:
    """`value` as a register of the accel dialect: an accel value itself,
    the register a lowered op's value is in, the source of the cast that
    stands for it, or a new cast (of a value still to be lowered)."""
    if isinstance(value.type, accel.AccelRegisterType):
        return value
    register = build.lowered.registers.get(value)
    if register is not None:
        return register
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and isinstance(
        owner.inputs[0].type, accel.AccelRegisterType
    ):
        return owner.inputs[0]
    file = register_type(value.type)
    assert file is not None, value.type
    cast = conversion(value, file.unallocated())
    build.rewriter.insert(cast)
    return cast.results[0]


def conversion(value: SSAValue, type_: Attribute) -> UnrealizedConversionCastOp:
    """A cast of `value` to `type_`, built as `create` builds ops (IRDL's
    generic constructor costs three times as much; the lowering builds one
    cast per value it lowers)."""
    return UnrealizedConversionCastOp.create(operands=[value], result_types=[type_])


def replace_with(build: Builder, op: Operation, values: Sequence[SSAValue]) -> None:
    """`op` lowered to `values` (accel registers), one per result: the ops
    still to be lowered read them through `accel_value`; `op` itself is
    erased after the walk (`Lowered`). Not through the rewriter, which
    would tell the walker: its walk visits every op once
    (`LoopToAccelPass`), so nothing built needs a visit."""
    for value, result in zip(values, op.results, strict=True):
        build.lowered.registers[result] = value
    build.lowered.ops.append(op)
    build.rewriter.has_done_action = True


def constant_of(value: SSAValue) -> int | None:
    """The integer an index or integer value is known to hold, if any."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp):
        return constant_of(owner.inputs[0])
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if (
        isinstance(owner, accel.AccelInstruction)
        and owner.SPEC.mnemonic == "addi"
        and isinstance(owner.operands[0].owner, accel.GetRegisterOp)
        and owner.operands[0].type == X.from_name("zero")
    ):
        imm = owner.properties["imm"]
        assert isinstance(imm, IntegerAttr)
        return imm.value.data
    return None


# --- patterns ------------------------------------------------------------------------


@dataclass
class LowerKernel(RewritePattern):
    """`loop.kernel` -> `accel.kernel`: arguments by the calling convention,
    buffers staged in the scratchpad, the body, then the stores and `halt`."""

    lowered: Lowered
    layouts: dict[SSAValue, int | tuple[SSAValue, int] | TileView | Placement]
    """The memref values of the lowered kernels -> their scratchpad offsets."""
    tiled: dict[SSAValue, Placement]
    """The buffers that move a tile at a time -> their slots (`accel-tile`)."""
    capacity: int
    """Scratchpad bytes the staged buffers may take."""
    matrix: bool = True
    """Compute matrix products on the matrix unit (`matrix_unit.py`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: KernelOp, rewriter: PatternRewriter) -> None:
        old = op.body.block
        nargs = len(old.args)
        registers = min(nargs, accel.REGISTER_ARGUMENTS)
        block = Block(arg_types=[X.from_name(f"a{i}") for i in range(registers)])
        product = matmul_plan(op, self.capacity) if self.matrix else None
        layout = None if product else plan_layout(op, self.capacity, tile_plan(op))
        kernel = accel.KernelOp(op.sym_name.data, nargs, Region(block))
        rewriter.insert(kernel)
        rewriter.insertion_point = InsertPoint.at_end(block)
        build = Builder(rewriter, self.lowered)
        arguments: list[SSAValue] = []
        for index, arg in enumerate(old.args):
            if index < registers:
                register = block.args[index]
            else:
                register = build.x(
                    "lw", build.register("sp"), offset=4 * (index - registers)
                )
            if register_type(arg.type) is V:
                register = build.splat(register)
            cast = conversion(register, arg.type)
            rewriter.insert(cast)
            arguments.append(cast.results[0])
            placement = layout.buffers[index] if layout else None
            if placement is not None and placement.slot_bytes:
                self.tiled[cast.results[0]] = placement
            elif placement is not None and placement.in_dram:
                self.layouts[cast.results[0]] = placement
            elif placement is not None:
                self.layouts[cast.results[0]] = placement.offset
        if product is not None:
            # Imported here: the emitter builds on this module's helpers.
            from xlir.targets.accel.matrix_unit import lower_matmul

            used = lower_matmul(build, product, arguments, self.capacity)
            kernel.attributes[SCRATCHPAD_ATTRIBUTE] = IntegerAttr(used, 64)
            build.emit("halt")
            rewriter.erase(op)
            return
        assert layout is not None
        kernel.attributes[SCRATCHPAD_ATTRIBUTE] = IntegerAttr(layout.high_water, 64)
        transfer(build, layout, arguments, "dma.ld")
        returned = old.last_op
        assert isinstance(returned, ReturnOp)
        rewriter.inline_block(old, InsertPoint.at_end(block), arguments)
        rewriter.insertion_point = InsertPoint.before(returned)
        transfer(build, layout, arguments, "dma.st")
        build.emit("halt")
        rewriter.erase(returned)
        rewriter.erase(op)


def transfer(
    build: Builder, layout: KernelLayout, buffers: list[SSAValue], direction: str
) -> None:
    """DMA every staged buffer in (`dma.ld`: all of them) or out (`dma.st`:
    those the kernel writes), one descriptor each, then wait for them."""
    tag = 0 if direction == "dma.ld" else 1
    issued = False
    for index, placement in enumerate(layout.buffers):
        if (
            placement is None
            or placement.slot_bytes
            or placement.in_dram
            or (direction == "dma.st" and not placement.written)
        ):
            continue
        dram = accel_value(build, buffers[index])
        descriptor(build, direction, placement, placement.offset, dram, tag)
        issued = True
    if issued:
        build.emit("dma.wait", imm=tag)


def descriptor(
    build: Builder,
    direction: str,
    placement: Placement,
    spad: int,
    dram: SSAValue,
    tag: int,
    columns: SSAValue | None = None,
    dram_stride: int = 0,
) -> None:
    """One descriptor of `placement`'s rows and columns (or `columns`)
    between scratchpad address `spad` and DRAM address `dram`, in the
    buffer's mode; the DMA configuration is one raw row again afterwards."""
    rows = placement.rows
    configured = placement.mode != "raw" or rows > 1
    if configured:
        row_bytes = (
            placement.columns if placement.mode == "raw" else 4 * placement.columns
        )
        spad_stride = row_bytes if rows > 1 else 0
        build.emit(
            "dma.cfg",
            [build.li(rows), build.li(dram_stride), build.li(spad_stride)],
            mode=placement.mode,
        )
    count = build.li(placement.columns) if columns is None else columns
    build.emit(direction, [build.li(spad), dram, count], imm=tag)
    if configured:
        one, zero = build.li(1), build.zero()
        build.emit("dma.cfg", [one, zero, zero], mode="raw")


@dataclass(frozen=True)
class TileView:
    """A tile of a buffer in its slot, cut along an index past the first:
    the row-major address of its element at (..., i, ...) is that of
    (..., i - start, ...) in `shape`, from `offset`."""

    offset: int
    start: SSAValue
    position: int
    shape: tuple[int, ...]


LOAD_TAGS = (0, 1)
STORE_TAGS = (2, 3)
"""The DMA tags of each tile slot's loads and stores."""
DRAM_TAG = 7
"""The tag of the accesses to buffers that stay in DRAM."""


@dataclass
class LowerTileLoop(RewritePattern):
    """The loop of `accel-tile` -> an `accel.for` over pairs of tiles that
    streams its tiled buffers through two scratchpad slots (manual section
    11.2): tile 0's loads before the loop; in each slot, the next tile's
    loads into the other slot, a wait for this slot's loads (and for the
    stores that last read it), the nest, and this slot's stores, which
    nothing waits for until the slot is reused. The loads past the last
    tile are issued empty (COLS 0), so the loop body has no branch.

    Without `double_buffering` the DMA and the compute take turns: each
    tile's loads are issued and waited for just before its nest, and its
    stores just after it (the naive pipeline of `benchmarks/accel.py`)."""

    lowered: Lowered
    layouts: dict[SSAValue, int | tuple[SSAValue, int] | TileView | Placement]
    tiled: dict[SSAValue, Placement]
    double_buffering: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ForOp, rewriter: PatternRewriter) -> None:
        if TILE_SIZE not in op.attributes or not in_accel_kernel(op):
            return
        size_attr = op.attributes[TILE_SIZE]
        assert isinstance(size_attr, IntegerAttr)
        size = size_attr.value.data
        upper = op.upper
        assert isinstance(upper, int)
        buffers = list(
            dict.fromkeys(
                access.buffer
                for access in op.body.walk()
                if isinstance(access, LoadOp | StoreOp) and access.buffer in self.tiled
            )
        )
        read = [
            buffer
            for buffer in buffers
            if any(isinstance(use.operation, LoadOp) for use in buffer.uses)
        ]
        build = Builder(rewriter, self.lowered)
        lower = op.lower
        assert isinstance(lower, int)
        if self.double_buffering:
            self.loads(build, read, build.li(lower), 0)
        low, bound, step, _ = loop_bounds(build, op, 0, HARDWARE_LOOPS + 1)
        carried = [accel_value(build, v) for v in op.iter_args]
        loop = new_loop((low, bound, step, False), carried)
        rewriter.insert(loop)
        body = loop.body.block
        yielded = op.block.last_op
        assert isinstance(yielded, YieldOp)
        arguments = [
            cast_back(body, arg, old.type)
            for arg, old in zip(body.args, op.block.args, strict=True)
        ]
        rewriter.inline_block(op.block, InsertPoint.at_end(body), arguments)
        rewriter.insertion_point = InsertPoint.before(yielded)
        values = [accel_value(build, v) for v in yielded.operands]
        rewriter.replace(yielded, accel.YieldOp(*values))
        start = loop.induction_var
        peeled = _peeled(op)
        end = upper + size if peeled else upper
        for slot in (0, 1):
            nests = [
                o for o in body.ops if TILE_SLOT in o.attributes and _slot(o) == slot
            ]
            rewriter.insertion_point = InsertPoint.before(nests[0])
            following = build.add_immediate(start, size)
            if self.double_buffering:
                mask = build.x("slt", following, build.li(end)) if slot else None
                self.loads(build, read, following, 1 - slot, mask)
            else:
                self.loads(build, read, start, slot)
            self.tile(build, buffers, nests, start, slot)
            start = following
        if peeled:
            lower = peeled[0].lower_bounds[tile_dimension(op)]  # pyright: ignore[reportAttributeAccessIssue]
            assert isinstance(lower, int)
            rewriter.insertion_point = InsertPoint.before(peeled[0])
            first = build.li(lower)
            if not self.double_buffering:
                self.loads(build, read, first, 0)
            self.tile(build, buffers, peeled, first, 0)
        replace_with(build, op, list(loop.res))

    def tile(
        self,
        build: Builder,
        buffers: list[SSAValue],
        nests: list[Operation],
        start: SSAValue,
        slot: int,
    ) -> None:
        """Around the nests of the tile at `start` (the builder before the
        first): wait for its loads and for the stores that last read its
        slot, address the slot, store its results behind."""
        build.emit("dma.wait", imm=LOAD_TAGS[slot])
        build.emit("dma.wait", imm=STORE_TAGS[slot])
        views = self.views(build, buffers, start, slot)
        for nest in nests:
            for inner in nest.walk():
                for position, operand in enumerate(inner.operands):
                    if operand in views:
                        inner.operands[position] = views[operand]
        build.rewriter.insertion_point = InsertPoint.after(nests[-1])
        stored = [buffer for buffer in buffers if self.tiled[buffer].written]
        for buffer in stored:
            self.move(build, "dma.st", buffer, start, slot, STORE_TAGS[slot])
        if stored and not self.double_buffering:
            build.emit("dma.wait", imm=STORE_TAGS[slot])

    def move(
        self,
        build: Builder,
        direction: str,
        buffer: SSAValue,
        start: SSAValue,
        slot: int,
        tag: int,
        mask: SSAValue | None = None,
    ) -> None:
        """One descriptor between `slot` and the tile of `buffer` at index
        `start` of its tiled dimension (empty where `mask` is 0)."""
        assert isinstance(buffer.type, MemRefType)
        placement = self.tiled[buffer]
        shape = buffer.type.get_shape()
        inner = _product(shape[placement.position + 1 :])
        element = dram_bytes(buffer.type.element_type)
        dram = build.x(
            "add",
            accel_value(build, buffer),
            build.scale(_first_index(build, placement, start), inner * element),
        )
        columns = None
        if mask is not None:
            columns = build.x("mul", build.li(placement.columns), mask)
        descriptor(
            build,
            direction,
            placement,
            placement.offset + slot * placement.slot_bytes,
            dram,
            tag,
            columns,
            shape[placement.position] * inner * element,
        )

    def loads(
        self,
        build: Builder,
        buffers: list[SSAValue],
        start: SSAValue,
        slot: int,
        mask: SSAValue | None = None,
    ) -> None:
        """The loads of the tile at `start` into `slot` (empty where `mask` is 0)."""
        for buffer in buffers:
            self.move(build, "dma.ld", buffer, start, slot, LOAD_TAGS[slot], mask)

    def views(
        self, build: Builder, buffers: list[SSAValue], start: SSAValue, slot: int
    ) -> dict[SSAValue, SSAValue]:
        """Per tiled buffer, a value that stands for it in `slot`'s nest. Its
        layout: where the tile cuts the first index, a register and an
        immediate that make the buffer's row-major address of an element of
        the tile its slot address (minus the tile's start, which buffers of
        one row size share, and the slot); else the tile's shape."""
        views: dict[SSAValue, SSAValue] = {}
        for buffer in buffers:
            assert isinstance(buffer.type, MemRefType)
            placement = self.tiled[buffer]
            base = placement.offset + slot * placement.slot_bytes
            view = conversion(buffer, buffer.type)
            build.rewriter.insert(view)
            first = _first_index(build, placement, start)
            if placement.position == 0:
                shape = buffer.type.get_shape()
                skipped = build.scale(first, 4 * _product(shape[1:]))
                before = build.x("sub", build.zero(), skipped)
                self.layouts[view.results[0]] = (before, base)
            else:
                shape = list(buffer.type.get_shape())
                shape[placement.position] = placement.size
                self.layouts[view.results[0]] = TileView(
                    base, first, placement.position, tuple(shape)
                )
            views[buffer] = view.results[0]
        return views


def _peeled(loop: ForOp) -> list[Operation]:
    """The nests of the odd last tile `accel-tile` put after `loop` (one, or
    the lanes' main nest and its remainder: `vector_lanes.py`)."""
    nests: list[Operation] = []
    following = loop.next_op
    while following is not None and TILE_SLOT in following.attributes:
        nests.append(following)
        following = following.next_op
    return nests


def _first_index(build: Builder, placement: Placement, start: SSAValue) -> SSAValue:
    """The first index of `placement`'s tiled dimension in the tile whose
    loop starts at `start`."""
    return build.add_immediate(build.scale(start, placement.scale), placement.first)


def _slot(op: Operation) -> int:
    slot = op.attributes[TILE_SLOT]
    assert isinstance(slot, IntegerAttr)
    return slot.value.data


def _product(sizes: Sequence[int]) -> int:
    product = 1
    for size in sizes:
        product *= size
    return product


@dataclass
class LowerReshape(RewritePattern):
    """`loop.reshape` of a kernel's buffer: the same bytes under another
    shape, so the same staging (`accel-tile` stages a reshaped buffer whole;
    its accesses address it row-major by the new shape)."""

    lowered: Lowered
    layouts: dict[SSAValue, int | tuple[SSAValue, int] | TileView | Placement]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter) -> None:
        if op.source not in self.layouts:
            return
        layout = self.layouts[op.source]
        if isinstance(layout, tuple | TileView):
            raise XlirError(format_at_op(op, "a reshape of a tiled buffer"))
        source = accel_value(Builder(rewriter, self.lowered), op.source)
        cast = UnrealizedConversionCastOp.get([source], [op.result.type])
        rewriter.replace(op, cast)
        self.layouts[cast.results[0]] = layout


@dataclass
class LowerMemory(RewritePattern):
    """`loop.load`/`loop.store` -> scratchpad accesses of the staged buffer
    (or of a tile's slot: its register added to the address)."""

    lowered: Lowered
    layouts: dict[SSAValue, int | tuple[SSAValue, int] | TileView | Placement]

    def address(
        self, build: Builder, buffer: SSAValue, indices: Sequence[SSAValue]
    ) -> tuple[SSAValue, int]:
        """(base register, immediate) of the element at `indices`."""
        assert isinstance(buffer.type, MemRefType)
        layout = self.layouts[buffer]
        assert not isinstance(layout, Placement)
        shape = buffer.type.get_shape()
        indices = list(indices)
        if isinstance(layout, TileView):
            shape = layout.shape
            index = accel_value(build, indices[layout.position])
            indices[layout.position] = build.x("sub", index, layout.start)
        total, constant = _element(build, indices, shape)
        offset = 4 * constant
        if isinstance(layout, TileView | int):
            offset += layout if isinstance(layout, int) else layout.offset
            base = build.zero() if total is None else build.x("slli", total, imm=2)
        else:
            base, slot = layout
            offset += slot
            if total is not None:
                base = build.x("add", base, build.x("slli", total, imm=2))
        if not -32768 <= offset <= 32767:
            base, offset = build.x("add", base, build.li(offset)), 0
        return base, offset

    def through_dram(
        self, build: Builder, op: LoadOp | StoreOp, placement: Placement
    ) -> None:
        """`op` on a buffer that stays in DRAM: its element (a vector's 16)
        moved through the bounce area by one descriptor, waited for at once
        (the next access reuses the area)."""
        buffer = op.buffer
        assert isinstance(buffer.type, MemRefType)
        total, constant = _element(build, list(op.indices), buffer.type.get_shape())
        element = dram_bytes(buffer.type.element_type)
        dram = accel_value(build, buffer)
        if total is not None:
            dram = build.x("add", dram, build.scale(total, element))
        dram = build.add_immediate(dram, constant * element)
        vector = isinstance(
            op.value.type if isinstance(op, StoreOp) else op.result.type, VectorType
        )
        elements = LANES if vector else 1
        columns = elements * element if placement.mode == "raw" else elements
        moved = replace(placement, columns=columns)
        bounce = placement.offset
        base, offset = (
            (build.zero(), bounce) if bounce <= 32767 else (build.li(bounce), 0)
        )
        if isinstance(op, LoadOp):
            descriptor(build, "dma.ld", moved, bounce, dram, DRAM_TAG)
            build.emit("dma.wait", imm=DRAM_TAG)
            if vector:
                value = build.v("vld", base, offset=offset)
            else:
                value = build.x("lw", base, offset=offset)
                if register_type(op.result.type) is V:
                    value = build.splat(value)
            replace_with(build, op, [value])
            return
        value = accel_value(build, op.value)
        if vector:
            build.emit("vst", [value, base], offset=offset)
        else:
            if isinstance(value.type, V):
                value = build.x("vext", value, imm=0)
            build.emit("sw", [value, base], offset=offset)
        descriptor(build, "dma.st", moved, bounce, dram, DRAM_TAG)
        build.emit("dma.wait", imm=DRAM_TAG)
        build.rewriter.erase(op)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, LoadOp | StoreOp) or op.buffer not in self.layouts:
            return
        build = Builder(rewriter, self.lowered)
        placement = self.layouts[op.buffer]
        if isinstance(placement, Placement):
            self.through_dram(build, op, placement)
            return
        base, offset = self.address(build, op.buffer, op.indices)
        if isinstance(op, LoadOp):
            if isinstance(op.result.type, VectorType):
                value = build.v("vld", base, offset=offset)
            else:
                value = build.x("lw", base, offset=offset)
                if register_type(op.result.type) is V:
                    value = build.splat(value)
            replace_with(build, op, [value])
            return
        value = accel_value(build, op.value)
        if isinstance(op.value.type, VectorType):
            build.emit("vst", [value, base], offset=offset)
            rewriter.erase(op)
            return
        if isinstance(value.type, V):
            value = build.x("vext", value, imm=0)
        build.emit("sw", [value, base], offset=offset)
        rewriter.erase(op)


def _element(
    build: Builder, indices: Sequence[SSAValue], shape: Sequence[int]
) -> tuple[SSAValue | None, int]:
    """The row-major element number of `indices` in `shape`: a register
    (None where every index is constant) plus a constant."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    constant = 0
    total: SSAValue | None = None
    for index, stride in zip(indices, strides, strict=True):
        known = constant_of(index)
        if known is not None:
            constant += known * stride
            continue
        term = build.scale(accel_value(build, index), stride)
        total = term if total is None else build.x("add", total, term)
    return total, constant


def loop_height(op: Operation) -> int:
    """Levels of loops in `op`'s nest, `op` included."""
    below = max(
        (loop_height(inner) for r in op.regions for b in r.blocks for inner in b.ops),
        default=0,
    )
    if type(op) is ParallelOp:
        return below + len(op.static_lower.get_values())
    if type(op) in (ForOp, accel.ForOp):
        return below + 1
    return below


def trip_bounds(
    build: Builder,
    lower: int | SSAValue,
    upper: int | SSAValue,
    step: int,
    hardware: bool,
) -> tuple[SSAValue, SSAValue]:
    """(lower, bound) of a loop dimension, in registers: the trip count of a
    hardware loop, the exact end of a branch loop."""
    if isinstance(lower, int) and isinstance(upper, int):
        trips = max(0, -(-(upper - lower) // step))
        bound = trips if hardware else lower + trips * step
        return build.li(lower), build.li(bound)
    low = build.li(lower) if isinstance(lower, int) else accel_value(build, lower)
    high = build.li(upper) if isinstance(upper, int) else accel_value(build, upper)
    span = build.x("max", build.x("sub", high, low), build.zero())
    if step > 1:
        span = build.x("divu", build.add_immediate(span, step - 1), build.li(step))
    if hardware:
        return build.move(low), span
    end = build.x("add", low, build.scale(span, step))
    return build.move(low), end


def static_step(op: ParallelOp | ForOp, dimension: int) -> int:
    step = op.steps[dimension]
    if not isinstance(step, int):
        known = constant_of(step)
        if known is None:
            raise XlirError(
                format_at_op(
                    op, f"'{op.name}' has a dynamic step; XA-1 needs a constant one"
                )
            )
        return known
    return step


def loop_bounds(
    build: Builder, op: ParallelOp | ForOp, dimension: int, height: int
) -> tuple[SSAValue, SSAValue, int, bool]:
    """(lower, bound, step, hardware) of one dimension as `accel.for` takes
    them, computed where the builder inserts."""
    step = static_step(op, dimension)
    hardware = height <= HARDWARE_LOOPS
    low, bound = trip_bounds(
        build, op.lower_bounds[dimension], op.upper_bounds[dimension], step, hardware
    )
    return low, bound, step, hardware


def new_loop(
    bounds: tuple[SSAValue, SSAValue, int, bool], iter_args: Sequence[SSAValue]
) -> accel.ForOp:
    low, bound, step, hardware = bounds
    block = Block(arg_types=[X.unallocated(), *(a.type for a in iter_args)])
    return accel.ForOp(low, bound, step, iter_args, Region(block), hardware)


def in_accel_kernel(op: Operation) -> bool:
    """Whether `op` is inside a kernel already lowered (the host's ops are not)."""
    parent = op.parent_op()
    while parent is not None and type(parent) is not accel.KernelOp:
        parent = parent.parent_op()
    return parent is not None


@dataclass
class LowerLoops(RewritePattern):
    """`loop.for` -> `accel.for` with its carried values; `loop.parallel`
    -> an `accel.for` per dimension (`split_parallel`; none: its body)."""

    lowered: Lowered

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ForOp) and in_accel_kernel(op):
            lower_loop(rewriter, self.lowered, op)
        elif isinstance(op, ParallelOp) and in_accel_kernel(op):
            for loop in split_parallel(op, rewriter):
                lower_loop(rewriter, self.lowered, loop)


def lower_loop(
    rewriter: PatternRewriter, lowered: Lowered, op: ForOp | ParallelOp
) -> None:
    """`op` (one dimension) as an `accel.for`, in its place."""
    rewriter.insertion_point = InsertPoint.before(op)
    build = Builder(rewriter, lowered)
    iter_args = op.iter_args if isinstance(op, ForOp) else ()
    carried = [accel_value(build, v) for v in iter_args]
    loop = new_loop(loop_bounds(build, op, 0, loop_height(op)), carried)
    rewriter.insert(loop)
    inner = loop.body.block
    arguments = [
        cast_back(inner, arg, old.type)
        for arg, old in zip(inner.args, op.block.args, strict=True)
    ]
    yielded = op.block.last_op
    assert isinstance(yielded, YieldOp)
    rewriter.inline_block(op.block, InsertPoint.at_end(inner), arguments)
    rewriter.insertion_point = InsertPoint.before(yielded)
    values = [accel_value(build, v) for v in yielded.operands]
    rewriter.replace(yielded, accel.YieldOp(*values))
    rewriter.insertion_point = InsertPoint.after(loop)
    replace_with(build, op, list(loop.res))


def cast_back(block: Block, value: SSAValue, type_: Attribute) -> SSAValue:
    """A cast of accel `value` to the loop level's `type_`, at the start of `block`."""
    cast = conversion(value, type_)
    if block.first_op is None:
        block.add_op(cast)
    else:
        block.insert_op_before(cast, block.first_op)
    return cast.results[0]


@dataclass
class LowerScalar(RewritePattern):
    """arith and math ops on scalars -> scalar and vector instructions."""

    lowered: Lowered

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _is_scalar_op(type(op)) or not in_accel_kernel(op):
            return
        build = Builder(rewriter, self.lowered)
        operands = [accel_value(build, v) for v in op.operands]
        replace_with(build, op, [lower_scalar(build, op, operands)])


@cache
def _is_scalar_op(kind: type[Operation]) -> bool:
    """Whether `LowerScalar` lowers ops of class `kind` (asked once per class:
    the pattern sees every op, and `SUPPORTED` is a long tuple)."""
    structure = (LoadOp, StoreOp, ForOp, ParallelOp, YieldOp, ReturnOp)
    return issubclass(kind, SUPPORTED) and not issubclass(kind, structure)


def lower_scalar(build: Builder, op: Operation, operands: list[SSAValue]) -> SSAValue:
    """The register holding the result of scalar `op`."""
    if isinstance(op, arith.ConstantOp):
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):  # `vector_lanes.py`'s 0..15
            return build.v("vidx")
        if isinstance(value, FloatAttr):
            bits = struct.unpack("<I", struct.pack("<f", value.value.data))[0]
            return build.float_constant(bits)
        assert isinstance(value, IntegerAttr)
        data = value.value.data
        if _width(op.results[0].type) == 1:
            data &= 1  # `true` may be held as -1: i1 lives as 0/1
        return build.li(data)
    if isinstance(op, vector.BroadcastOp):
        value = operands[0]  # a scalar f32 is a splat already
        return value if isinstance(value.type, V) else build.splat(value)
    if isinstance(op, vector.ReductionOp):  # the lanes' result in every lane
        if isinstance(op.dest.type, Float32Type):
            return build.v(LANE_REDUCTIONS[op.kind.data.value] + ".f", operands[0])
        total = build.v(LANE_REDUCTIONS[op.kind.data.value], operands[0])
        return build.x("vext", total, imm=0)
    if any(isinstance(r.type, VectorType) for r in op.results):
        return lower_lanes(build, op, operands)
    width = _width(op.operands[0].type) if op.operands else 32
    if type(op) in INTEGER_BINARY:
        a, b = operands
        if isinstance(
            op, arith.DivSIOp | arith.RemSIOp | arith.MaxSIOp | arith.MinSIOp
        ):
            a, b = build.signed(a, width), build.signed(b, width)
        result = build.x(INTEGER_BINARY[type(op)], a, b)
        return (
            result
            if isinstance(op, KEEPS_CANONICAL)
            else build.canonical(result, width)
        )
    if type(op) in UNSIGNED_BINARY:
        a, b = (build.unsigned(v, width) for v in operands)
        return build.canonical(build.x(UNSIGNED_BINARY[type(op)], a, b), width)
    if type(op) in FLOAT_BINARY:
        return build.v(FLOAT_BINARY[type(op)], *operands)
    if isinstance(op, arith.CmpiOp):
        name, swapped = INTEGER_COMPARE[
            arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        ]
        a, b = operands
        if name in ("sltu", "sleu"):
            a, b = build.unsigned(a, width), build.unsigned(b, width)
        elif name in ("slt", "sle"):
            a, b = build.signed(a, width), build.signed(b, width)
        return build.x(name, *((b, a) if swapped else (a, b)))
    if isinstance(op, arith.CmpfOp):
        return float_compare(
            build, arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data], *operands
        )
    if isinstance(op, arith.SelectOp):
        condition, a, b = operands
        if isinstance(a.type, V):
            return build.v("vsel", build.splat(condition), a, b)
        mask = build.x("sub", build.zero(), condition)
        return build.x("xor", b, build.x("and", build.x("xor", a, b), mask))
    if isinstance(op, arith.IndexCastOp):
        return build.canonical(operands[0], _width(op.results[0].type))
    if isinstance(op, EXTUI):
        return build.unsigned(operands[0], width)
    if isinstance(op, EXTSI):
        return build.signed(operands[0], width)
    if isinstance(op, TRUNCI):
        return build.canonical(operands[0], _width(op.results[0].type))
    if isinstance(op, arith.NegfOp | math.AbsFOp | math.CopySignOp | math.SqrtOp):
        return lower_scalar_float(build, op, operands)
    if isinstance(op, math.RsqrtOp):
        return lower_scalar_float(build, op, operands)
    if type(op) in ROUNDINGS:
        return build.v(ROUNDINGS[type(op)], operands[0])
    if isinstance(op, math.AbsIOp | math.CountLeadingZerosOp | math.CtPopOp):
        return integer_unary(Words(build, lanes=False), op, operands[0], width)
    if isinstance(op, arith.ExtFOp):  # f16 to f32: its container already
        return operands[0]
    if isinstance(op, arith.TruncFOp):
        return round_to_half(build, operands[0])
    if isinstance(op, (*SITOFP, arith.UIToFPOp)):
        return to_float(build, op, operands[0], width)
    if isinstance(op, (*FPTOSI, arith.FPToUIOp)):
        name = "vcvt.u32.f32" if isinstance(op, arith.FPToUIOp) else "vcvt.i32.f32"
        converted = build.x("vext", build.v(name, operands[0]), imm=0)
        return build.canonical(converted, _width(op.results[0].type))
    if isinstance(op, arith.BitcastOp):
        if isinstance(op.results[0].type, BFloat16Type):  # i16 bits to the container
            return build.splat(build.x("slli", operands[0], imm=16))
        if isinstance(operands[0].type, V):
            bits = build.x("vext", operands[0], imm=0)
            if isinstance(op.operands[0].type, BFloat16Type):  # the top 16 bits
                return build.x("srai", bits, imm=16)
            return bits
        return build.splat(operands[0])
    raise AssertionError(f"no lowering of {op.name}")  # unsupported_ops lists it


def to_float(build: Builder, op: Operation, value: SSAValue, width: int) -> SSAValue:
    """An integer (a scalar or i32 lanes) converted to f32, or to f16: the
    f32 rounded (exact below 2^24; from there both are infinity)."""
    unsigned = isinstance(op, arith.UIToFPOp)
    if isinstance(value.type, X):
        converted = (
            build.unsigned(value, width) if unsigned else build.signed(value, width)
        )
        value = build.splat(converted)
    result = build.v("vcvt.f32.u32" if unsigned else "vcvt.f32.i32", value)
    if isinstance(op.results[0].type, Float16Type):
        return round_to_half(build, result)
    if isinstance(op.results[0].type, VectorType):
        element = op.results[0].type.element_type
        if isinstance(element, Float16Type):
            return round_to_half(build, result)
    return result


def lower_scalar_float(
    build: Builder, op: Operation, operands: list[SSAValue]
) -> SSAValue:
    """Sign manipulation and square roots: the same on a splat and on lanes."""
    if isinstance(op, arith.NegfOp):
        return build.v("vxor", operands[0], build.float_constant(SIGN_BIT))
    if isinstance(op, math.AbsFOp):
        return build.v("vand", operands[0], build.float_constant(SIGN_BIT - 1))
    if isinstance(op, math.CopySignOp):
        magnitude = build.v("vand", operands[0], build.float_constant(SIGN_BIT - 1))
        sign = build.v("vand", operands[1], build.float_constant(SIGN_BIT))
        return build.v("vor", magnitude, sign)
    if isinstance(op, math.SqrtOp):
        return build.v("vfsqrt", operands[0])
    assert isinstance(op, math.RsqrtOp)
    one = build.float_constant(0x3F800000)
    return build.v("vfdiv", one, build.v("vfsqrt", operands[0]))


def integer_unary(words: Words, op: Operation, value: SSAValue, width: int) -> SSAValue:
    """absi (the larger of x and 0 - x, wrapping as the CPU's does at the
    most negative value), ctlz and ctpop (`bit_counts.py`) of a `width`-bit
    integer: a container value or i32 lanes."""
    if isinstance(op, math.CountLeadingZerosOp):
        return leading_zeros(words, value, width)
    if isinstance(op, math.CtPopOp):
        return population_count(words, value, width)
    negated = words("sub", words.constant(0), value)
    return words.build.canonical(words("max", value, negated), width)


def lower_lanes(build: Builder, op: Operation, operands: list[SSAValue]) -> SSAValue:
    """The vector register holding the lanes of `op` (i32, i1 or f32 lanes,
    `vector_lanes.py` vectorized only ops of those types)."""
    if type(op) in INTEGER_BINARY:
        return build.v("v" + INTEGER_BINARY[type(op)], *operands)
    if type(op) in UNSIGNED_BINARY:
        return build.v("v" + UNSIGNED_BINARY[type(op)], *operands)
    if type(op) in FLOAT_BINARY:
        return build.v(FLOAT_BINARY[type(op)], *operands)
    if isinstance(op, arith.CmpiOp):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        name, swapped = INTEGER_COMPARE[predicate]
        a, b = operands
        return build.v("v" + name, *((b, a) if swapped else (a, b)))
    if isinstance(op, arith.CmpfOp):
        predicate = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        return float_lanes(build, predicate, *operands)
    if isinstance(op, arith.SelectOp):
        return build.v("vsel", *operands)
    if isinstance(op, arith.NegfOp | math.AbsFOp | math.CopySignOp | math.SqrtOp):
        return lower_scalar_float(build, op, operands)
    if isinstance(op, math.RsqrtOp):
        return lower_scalar_float(build, op, operands)
    if type(op) in ROUNDINGS:
        return build.v(ROUNDINGS[type(op)], operands[0])
    if isinstance(op, math.AbsIOp | math.CountLeadingZerosOp | math.CtPopOp):
        return integer_unary(Words(build, lanes=True), op, operands[0], 32)
    if isinstance(op, (*SITOFP, arith.UIToFPOp)):
        return to_float(build, op, operands[0], width=32)
    if isinstance(op, FPTOSI):
        return build.v("vcvt.i32.f32", operands[0])
    if isinstance(op, arith.FPToUIOp):
        return build.v("vcvt.u32.f32", operands[0])
    if isinstance(op, arith.ExtFOp):  # f16 lanes to f32: their containers
        return operands[0]
    if isinstance(op, arith.TruncFOp):
        return round_to_half(build, operands[0])
    if isinstance(op, arith.BitcastOp):
        return operands[0]  # the same 32 bits per lane
    raise AssertionError(f"no lane lowering of {op.name}")  # vector_lanes checked


def float_lanes(build: Builder, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """An f32 comparison as 0/1 lanes."""
    if predicate in ("false", "true"):
        return build.splat(build.li(int(predicate == "true")))
    one = build.splat(build.li(1))
    if predicate in ("ord", "uno"):
        both = build.v("vand", build.v("vfeq", a, a), build.v("vfeq", b, b))
        return both if predicate == "ord" else build.v("vxor", both, one)
    if predicate in ("one", "ueq"):
        either = build.v("vor", build.v("vflt", a, b), build.v("vflt", b, a))
        return either if predicate == "one" else build.v("vxor", either, one)
    name, swapped, negated = FLOAT_COMPARE[predicate]
    lanes = build.v(name, *((b, a) if swapped else (a, b)))
    return build.v("vxor", lanes, one) if negated else lanes


def float_compare(build: Builder, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """An f32 comparison as a 0/1 scalar."""
    if predicate in ("false", "true"):
        return build.li(int(predicate == "true"))
    if predicate in ("ord", "uno"):
        both = build.v("vand", build.v("vfeq", a, a), build.v("vfeq", b, b))
        ordered = build.x("vext", both, imm=0)
        return ordered if predicate == "ord" else build.x("xori", ordered, imm=1)
    if predicate in ("one", "ueq"):
        either = build.v("vor", build.v("vflt", a, b), build.v("vflt", b, a))
        differs = build.x("vext", either, imm=0)
        return differs if predicate == "one" else build.x("xori", differs, imm=1)
    name, swapped, negated = FLOAT_COMPARE[predicate]
    lanes = build.v(name, *((b, a) if swapped else (a, b)))
    result = build.x("vext", lanes, imm=0)
    return build.x("xori", result, imm=1) if negated else result


# --- after the patterns ------------------------------------------------------------


def remove_dead(kernel: accel.KernelOp) -> None:
    """Erase instructions and register reads whose results nothing uses. One
    walk from the end: every read of a value comes after its definition
    (or inside an op after it), so a definition is met after the reads that
    erasing can remove."""
    for op in list(walk_region(kernel.body, reverse=True)):
        if (
            type(op) in WITHOUT_EFFECT
            and op.results
            and not any(r.uses for r in op.results)
        ):
            op.detach()
            op.erase()


def share_common_instructions(kernel: accel.KernelOp) -> None:
    """An instruction that repeats one before it in its block (the same
    mnemonic, operands and immediates; no side effect, no memory read) is
    replaced by that one's result: the address of one element computed for
    each buffer a loop body reads, a constant splatted twice. The kernel's
    own block first, then the blocks nested in it, outer ones first."""
    nested = [
        block
        for op in walk_region(kernel.body)
        for region in op.regions
        for block in region.blocks
    ]
    for block in [*kernel.body.blocks, *nested]:
        seen: dict[tuple[object, ...], SSAValue] = {}
        for inner in list(block.ops):
            if not is_pure(inner):
                continue
            key = instruction_key(inner)
            if key in seen:
                inner.results[0].replace_all_uses_with(seen[key])
                inner.detach()
                inner.erase()
            else:
                seen[key] = inner.results[0]


def fuse_multiply_adds(kernel: accel.KernelOp) -> None:
    """`vfadd c, (vfmul a, b)` whose product nothing else reads -> `vfmadd a,
    b, c`: the same two roundings (manual section 4.7), one instruction."""
    for op in list(walk_region(kernel.body)):
        if op.name != "accel.vfadd":  # by name: faster than isinstance per op
            continue
        for product, addend in ((op.operands[1], op.operands[0]), op.operands):
            owner = product.owner
            if (
                isinstance(owner, accel.AccelInstruction)
                and owner.SPEC.mnemonic == "vfmul"
                and product.has_one_use()
                and owner.parent_block() is op.parent_block()
            ):
                fused = accel.instruction(
                    "vfmadd", [*owner.operands, addend], [V.unallocated()]
                )
                block = op.parent_block()
                assert block is not None
                block.insert_op_before(fused, op)
                op.results[0].replace_all_uses_with(fused.results[0])
                op.detach()
                op.erase()
                owner.detach()
                owner.erase()
                break


def separate_yields(kernel: accel.KernelOp) -> None:
    """Give each value an `accel.for` yields a register of its own where
    sharing its carried value's register would clobber a value still
    needed: a yielded block argument or outer value, a value yielded twice,
    one defined in a nested region, or one defined before the last read of
    its carried value. Such a value is copied right before the yield (a
    block argument first copied at the start of the body)."""
    for loop in [op for op in walk_region(kernel.body) if type(op) is accel.ForOp]:
        body = loop.body.block
        yielded = body.last_op
        assert isinstance(yielded, accel.YieldOp)
        order = {op: i for i, op in enumerate(body.ops)}
        seen: set[SSAValue] = set()
        for index, (value, carried) in enumerate(
            zip(yielded.operands, body.args[1:], strict=True)
        ):
            if isinstance(value, BlockArgument) and value.block is body:
                copy = _copy(value)
                body.insert_op_before(copy, body.first_op)  # pyright: ignore[reportArgumentType]
                yielded.operands[index] = value = copy.results[0]
                order = {op: i for i, op in enumerate(body.ops)}
            owner = value.owner
            safe = (
                isinstance(owner, Operation)
                and owner.parent_block() is body
                and value not in seen
                and all(
                    order[_top(use.operation, body)] <= order[owner]
                    for use in carried.uses
                )
            )
            seen.add(value)
            if not safe:
                copy = _copy(value)
                body.insert_op_before(copy, yielded)
                yielded.operands[index] = copy.results[0]


def _copy(value: SSAValue) -> accel.AccelInstruction:
    """A register copy of `value` into a new register (`mv` / `vmv`)."""
    if isinstance(value.type, V):
        return accel.instruction("vor", [value, value], [V.unallocated()])
    return accel.instruction("addi", [value], [X.unallocated()], imm=0)


def _top(op: Operation, block: Block) -> Operation:
    """The op of `block` that is or holds `op`."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def reconcile_casts(module: ModuleOp, lowered: Lowered) -> None:
    """After the walk: fold each cast back to the accel value it stands for
    (a value read before its op was lowered: a loop's yield is lowered
    before its body), erase the lowered ops, and drop the casts of the
    kernels' buffers, which nothing reads once loads and stores are lowered."""
    casts = [o for o in walk(module) if type(o) is UnrealizedConversionCastOp]
    for cast in casts:
        source = cast.inputs[0]
        while True:
            if source in lowered.registers:
                source = lowered.registers[source]
            elif isinstance(source.owner, UnrealizedConversionCastOp):
                source = source.owner.inputs[0]
            else:
                break
        if source.type == cast.results[0].type:
            cast.results[0].replace_all_uses_with(source)
    for op in lowered.ops:  # out of the IR, reading nothing
        op.detach()
        op.drop_all_references()
    left: list[UnrealizedConversionCastOp] = []
    for cast in reversed(casts):
        if cast.results[0].uses:
            left.insert(0, cast)
        else:
            cast.detach()
            cast.erase()
    if left:
        raise XlirError(
            format_at_op(left[0], "loop-to-accel left a value it could not convert")
        )
    for op in lowered.ops:
        op.erase(drop_references=False)


@dataclass(frozen=True)
class LoopToAccelPass(ModulePass):
    """The loop level's kernels to the accel dialect (module docstring)."""

    name = "loop-to-accel"

    scratchpad_bytes: int = 512 * 1024
    """The scratchpad's size (the target's TargetInfo)."""
    reserved_bytes: int = 32 * 1024
    """At its top: the stack (arguments past the sixteenth) and spill slots."""
    lanes: bool = True
    """Put innermost parallel dimensions on the vector lanes (`vector_lanes.py`)."""
    matrix: bool = True
    """Compute matrix products on the matrix unit (`matrix_unit.py`)."""
    double_buffering: bool = True
    """Load a tiled nest's next tile while it computes the current one
    (`LowerTileLoop`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Imported here: the emulation builds on this module's op classes.
        from xlir.targets.accel.wide_integers import legalize_wide_integers

        kernels = [k for k in op.body.block.ops if isinstance(k, KernelOp)]
        for kernel in kernels:
            narrow_index_casts(kernel)
            legalize_wide_integers(kernel)
        check_kernels(op)
        capacity = self.scratchpad_bytes - self.reserved_bytes
        for kernel in kernels:
            if self.matrix and matmul_plan(kernel, capacity) is not None:
                continue  # the matrix unit's (matrix_unit.py)
            if self.lanes:
                vectorize_kernel(kernel)
                vectorize_reductions(kernel)
                vectorize_arg_reductions(kernel)
        layouts: dict[SSAValue, int | tuple[SSAValue, int] | TileView | Placement] = {}
        tiled: dict[SSAValue, Placement] = {}
        lowered = Lowered()
        patterns = [
            LowerKernel(lowered, layouts, tiled, capacity, self.matrix),
            LowerTileLoop(lowered, layouts, tiled, self.double_buffering),
            LowerLoops(lowered),
            LowerReshape(lowered, layouts),
            LowerMemory(lowered, layouts),
            LowerScalar(lowered),
        ]
        # One visit per op of the loop level, parents before their bodies (a
        # kernel's and a tile loop's layouts are known before the accesses in
        # them): the patterns build only accel instructions and casts, which
        # no pattern matches, so rewalking what they built finds nothing. The
        # ops lowered stay until `reconcile_casts` (`Lowered`); dead code is
        # `remove_dead`'s, after: the host schedule stays as it is.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, dce_enabled=False),
            apply_recursively=False,
        ).rewrite_module(op)
        reconcile_casts(op, lowered)
        for kernel in op.body.block.ops:
            if isinstance(kernel, accel.KernelOp):
                remove_dead(kernel)
                share_common_instructions(kernel)
                clamps_to_min_max(kernel)
                fuse_multiply_adds(kernel)
                hoist_invariants(kernel)
                count_addresses(kernel)
                separate_yields(kernel)
