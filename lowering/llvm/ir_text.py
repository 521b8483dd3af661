"""LLVM IR text straight from the llvm dialect.

xDSL's translation builds an llvmlite `ir` object for every op, which
llvmlite then prints, and LLVM parses the text again: the objects and their
printing were most of the translation's cost, for text no one reads. Here
each op kind has a printer (`_PRINTERS`, looked up by the op's exact class)
that writes its line of LLVM IR from the op, each type attribute is
formatted once per module (`_Emitter.type`), and values are numbered as LLVM
numbers unnamed values (`%0`, `%1`, ... in the order they are defined, a
function's arguments first, each block's label among them), so LLVM's
parse stores no names either. Constants (`llvm.mlir.constant`, `zero`,
`undef`, `addressof`) are written where they are used, as LLVM writes them.

It translates what xDSL's translation does, with xlir's additions on top:
float intrinsics are declared with their type suffix (`llvm.sqrt.f32`,
`llvm.sqrt.v4f32`: LLVM's names of overloads), a `getelementptr`'s base
keeps its address space, functions keep their linkage and the flags of
`FUNCTION_FLAGS` (and `passthrough` attributes), globals their alignment,
functions and globals named in `exported` are external whatever their
linkage, and a branch marked `INTERLEAVE_COUNT` gets its loop metadata. An
op, a type or a property it has no translation for is an
`LLVMTranslationException` that names it: nothing is dropped silently.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import LLVMTranslationException
from xlir.dialects import llvm as xlir_llvm
from xlir.lowering.llvm.control import INTERLEAVE_COUNT

from xlir.walk import block_ops

FUNCTION_FLAGS = {"no_inline": "noinline", "optimize_none": "optnone"}
"""`llvm.func` unit properties and the LLVM function attributes they mean."""

_ARGUMENT_FLAGS = {
    "llvm.inreg": "inreg",
    "llvm.nest": "nest",
    "llvm.noalias": "noalias",
    "llvm.nocapture": "captures(none)",
    "llvm.nofree": "nofree",
    "llvm.nonnull": "nonnull",
    "llvm.noundef": "noundef",
    "llvm.returned": "returned",
    "llvm.signext": "signext",
    "llvm.zeroext": "zeroext",
}
_ARGUMENT_INTS = {
    "llvm.align": "align {}",
    "llvm.dereferenceable": "dereferenceable({})",
    "llvm.dereferenceable_or_null": "dereferenceable_or_null({})",
}
"""Argument attributes of `llvm.func`'s `arg_attrs` and LLVM's words for
them (xDSL's translation's set, but the typed ones, `llvm.byval` ...)."""

_FLOAT_INTRINSICS: dict[type[Operation], str] = {
    llvm.FAbsOp: "llvm.fabs",
    llvm.FExpOp: "llvm.exp",
    llvm.FCeilOp: "llvm.ceil",
    llvm.FSinOp: "llvm.sin",
    llvm.FFloorOp: "llvm.floor",
    llvm.FExp2Op: "llvm.exp2",
    llvm.FSqrtOp: "llvm.sqrt",
    llvm.FLogOp: "llvm.log",
    llvm.FCosOp: "llvm.cos",
    llvm.FLog2Op: "llvm.log2",
    llvm.FPowOp: "llvm.pow",
    llvm.VectorFMaxOp: "llvm.maxnum",
    llvm.VectorFMinOp: "llvm.minnum",
    llvm.FCopySignOp: "llvm.copysign",
    llvm.FMAOp: "llvm.fma",
    llvm.VectorReduceFAddOp: "llvm.vector.reduce.fadd",
    llvm.VectorReduceFMulOp: "llvm.vector.reduce.fmul",
}
"""Ops that are calls of an intrinsic overloaded on their last operand's
type."""

_BINARY = {
    llvm.AddOp: "add",
    llvm.SubOp: "sub",
    llvm.MulOp: "mul",
    llvm.UDivOp: "udiv",
    llvm.SDivOp: "sdiv",
    llvm.URemOp: "urem",
    llvm.SRemOp: "srem",
    llvm.ShlOp: "shl",
    llvm.LShrOp: "lshr",
    llvm.AShrOp: "ashr",
    llvm.AndOp: "and",
    llvm.OrOp: "or",
    llvm.XOrOp: "xor",
    llvm.FAddOp: "fadd",
    llvm.FSubOp: "fsub",
    llvm.FMulOp: "fmul",
    llvm.FDivOp: "fdiv",
    llvm.FRemOp: "frem",
}

_CASTS = {
    llvm.TruncOp: "trunc",
    llvm.ZExtOp: "zext",
    llvm.SExtOp: "sext",
    llvm.PtrToIntOp: "ptrtoint",
    llvm.IntToPtrOp: "inttoptr",
    llvm.BitcastOp: "bitcast",
    llvm.FPExtOp: "fpext",
    llvm.FPTruncOp: "fptrunc",
    llvm.SIToFPOp: "sitofp",
}

_ICMP = {flag.to_int(): flag.value for flag in llvm.ICmpPredicateFlag}
_FCMP = {
    flag.to_int(): flag.value.lstrip("_")  # `_false`, `_true`: Python's words
    for flag in llvm.FCmpPredicateFlag
}
"""Comparison predicates by their number."""

_CONSTANTS = (llvm.ConstantOp, llvm.ZeroOp, llvm.UndefOp, llvm.AddressOfOp)
"""Ops whose result is a constant, written where it is used."""


def _fail(what: str) -> LLVMTranslationException:
    return LLVMTranslationException(f"cannot translate {what} to LLVM IR")


def _hex_double(value: float) -> str:
    """A float as LLVM writes it exactly: its IEEE double's bits in hex."""
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def _float_text(value: float, width: int) -> str:
    """`value` rounded to a float of `width` bits, written as LLVM reads
    a constant of that type."""
    if width == 32:
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    elif width == 16:
        value = struct.unpack("<e", struct.pack("<e", value))[0]
    return _hex_double(value)


def _float_bits_text(bits: int, width: int) -> str:
    """The float of `width` bits with these bits, written as LLVM reads a
    constant of that type, a NaN's payload and quiet bit kept (a Python
    float cannot carry an f16 payload, and making one of an f32 signaling
    NaN quiets it): f16 as `0xH` and its bits; f32 as a double, a NaN as
    the double with its payload in the top bits (LLVM keeps those when it
    narrows, and makes a signaling NaN signaling again)."""
    if width == 16:
        return f"0xH{bits:04X}"
    if width == 32 and (bits >> 23) & 0xFF == 0xFF:
        sign, payload = bits >> 31, bits & 0x7FFFFF
        return f"0x{(sign << 63) | (0x7FF << 52) | (payload << 29):016X}"
    if width == 32:
        return _hex_double(struct.unpack("<f", bits.to_bytes(4, "little"))[0])
    return f"0x{bits:016X}"


def _string_text(data: bytes) -> str:
    """`c"..."`: printable characters as they are, others as `\\XX`."""
    return (
        'c"'
        + "".join(
            chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}"
            for b in data
        )
        + '"'
    )


def _flags(attribute: Attribute | None) -> str:
    """` flag flag` of a fast-math or overflow flag set (sorted: LLVM reads
    them in any order)."""
    if attribute is None:
        return ""
    if isinstance(attribute, IntegerAttr):  # an integer op's overflow bits
        attribute = llvm.OverflowAttr.from_int(attribute.value.data)
    data: Any = getattr(attribute, "data", ())
    if not data:
        return ""
    return "".join(f" {flag.value}" for flag in sorted(data))


class _Function:
    """One function's values and blocks as LLVM numbers them, and the
    phi entries that branches into a block carry."""

    def __init__(self, emitter: _Emitter, op: llvm.FuncOp) -> None:
        self.refs: dict[int, str] = {}
        self.labels: dict[Block, str] = {}
        self.incoming: dict[int, list[str]] = {}
        refs, number = self.refs, 0
        blocks = op.body.blocks
        for arg in blocks.first.args if blocks.first else ():
            refs[id(arg)] = f"%{number}"
            number += 1
        for block in blocks:
            self.labels[block] = str(number)
            number += 1
            if block is not blocks.first:
                for arg in block.args:
                    refs[id(arg)] = f"%{number}"
                    self.incoming[id(arg)] = []
                    number += 1
            for child in block_ops(block):
                if not child.results:
                    continue
                if type(child) in _CONSTANTS:
                    refs[id(child.results[0])] = emitter.constant(child)
                else:
                    refs[id(child.results[0])] = f"%{number}"
                    number += 1
        for block in blocks:
            last = block.last_op
            if type(last) is llvm.BrOp:
                self._edges(emitter, block, last.successor, last.operands)
            elif type(last) is llvm.CondBrOp:
                self._edges(emitter, block, last.then_block, last.then_arguments)
                self._edges(emitter, block, last.else_block, last.else_arguments)

    def _edges(
        self,
        emitter: _Emitter,
        source: Block,
        target: Block,
        values: Iterable[SSAValue],
    ) -> None:
        label = self.labels[source]
        for arg, value in zip(target.args, values, strict=True):
            self.incoming[id(arg)].append(f"[{self.refs[id(value)]}, %{label}]")

    def typed(self, emitter: _Emitter, value: SSAValue) -> str:
        return f"{emitter.type(value.type)} {self.refs[id(value)]}"


Printer = Callable[["_Emitter", _Function, Any], str]


class _Emitter:
    """The text of one module: types formatted once (by the id of their
    attribute, kept alive beside them), declarations of the intrinsics the
    functions call, loop metadata."""

    def __init__(self, module: ModuleOp, conventions: Mapping[str, str]) -> None:
        self.conventions = conventions
        self.types: dict[int, tuple[Attribute, str]] = {}
        self.symbols: dict[str, Operation] = {}
        for op in module.body.block.ops:
            if type(op) is llvm.FuncOp or type(op) is llvm.GlobalOp:
                self.symbols[op.sym_name.data] = op
            else:
                raise _fail(f"'{op.name}' at module level")
        self.intrinsics: dict[str, str] = {}
        self.metadata: list[str] = []
        self.hints: dict[int, int] = {}

    def type(self, attribute: Attribute) -> str:
        known = self.types.get(id(attribute))
        if known is None:
            known = self.types[id(attribute)] = (attribute, self._type(attribute))
        return known[1]

    def _type(self, attribute: Attribute) -> str:
        kind = type(attribute)
        if kind is IntegerType:
            return f"i{attribute.width.data}"  # pyright: ignore[reportAttributeAccessIssue]
        if kind is Float32Type:
            return "float"
        if kind is Float64Type:
            return "double"
        if kind is Float16Type:
            return "half"
        if kind is llvm.LLVMPointerType:
            space = attribute.addr_space  # pyright: ignore[reportAttributeAccessIssue]
            number = space.data if isinstance(space, IntAttr) else 0
            return f"ptr addrspace({number})" if number else "ptr"
        if kind is VectorType:
            assert isinstance(attribute, VectorType)
            if attribute.get_num_scalable_dims() or attribute.get_num_dims() != 1:
                raise _fail(f"type {attribute} (only 1-D fixed vectors)")
            element = self.type(attribute.element_type)
            return f"<{attribute.get_shape()[0]} x {element}>"
        if kind is llvm.LLVMArrayType:
            assert isinstance(attribute, llvm.LLVMArrayType)
            return f"[{attribute.size.data} x {self.type(attribute.type)}]"
        if kind is llvm.LLVMStructType:
            assert isinstance(attribute, llvm.LLVMStructType)
            return "{" + ", ".join(self.type(t) for t in attribute.types.data) + "}"
        if kind is llvm.LLVMVoidType or kind is NoneType:
            return "void"
        raise _fail(f"type {attribute}")

    def constant(self, op: Operation) -> str:
        """The text of a constant op's value (no type)."""
        kind = type(op)
        if kind is llvm.ZeroOp:
            return "zeroinitializer"
        if kind is llvm.UndefOp:
            return "undef"
        if kind is llvm.AddressOfOp:
            return f'@"{op.global_name.root_reference.data}"'  # pyright: ignore[reportAttributeAccessIssue]
        assert isinstance(op, llvm.ConstantOp)
        return self.value(op.value, op.result.type)

    def value(self, value: Attribute, type_: Attribute) -> str:
        """A constant of type `type_` from a constant attribute (a scalar
        one of a vector type: that value in every lane)."""
        if isinstance(value, IntegerAttr | FloatAttr):
            if isinstance(value, IntegerAttr):
                scalar = str(value.value.data)
            else:
                scalar = _float_text(value.value.data, value.type.bitwidth)
            if not isinstance(type_, VectorType):
                return scalar
            lane = f"{self.type(type_.element_type)} {scalar}"
            return f"<{', '.join([lane] * type_.get_shape()[0])}>"
        if isinstance(value, DenseIntOrFPElementsAttr):
            element_type = value.get_element_type()
            element = self.type(element_type)
            if not (
                isinstance(type_, VectorType)
                or (
                    isinstance(type_, llvm.LLVMArrayType)
                    and self.type(type_.type) == element
                )
            ):
                raise _fail(f"a dense constant of type {type_}")
            if isinstance(element_type, IntegerType):
                items = [f"{element} {v}" for v in value.get_values()]
            else:
                width = element_type.bitwidth  # pyright: ignore[reportAttributeAccessIssue]
                data, size = value.data.data, width // 8
                items = [
                    f"{element} "
                    + _float_bits_text(
                        int.from_bytes(data[at : at + size], "little"), width
                    )
                    for at in range(0, len(data), size)
                ]
            if isinstance(type_, VectorType):
                return f"<{', '.join(items)}>"
            return f"[{', '.join(items)}]"
        raise _fail(f"constant {value}")

    def declare(self, name: str, result: str, arguments: Iterable[str]) -> None:
        if name not in self.symbols and name not in self.intrinsics:
            self.intrinsics[name] = (
                f'declare {result} @"{name}"({", ".join(arguments)})'
            )

    def loop(self, interleave: int) -> str:
        """A new loop's `!llvm.loop` node (distinct, itself its first
        operand) asking LLVM to interleave `interleave` iterations."""
        hint = self.hints.get(interleave)
        if hint is None:
            hint = self.hints[interleave] = len(self.metadata)
            self.metadata.append(
                f'!{hint} = !{{!"llvm.loop.interleave.count", i32 {interleave}}}'
            )
        node = len(self.metadata)
        self.metadata.append(f"!{node} = distinct !{{!{node}, !{hint}}}")
        return f", !llvm.loop !{node}"


def _typed(e: _Emitter, f: _Function, op: Operation, opcode: str) -> str:
    """`%r = opcode T a, T b, ...`: an instruction whose operands are all
    written with their types."""
    operands = ", ".join(f.typed(e, value) for value in op.operands)
    return f"{f.refs[id(op.results[0])]} = {opcode} {operands}"


def _pair(e: _Emitter, f: _Function, op: Operation, opcode: str) -> str:
    """`%r = opcode T a, b`: two operands of one type."""
    lhs, rhs = op.operands
    return (
        f"{f.refs[id(op.results[0])]} = {opcode} {f.typed(e, lhs)}, {f.refs[id(rhs)]}"
    )


def _binary(e: _Emitter, f: _Function, op: Operation) -> str:
    properties = op.properties
    flags = _flags(properties.get("overflowFlags") or properties.get("fastmathFlags"))
    if properties.get("isExact"):
        flags += " exact"
    if properties.get("isDisjoint"):
        flags += " disjoint"
    return _pair(e, f, op, f"{_BINARY[type(op)]}{flags}")


def _cast(e: _Emitter, f: _Function, op: Operation) -> str:
    (result,) = op.results
    properties = op.properties
    flags = _flags(properties.get("overflowFlags"))
    if properties.get("nonNeg"):
        flags += " nneg"
    return (
        f"{f.refs[id(result)]} = {_CASTS[type(op)]}{flags} "
        f"{f.typed(e, op.operands[0])} to {e.type(result.type)}"
    )


def _icmp(e: _Emitter, f: _Function, op: llvm.ICmpOp) -> str:
    return _pair(e, f, op, f"icmp {_ICMP[op.predicate.value.data]}")


def _fcmp(e: _Emitter, f: _Function, op: llvm.FCmpOp) -> str:
    predicate = _FCMP[op.predicate.value.data]
    return _pair(e, f, op, f"fcmp{_flags(op.fastmathFlags)} {predicate}")


def _select(e: _Emitter, f: _Function, op: llvm.SelectOp) -> str:
    return _typed(e, f, op, f"select{_flags(op.fastmathFlags)}")


def _fneg(e: _Emitter, f: _Function, op: llvm.FNegOp) -> str:
    return _typed(e, f, op, f"fneg{_flags(op.fastmathFlags)}")


def _alignment(op: Operation) -> str:
    alignment = op.properties.get("alignment")
    return f", align {alignment.value.data}" if alignment else ""  # pyright: ignore[reportAttributeAccessIssue]


def _plain_access(op: Operation) -> None:
    """Loads and stores are translated plain: an atomic, volatile or
    nontemporal one is refused."""
    ordering = op.properties.get("ordering")
    if (ordering is not None and ordering.value.data) or any(  # pyright: ignore[reportAttributeAccessIssue]
        name in op.properties for name in ("volatile_", "nontemporal", "invariant")
    ):
        raise _fail(f"'{op.name}' other than a plain one ({op.properties})")


def _load(e: _Emitter, f: _Function, op: llvm.LoadOp) -> str:
    _plain_access(op)
    (pointer,) = op.operands
    (result,) = op.results
    return (
        f"{f.refs[id(result)]} = load {e.type(result.type)}, {f.typed(e, pointer)}"
        f"{_alignment(op)}"
    )


def _store(e: _Emitter, f: _Function, op: llvm.StoreOp) -> str:
    _plain_access(op)
    value, pointer = op.operands
    return f"store {f.typed(e, value)}, {f.typed(e, pointer)}{_alignment(op)}"


@lru_cache(maxsize=1024)
def _constant_indices(raw: bytes) -> tuple[str | None, ...]:
    """`, i32 N` of each constant index of a `getelementptr`'s
    `rawConstantIndices` (its bytes), None where an operand goes."""
    return tuple(
        None if index == llvm.GEP_USE_SSA_VAL else f", i32 {index}"
        for (index,) in struct.iter_unpack("<i", raw)
    )


def _getelementptr(e: _Emitter, f: _Function, op: llvm.GEPOp) -> str:
    base, *dynamic = op.operands
    (result,) = op.results
    operands = iter(dynamic)
    indices = "".join(
        f", {f.typed(e, next(operands))}" if index is None else index
        for index in _constant_indices(op.rawConstantIndices.data.data)
    )
    inbounds = " inbounds" if op.inbounds is not None else ""
    return (
        f"{f.refs[id(result)]} = getelementptr{inbounds} {e.type(op.elem_type)}, "
        f"{f.typed(e, base)}{indices}"
    )


def _alloca(e: _Emitter, f: _Function, op: llvm.AllocaOp) -> str:
    return (
        f"{f.refs[id(op.res)]} = alloca {e.type(op.elem_type)}, {f.typed(e, op.size)}"
        f"{_alignment(op)}"
    )


def _call_text(
    e: _Emitter,
    f: _Function,
    op: Operation,
    name: str,
    arguments: Iterable[SSAValue],
    flags: str = "",
) -> tuple[str, str, list[str]]:
    """`call{flags} T @"name"(args)` of `op` (with its result's number),
    its result type and its arguments' types."""
    result = e.type(op.results[0].type) if op.results else "void"
    args = list(arguments)
    types = [e.type(a.type) for a in args]
    listed = ", ".join(f"{t} {f.refs[id(a)]}" for t, a in zip(types, args, strict=True))
    call = f'call{flags} {result} @"{name}"({listed})'
    if op.results:
        call = f"{f.refs[id(op.results[0])]} = {call}"
    return call, result, types


def _intrinsic(e: _Emitter, f: _Function, op: Operation) -> str:
    """A float intrinsic, named with the type suffix of its last operand
    (the vector of a reduction, the value of the others)."""
    operands = op.operands
    last = operands[-1].type
    element = last.element_type if isinstance(last, VectorType) else last
    suffix = f"f{element.bitwidth}"  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(last, VectorType):
        suffix = f"v{last.get_shape()[0]}{suffix}"
    name = f"{_FLOAT_INTRINSICS[type(op)]}.{suffix}"
    flags = _flags(op.properties.get("fastmathFlags"))
    call, result, types = _call_text(e, f, op, name, operands, flags)
    e.declare(name, result, types)
    return call


def _call_intrinsic(e: _Emitter, f: _Function, op: llvm.CallIntrinsicOp) -> str:
    if op.op_bundle_operands or op.op_bundle_sizes.data.data:
        raise _fail(f"'{op.name}' with operand bundles")
    name = op.intrin.data
    call, result, types = _call_text(e, f, op, name, op.args, _flags(op.fastmathFlags))
    e.declare(name, result, types)
    return call


def _call(e: _Emitter, f: _Function, op: llvm.CallOp) -> str:
    if op.op_bundle_operands or op.op_bundle_sizes.data.data:
        raise _fail(f"'{op.name}' with operand bundles")
    if op.callee is None:
        raise _fail(f"an indirect '{op.name}'")
    call, _, _ = _call_text(e, f, op, op.callee.string_value(), op.args)
    head, _, tail = call.partition("call ")
    fast = (
        _flags(op.fastmathFlags) if op.results and _is_float(op.results[0].type) else ""
    )
    tail_kind = "tail " if op.TailCallKind.data != "none" else ""
    cconv = op.CConv.cconv_name
    return f"{head}{tail_kind}call{fast} {cconv} {tail}"


def _is_float(type_: Attribute) -> bool:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    return isinstance(element, Float16Type | Float32Type | Float64Type)


def _inline_asm(e: _Emitter, f: _Function, op: llvm.InlineAsmOp) -> str:
    result = e.type(op.res.type) if op.res else "void"
    args = ", ".join(f.typed(e, a) for a in op.operands_)
    effect = " sideeffect" if op.has_side_effects is not None else ""
    text = _string_text(op.asm_string.data.encode())[1:]
    constraints = _string_text(op.constraints.data.encode())[1:]
    call = f"call {result} asm{effect} {text}, {constraints}({args})"
    return f"{f.refs[id(op.res)]} = {call}" if op.res else call


def _extract_value(e: _Emitter, f: _Function, op: llvm.ExtractValueOp) -> str:
    position = "".join(f", {i}" for i in op.position.iter_values())
    return f"{_typed(e, f, op, 'extractvalue')}{position}"


def _insert_value(e: _Emitter, f: _Function, op: llvm.InsertValueOp) -> str:
    position = "".join(f", {i}" for i in op.position.iter_values())
    return f"{_typed(e, f, op, 'insertvalue')}{position}"


def _insert_element(e: _Emitter, f: _Function, op: llvm.InsertElementOp) -> str:
    return _typed(e, f, op, "insertelement")


def _shuffle_vector(e: _Emitter, f: _Function, op: llvm.ShuffleVectorOp) -> str:
    return f"{_typed(e, f, op, 'shufflevector')}, {_mask(op.mask.data.data)}"


@lru_cache(maxsize=1024)
def _mask(raw: bytes) -> str:
    """A shuffle's mask (`mask`'s bytes: i32 lanes, -1 a poison one)."""
    lanes = [index for (index,) in struct.iter_unpack("<i", raw)]
    listed = ", ".join(f"i32 {i}" if i >= 0 else "i32 poison" for i in lanes)
    return f"<{len(lanes)} x i32> <{listed}>"


def _return(e: _Emitter, f: _Function, op: llvm.ReturnOp) -> str:
    return f"ret {f.typed(e, op.operands[0])}" if op.operands else "ret void"


def _unreachable(e: _Emitter, f: _Function, op: Operation) -> str:
    return "unreachable"


def _loop_hint(e: _Emitter, op: Operation) -> str:
    count = op.attributes.get(INTERLEAVE_COUNT)
    return e.loop(count.value.data) if isinstance(count, IntegerAttr) else ""


def _br(e: _Emitter, f: _Function, op: llvm.BrOp) -> str:
    return f"br label %{f.labels[op.successor]}{_loop_hint(e, op)}"


def _cond_br(e: _Emitter, f: _Function, op: llvm.CondBrOp) -> str:
    return (
        f"br {f.typed(e, op.cond)}, label %{f.labels[op.then_block]}, "
        f"label %{f.labels[op.else_block]}{_loop_hint(e, op)}"
    )


def _printers() -> dict[type[Operation], Printer]:
    table: dict[type[Operation], Any] = {}
    table.update(dict.fromkeys(_BINARY, _binary))
    table.update(dict.fromkeys(_CASTS, _cast))
    table.update(dict.fromkeys(_FLOAT_INTRINSICS, _intrinsic))
    table.update(
        {
            llvm.ICmpOp: _icmp,
            llvm.FCmpOp: _fcmp,
            xlir_llvm.FCmpOp: _fcmp,
            llvm.SelectOp: _select,
            xlir_llvm.SelectOp: _select,
            llvm.FNegOp: _fneg,
            llvm.LoadOp: _load,
            llvm.StoreOp: _store,
            llvm.GEPOp: _getelementptr,
            llvm.AllocaOp: _alloca,
            llvm.CallOp: _call,
            llvm.CallIntrinsicOp: _call_intrinsic,
            llvm.InlineAsmOp: _inline_asm,
            llvm.ExtractValueOp: _extract_value,
            llvm.InsertValueOp: _insert_value,
            llvm.InsertElementOp: _insert_element,
            llvm.ShuffleVectorOp: _shuffle_vector,
            llvm.ReturnOp: _return,
            llvm.UnreachableOp: _unreachable,
            llvm.BrOp: _br,
            llvm.CondBrOp: _cond_br,
        }
    )
    return table


_PRINTERS = _printers()


def _function_attributes(op: llvm.FuncOp) -> str:
    """` noinline ...` of `FUNCTION_FLAGS`, and `"key"="value"` of each
    pair in `passthrough` (a property, or an attribute where the op was
    parsed from text)."""
    words = [
        word
        for flag, word in FUNCTION_FLAGS.items()
        if flag in op.properties or flag in op.attributes
    ]
    passthrough = op.passthrough or op.attributes.get("passthrough")
    for item in passthrough.data if isinstance(passthrough, ArrayAttr) else ():
        parts = item.data if isinstance(item, ArrayAttr) else ()
        if len(parts) != 2 or not all(isinstance(p, StringAttr) for p in parts):
            raise _fail(
                f"passthrough attribute {item} of @{op.sym_name.data} "
                "(only [key, value] string pairs)"
            )
        key, value = (part.data for part in parts)  # pyright: ignore[reportAttributeAccessIssue]
        words.append(f'"{key}"="{value}"')
    return "".join(f" {word}" for word in words)


def _argument_attributes(op: llvm.FuncOp) -> list[str]:
    """Per argument, ` attr attr` of its `arg_attrs` (the arguments past
    the end of a shorter list have none, as in xDSL's translation)."""
    listed = [""] * len(op.function_type.inputs.data)
    if op.arg_attrs is None:
        return listed
    for index, attributes in enumerate(op.arg_attrs.data):
        words = []
        for name, value in attributes.data.items():
            if name in _ARGUMENT_FLAGS:
                words.append(_ARGUMENT_FLAGS[name])
            elif name in _ARGUMENT_INTS and isinstance(value, IntegerAttr):
                words.append(_ARGUMENT_INTS[name].format(value.value.data))
            elif name.startswith("llvm."):
                raise _fail(f"argument attribute {name} of @{op.sym_name.data}")
        listed[index] = "".join(f" {w}" for w in words)
    return listed


def _function(
    e: _Emitter, op: llvm.FuncOp, exported: Collection[str], out: list[str]
) -> None:
    name = op.sym_name.data
    signature = op.function_type
    result = e.type(signature.output)
    types = [e.type(t) for t in signature.inputs.data]
    if signature.is_variadic:
        types.append("...")
    if not op.body.blocks:
        out.append(f'declare {result} @"{name}"({", ".join(types)})\n\n')
        return
    attributes = _argument_attributes(op)
    arguments = ", ".join(
        f"{t}{a} %{i}" for i, (t, a) in enumerate(zip(types, attributes, strict=True))
    )
    linkage = op.linkage.linkage.data
    prefix = "" if linkage == "external" or name in exported else f"{linkage} "
    cconv = e.conventions.get(name, op.CConv.cconv_name)
    cconv = "" if cconv == "ccc" else f"{cconv} "
    out.append(
        f'define {prefix}{cconv}{result} @"{name}"({arguments})'
        f"{_function_attributes(op)} {{\n"
    )
    f = _Function(e, op)
    printers = _PRINTERS
    entry = op.body.blocks.first
    for block in op.body.blocks:
        out.append(f"{f.labels[block]}:\n")
        if block is not entry:
            for arg in block.args:
                incoming = ", ".join(f.incoming[id(arg)])
                out.append(f"  {f.refs[id(arg)]} = phi {e.type(arg.type)} {incoming}\n")
        for child in block_ops(block):
            printer = printers.get(type(child))
            if printer is None:
                if type(child) in _CONSTANTS:
                    continue
                raise _fail(f"'{child.name}'")
            out.append(f"  {printer(e, f, child)}\n")
    out.append("}\n\n")


def _global(e: _Emitter, op: llvm.GlobalOp, exported: Collection[str]) -> str:
    name = op.sym_name.data
    linkage = op.linkage.linkage.data
    if name in exported:
        linkage = "external"
    space = op.addr_space.value.data
    words = [linkage] if linkage != "external" or op.value is None else []
    if space:
        words.append(f"addrspace({space})")
    words.append("constant" if op.constant is not None else "global")
    type_ = e.type(op.global_type)
    words.append(type_)
    if isinstance(op.value, StringAttr):
        words.append(_string_text(op.value.data.encode()))
    elif op.value is not None:
        words.append(e.value(op.value, op.global_type))
    elif linkage not in ("external", "extern_weak"):
        words.append("undef")  # as MLIR: LLVM wants an initial value
    text = f'@"{name}" = {" ".join(words)}'
    if op.alignment is not None:
        text += f", align {op.alignment.value.data}"
    return text + "\n"


def module_text(
    module: ModuleOp,
    triple: str,
    exported: Collection[str] = (),
    conventions: Mapping[str, str] | None = None,
    supplied: Mapping[str, str] | None = None,
) -> str:
    """LLVM IR text of an llvm-dialect module for `triple`. The functions
    and globals named in `exported` are external whatever their linkage
    (another module uses them); `conventions` names calling conventions
    that override the functions' `CConv`. `supplied`: the caller's text of
    functions (a definition of one the module declares takes the
    declaration's place, as in the module's order) and of what they use,
    by name; what the module does not declare is appended."""
    e = _Emitter(module, conventions or {})
    supplied = supplied or {}
    globals_: list[str] = []
    functions: list[str] = []
    for op in module.body.block.ops:
        if type(op) is llvm.GlobalOp:
            globals_.append(_global(e, op, exported))
        elif type(op) is llvm.FuncOp:
            name = op.sym_name.data
            if op.body.blocks or name not in supplied:
                _function(e, op, exported, functions)
            else:
                functions.append(f"{supplied[name]}\n")
    head = f'target triple = "{triple}"\n\n'
    declarations = "".join(
        f"{text}\n\n" for name, text in e.intrinsics.items() if name not in supplied
    )
    appended = "".join(
        f"{text}\n" for name, text in supplied.items() if name not in e.symbols
    )
    metadata = "".join(f"{line}\n" for line in e.metadata)
    return "".join(
        [head, *globals_, "\n", *functions, declarations, appended, metadata]
    )
