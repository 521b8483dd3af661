"""One `llvm.func` under construction: its blocks, the value map, helpers.

Structured ops become several blocks, so lowering walks the old body op by op
while `block` points at the block being filled. Each old SSA value maps to
its new one; index values become i64 and buffers become `!llvm.ptr` (in the
address space the target's emitter gives them: addresses computed from a
buffer stay in its space), with the old `memref` type kept for addressing
(row-major, static shape). What each op becomes is the emitter's
(`emitter.LLVMEmitter`), which the builder holds.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import IsTerminator
from xlir.passes.loop.float_formats import format_of

if TYPE_CHECKING:
    from xlir.lowering.llvm.emitter import LLVMEmitter

PTR = llvm.LLVMPointerType()
I1 = IntegerType(1)

EQ, SLT, SLE, SGT = 0, 2, 3, 4
"""`llvm.icmp` predicates (LLVM's numbering, as `arith.cmpi`'s)."""

_ALIKE: dict[object, tuple[type[Operation], dict[str, Attribute]]] = {}
"""`FunctionBuilder.emit_alike`'s ops by key: their class and properties."""


NOALIAS = "llvm.noalias"
"""The argument attribute the translation to LLVM IR writes as LLVM's `noalias`."""


def noalias_attributes(flags: Sequence[bool]) -> ArrayAttr[DictionaryAttr]:
    """A function's `arg_attrs`: `noalias` where the flag is set."""
    return ArrayAttr(DictionaryAttr({NOALIAS: UnitAttr()} if f else {}) for f in flags)


def is_noalias(value: SSAValue) -> bool:
    """Whether `value` is an argument its function marks `noalias`."""
    if not isinstance(value, BlockArgument):
        return False
    function = value.block.parent_op()
    if not isinstance(function, llvm.FuncOp) or function.arg_attrs is None:
        return False
    if value.block is not function.body.blocks[0]:
        return False
    return NOALIAS in function.arg_attrs.data[value.index].data


class Unsupported(Exception):
    """An op (or type) the target's lowering has no translation for."""

    def __init__(self, op: Operation, reason: str):
        super().__init__(reason)
        self.op = op


KEPT_TYPES = frozenset({IntegerType, Float16Type, Float32Type, Float64Type})
"""The types LLVM takes as they are, told by their exact class (`llvm_type`
asks of every value: an `isinstance` through `ABCMeta` that fails costs
more than the rest of the question, and a vector's elements failed one per
float type xDSL has)."""


def llvm_type(type_: Attribute, op: Operation) -> Attribute:
    """The LLVM-dialect type of a loop-level value type."""
    if type(type_) in KEPT_TYPES:
        return type_
    if isinstance(type_, MemRefType):
        llvm_type(type_.element_type, op)  # a pointer to elements it holds
        return PTR
    if isinstance(type_, VectorType) and len(type_.get_shape()) == 1:
        element = llvm_type(type_.element_type, op)
        if element == type_.element_type:
            return type_  # a new VectorType costs 50 us: xDSL verifies it
        return VectorType(element, type_.get_shape())
    if isinstance(type_, IndexType):
        return i64
    if isinstance(type_, IntegerType):
        return type_
    narrow = format_of(type_)
    if narrow is not None:  # bf16, float8/6/4: their bits (passes/loop/widen_floats.py)
        return narrow.storage
    if isinstance(type_, AnyFloat) and type_.bitwidth in (16, 32, 64):
        return type_
    raise Unsupported(
        op, f"has a value of type {type_}, which the target does not support"
    )


class FunctionBuilder:
    """Fills the body of one `llvm.func`; `run(op)` lowers a nested op as
    `emitter` says (or `lower`, where a caller wraps the emitter's)."""

    def __init__(
        self,
        region: Region,
        module: ModuleSymbols,
        emitter: LLVMEmitter,
        lower: Callable[[FunctionBuilder, Operation], None] | None = None,
    ):
        self.region = region
        self.block = region.blocks[0]
        self.values: dict[SSAValue, SSAValue] = {}
        self.constants: dict[tuple[int | bytes, Attribute], SSAValue] = {}
        self.module = module
        self.emitter = emitter
        self.lower_op = lower or emitter.lower_op
        """Lowers one nested op; a host lowering may wrap the emitter's."""

    # --- blocks and values -------------------------------------------------------

    def new_block(self, arg_types: Sequence[Attribute] = ()) -> Block:
        block = Block(arg_types=arg_types)
        self.region.add_block(block)
        return block

    def emit(self, op: Operation) -> SSAValue:
        """Append `op` to the current block; its first result, if any."""
        self.block.add_op(op)
        return op.results[0] if op.results else None  # pyright: ignore[reportReturnType]

    def emit_alike(
        self,
        key: object,
        make: Callable[[], Operation],
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        successors: Sequence[Block] = (),
        properties: dict[str, Attribute] | None = None,
    ) -> SSAValue:
        """Append an op whose properties depend on `key` only, but for those
        `properties` gives: made by `make` the first time, then created
        directly from the operands, result types, successors and that first
        op's properties (`properties` over them). Building properties
        dominates the cost of the lowering's common ops (xDSL makes and
        verifies each attribute anew: `ICmpOp(...)` 45 us, its `create`
        10). The ops of this module are created with their location given
        (`UNKNOWN_LOC`, as xDSL's default), which xDSL would otherwise
        import anew for each op."""
        known = _ALIKE.get(key)
        if known is None:
            op = make()
            _ALIKE[key] = (type(op), dict(op.properties))
            return self.emit(op)
        cls, first = known
        return self.emit(
            cls.create(
                operands=operands,
                result_types=result_types,
                properties=first if properties is None else {**first, **properties},
                successors=successors,
                location=UNKNOWN_LOC,
            )
        )

    def get(self, value: SSAValue) -> SSAValue:
        return self.values[value]

    def bind(self, old: SSAValue, new: SSAValue) -> None:
        self.values[old] = new

    def lower_block(self, block: Block) -> None:
        """Lower the ops of an old block, except its terminator."""
        for op in block.ops:
            if op is not block.last_op or not op.has_trait(IsTerminator):
                self.lower_op(self, op)

    def run(self, op: Operation) -> None:
        self.lower_op(self, op)

    # --- constants and integer arithmetic ------------------------------------------

    def const(self, value: int | float, type_: Attribute = i64) -> SSAValue:
        """An integer or float constant, made once at the top of the function
        (the loop level repeats its constants in every nest: one op each
        for the lowering to build and the translation to write)."""
        key = (_constant_key(value), type_)
        if key not in self.constants:
            op = constant_op(value, type_)
            entry = self.region.blocks[0]
            if entry.first_op is None:
                entry.add_op(op)
            else:
                entry.insert_op_before(op, entry.first_op)
            self.constants[key] = op.result
        return self.constants[key]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a + b; the other where one is the constant 0."""
        if integer_constant(b) == 0:
            return a
        if integer_constant(a) == 0:
            return b
        return self.emit_alike(llvm.AddOp, lambda: llvm.AddOp(a, b), [a, b], [a.type])

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a * b; the other where one is the constant 1."""
        if integer_constant(b) == 1:
            return a
        if integer_constant(a) == 1:
            return b
        return self.emit_alike(llvm.MulOp, lambda: llvm.MulOp(a, b), [a, b], [a.type])

    def icmp(self, a: SSAValue, b: SSAValue, predicate: int) -> SSAValue:
        """`llvm.icmp` with `predicate` (`EQ`, `SLT`, ...: LLVM's numbers)."""
        type_ = a.type
        result = (
            VectorType(I1, type_.get_shape()) if isinstance(type_, VectorType) else I1
        )
        return self.emit_alike(
            ("icmp", predicate),
            lambda: llvm.ICmpOp(a, b, IntegerAttr(predicate, 64)),
            [a, b],
            [result],
        )

    def load(
        self, address: SSAValue, type_: Attribute, alignment: int | None = None
    ) -> SSAValue:
        """`llvm.load` of a `type_` (`alignment` in bytes: None for the type's)."""
        return self.emit_alike(
            ("load", alignment),
            lambda: llvm.LoadOp(address, type_, alignment=alignment),
            [address],
            [type_],
        )

    def store(
        self, value: SSAValue, address: SSAValue, alignment: int | None = None
    ) -> None:
        """`llvm.store` of `value` (`alignment` in bytes: None for its type's)."""
        self.emit_alike(
            ("store", alignment),
            lambda: llvm.StoreOp(value, address, alignment=alignment),
            [value, address],
            [],
        )

    # --- control flow -----------------------------------------------------------------

    def branch(self, dest: Block, *args: SSAValue) -> None:
        self.emit_alike(
            llvm.BrOp, lambda: llvm.BrOp(dest, *args), args, [], successors=[dest]
        )

    def cond_branch(
        self,
        condition: SSAValue,
        then: Block,
        then_args: Sequence[SSAValue],
        other: Block,
        other_args: Sequence[SSAValue],
    ) -> None:
        self.emit_alike(
            ("cond_br", len(then_args), len(other_args)),
            lambda: llvm.CondBrOp(condition, then, then_args, other, other_args),
            [condition, *then_args, *other_args],
            [],
            successors=[then, other],
        )

    def convert(
        self, cls: type[Operation], value: SSAValue, type_: Attribute
    ) -> SSAValue:
        """`cls(value, type_)`: a conversion (`llvm.trunc`, `llvm.bitcast`,
        ...), whose properties are its class's alone."""
        return self.emit_alike(
            cls,
            lambda: cls(value, type_),  # pyright: ignore[reportCallIssue]
            [value],
            [type_],
        )

    def call(
        self, callee: str, args: Sequence[SSAValue], result: Attribute | None = None
    ) -> SSAValue:
        """`llvm.call` of the function `callee` on `args`, returning a
        `result` (None: a void call, which returns None)."""
        return self.emit_alike(
            ("call", len(args)),
            lambda: llvm.CallOp(callee, *args, return_type=result),
            args,
            [result] if result is not None else [],
            properties={"callee": _symbol(callee)},
        )

    def address_of(self, name: str) -> SSAValue:
        """`llvm.mlir.addressof` the symbol `name` (a function, a global)."""
        return self.emit_alike(
            "addressof",
            lambda: llvm.AddressOfOp(name, PTR),
            [],
            [PTR],
            properties={"global_name": _symbol(name)},
        )

    def intrinsic(
        self, name: str, args: Sequence[SSAValue], result: Attribute | None
    ) -> SSAValue:
        results = [result] if result else []
        return self.emit_alike(
            ("intrinsic", name, len(args)),
            lambda: llvm.CallIntrinsicOp(name, list(args), results),
            args,
            results,
        )

    def copy_bytes(
        self, target: SSAValue, source: SSAValue, size: int, may_overlap: bool
    ) -> None:
        """`llvm.memcpy` of `size` bytes, or `llvm.memmove` where the two
        ranges `may_overlap`."""
        name = "memmove" if may_overlap else "memcpy"
        self.pointer_intrinsic(
            f"llvm.{name}.p0.p0.i64",
            [target, source, self.const(size), self.const(0, I1)],
        )

    def fill_bytes(self, target: SSAValue, byte: int, size: int) -> None:
        """`llvm.memset` of `size` bytes to `byte`."""
        self.pointer_intrinsic(
            "llvm.memset.p0.i64",
            [target, self.const(byte, i8), self.const(size), self.const(0, I1)],
        )

    def pointer_intrinsic(self, name: str, args: Sequence[SSAValue]) -> None:
        """A call of a void intrinsic that takes pointers, declared with the
        operands' types: the translation would otherwise declare it with
        the types of its first call's arguments, and the address of a
        constant global is typed by its array (`[4 x i32]*`), so a second
        call on another global would not match."""
        self.module.declare(name, [a.type for a in args], llvm.LLVMVoidType())
        self.intrinsic(name, args, None)

    # --- addressing -------------------------------------------------------------------

    def element_pointer(
        self, buffer: SSAValue, indices: Sequence[SSAValue], op: Operation
    ) -> SSAValue:
        """The address of `buffer[indices]` (old values), row-major: one GEP
        over the buffer as an array of its trailing dimensions (`[d1 x [d2 x
        T]]` indexed by i0, i1, i2), so LLVM sees the subscripts themselves
        rather than a linearized sum it must take apart again."""
        type_ = buffer.type
        assert isinstance(type_, MemRefType)
        pointer = self.get(buffer)
        if not indices:
            return pointer
        element = _row_major_type(type_) or llvm_type(type_.element_type, op)
        return self.gep(
            pointer,
            (llvm.GEP_USE_SSA_VAL,) * len(indices),
            element,
            [self.get(i) for i in indices],
        )

    def gep(
        self,
        base: SSAValue,
        indices: tuple[int, ...],
        element: Attribute,
        dynamic: Sequence[SSAValue] = (),
    ) -> SSAValue:
        """An inbounds `getelementptr` of `element`s from `base`: constant
        `indices`, `llvm.GEP_USE_SSA_VAL` where the next of `dynamic` goes.
        The address is in `base`'s address space."""
        return self.emit(
            llvm.GEPOp.create(
                operands=[base, *dynamic],
                result_types=[base.type],
                properties={**_gep_properties(indices), "elem_type": element},
                location=UNKNOWN_LOC,
            )
        )


@lru_cache(maxsize=1024)
def function_type(
    inputs: tuple[Attribute, ...], output: Attribute | None = None
) -> llvm.LLVMFunctionType:
    """The type of a function of `inputs` returning `output` (None: void),
    made once (bounded: the types vary with the programs compiled)."""
    return llvm.LLVMFunctionType(inputs, output)


@lru_cache(maxsize=1024)
def _symbol(name: str) -> SymbolRefAttr:
    """A reference to the function `name` (bounded: each program brings its
    own kernels)."""
    return SymbolRefAttr(name)


@lru_cache(maxsize=1024)
def _gep_properties(indices: tuple[int, ...]) -> dict[str, Attribute]:
    """An inbounds GEP's properties for these indices, built once: a GEP per
    load and store is the lowering's most common op, and building its
    attributes each time (what `GEPOp(...)` does, 85 us) dominated
    loop-to-llvm. Bounded: the indices vary with the programs a process
    compiles."""
    return {
        "rawConstantIndices": DenseArrayBase.from_list(i32, indices),
        "noWrapFlags": IntegerAttr(0, 32),
        "inbounds": UnitAttr(),
    }


def integer_constant(value: SSAValue) -> int | None:
    """The number an integer `llvm.mlir.constant` holds; None for any other
    value."""
    owner = value.owner
    if not isinstance(owner, llvm.ConstantOp):
        return None
    number = owner.value
    return number.value.data if isinstance(number, IntegerAttr) else None


def constant_op(value: int | float, type_: Attribute) -> llvm.ConstantOp:
    """`llvm.mlir.constant` of an integer or float `value`, its properties
    built once per value and type (`ConstantOp(...)` makes and verifies a
    new attribute each time: 4x the cost)."""
    return llvm.ConstantOp.create(
        result_types=[type_],
        properties=_constant_properties(_constant_key(value), type_),
        location=UNKNOWN_LOC,
    )


def _constant_key(value: int | float) -> int | bytes:
    """An integer as it is, a float as its bits, so that 0.0 and -0.0 (equal
    in Python) and NaNs (unequal to themselves) each get their own key."""
    return value if isinstance(value, int) else struct.pack("<d", value)


@lru_cache(maxsize=4096)
def _constant_properties(key: int | bytes, type_: Attribute) -> dict[str, Attribute]:
    """Keyed by `_constant_key`."""
    if isinstance(key, int):
        value: Attribute = IntegerAttr(key, type_)  # pyright: ignore[reportArgumentType, reportCallIssue]
    else:
        value = FloatAttr(struct.unpack("<d", key)[0], type_)  # pyright: ignore[reportArgumentType, reportCallIssue]
    return dict(llvm.ConstantOp(value, type_).properties)  # pyright: ignore[reportCallIssue, reportArgumentType]


@lru_cache(maxsize=1024)
def _row_major_type(type_: MemRefType) -> Attribute | None:
    """`[d1 x [d2 x T]]` for a `d0 x d1 x d2 x T` buffer: what one GEP indexes
    with all subscripts. Made once per buffer type (attributes are costly to
    build), in a bounded cache: each program brings its own shapes; None for
    an element type the target does not support."""
    element = type_.element_type
    try:
        element = llvm_type(element, None)  # pyright: ignore[reportArgumentType]
    except Unsupported:
        return None
    for size in reversed(type_.get_shape()[1:]):
        element = llvm.LLVMArrayType(size, element)
    return element


class ModuleSymbols:
    """Functions the lowering adds on demand, once each: declarations (math
    functions, a target's runtime) and internal definitions (a CPU's
    threaded loops' chunks); and
    the constant strings of bounds checks, where `bounds_check` asks for
    them (lowering/llvm/bounds_checks.py)."""

    def __init__(self, bounds_check: bool = False):
        self.declared: dict[str, llvm.FuncOp] = {}
        self.strings: dict[str, llvm.GlobalOp] = {}
        self.globals: dict[str, llvm.GlobalOp] = {}
        """Module-level variables a target's lowering adds (a GPU's shared
        memory), by name."""
        self.bounds_check = bounds_check
        """Whether loads, stores and block transfers check their bounds."""
        self.outlined: dict[object, list[tuple[Operation, list[SSAValue], str]]] = {}
        """Loop nests a target's lowering made functions of (a CPU's threaded
        loops), by a key of their shape: each nest, its live-ins and the
        function, which a nest equal to it calls too."""
        self.nest_facts: dict[Operation, tuple[int, list[SSAValue]]] = {}
        """Each loop nest's op count and live-ins, for a target's lowering to
        compare nests by, found once."""

    def declare(self, name: str, inputs: Sequence[Attribute], output: Attribute) -> str:
        if name not in self.declared:
            type_ = function_type(tuple(inputs), output)
            self.declared[name] = llvm.FuncOp(
                name, type_, linkage=llvm.LinkageAttr("external")
            )
        return name

    def define(self, function: llvm.FuncOp) -> str:
        """Add a function the lowering built; its name."""
        name = function.sym_name.data
        assert name not in self.declared, f"{name} defined twice"
        self.declared[name] = function
        return name

    def string(self, text: str) -> str:
        """The name of an internal constant holding `text`, NUL-terminated
        (named by its content: the same in every pass and part)."""
        name = "xlir.string." + hashlib.sha1(text.encode()).hexdigest()[:16]
        if name not in self.strings:
            data = text.encode() + b"\0"
            self.strings[name] = llvm.GlobalOp(
                llvm.LLVMArrayType(len(data), i8),
                name,
                "internal",
                constant=True,
                value=StringAttr(data.decode()),
            )
        return name
