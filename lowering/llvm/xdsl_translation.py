"""Local fixes and speed-ups of xDSL 0.74's LLVM translation (upstream-worthy).

* It declares the overloaded intrinsics of float math (`llvm.sqrt`,
  `llvm.pow`, ...) by their bare names, so the first type used in a module
  wins and a module computing `sqrt` on both f32 and f64 (an f64 kernel
  beside a bf16 one, which runs in f32) dies in llvmlite with "Type of #1
  arg mismatch". Here they are declared with their type suffix
  (`llvm.sqrt.f32`, `llvm.sqrt.f64`, `llvm.sqrt.v4f32`), as LLVM names
  overloads (by name here: llvmlite's `declare_intrinsic` cannot name a
  vector overload, and a vector `sqrt` died in it with an AttributeError).
* It casts a `getelementptr`'s base to a pointer in address space 0, which
  LLVM rejects for a base in another space (a GPU's global memory: "invalid
  cast opcode"). Here the cast keeps the base's address space, and is not
  asked for where the base is an opaque pointer (llvmlite returns such a
  base unchanged, after building and comparing a pointer type).
* It converts a type attribute each time an op names it, and llvmlite
  formats each converted type object again. Here, while `translate` runs,
  each type attribute is converted once (`convert_type`), and its type
  object shared, so formatted once; so are undef and zero constants
  (`_filler`).
* It finds an op's translation by trying the cases of a `match` in turn,
  most of them class patterns (an `isinstance` through `ABCMeta` each), and
  the commonest op, a constant, is the last case. Here an op's translation
  is looked up by its class (`_convert_op`: the same translations); an op
  the table does not know goes to xDSL's `convert_op`, which translates it
  or says it cannot.
* Its translations of the commonest ops (binary arithmetic, loads, stores)
  read each operand by index (two Python calls each) and an integer op's
  flags through a new `OverflowAttr` each time. Here (`_binary_op`,
  `_load`, `_store`) the operands are unpacked and each overflow value's
  flags found once; the same instructions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from llvmlite import ir
from xdsl.backend.llvm import convert, convert_op
from xdsl.backend.llvm.convert_type import convert_type as xdsl_convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xlir.dialects import llvm as xlir_llvm
from xlir.lowering.llvm.scalars import suffix

Values = dict[SSAValue, Any]
Translation = Callable[[Any, ir.IRBuilder, Values], None]
BranchTranslation = Callable[[Any, ir.IRBuilder, Values, dict[Block, ir.Block]], None]


class _Shared(threading.local):
    """What `translate` makes once and shares on this thread; None outside.
    `types`: converted types by the id of their attribute (kept alive beside
    them, so the id stays its own). `fillers`: undef and zero constants by
    the id of their type (one of `types`) and whether zero."""

    types: dict[int, tuple[Attribute, ir.Type]] | None = None
    fillers: dict[tuple[int, bool], ir.Constant] | None = None


_SHARED = _Shared()


def convert_type(attribute: Attribute) -> ir.Type:
    """xDSL's `convert_type`, once per attribute while `translate` runs."""
    types = _SHARED.types
    if types is None:
        return xdsl_convert_type(attribute)
    known = types.get(id(attribute))
    if known is None:
        known = types[id(attribute)] = (attribute, xdsl_convert_type(attribute))
    return known[1]


def _filler(attribute: Attribute, value: object) -> ir.Constant:
    """An undef (`value` ir.Undefined) or zero (None) constant of a type,
    one per type while `translate` runs (a vector's is formatted element by
    element)."""
    type_ = convert_type(attribute)
    fillers = _SHARED.fillers
    if fillers is None:
        return ir.Constant(type_, value)
    key = (id(type_), value is None)
    constant = fillers.get(key)
    if constant is None:
        constant = fillers[key] = ir.Constant(type_, value)
    return constant


def translate(module: ModuleOp, triple: str | None) -> ir.Module:
    """xDSL's `convert_module`, types and fillers made once (`_Shared`)."""
    _SHARED.types, _SHARED.fillers = {}, {}
    try:
        return convert.convert_module(module, fallback_target_triple=triple)
    finally:
        _SHARED.types = _SHARED.fillers = None


def _declared(
    builder: ir.IRBuilder, name: str, op: Operation, signature: ir.FunctionType
) -> ir.Function:
    """Intrinsic `name` overloaded on `op`'s first operand's type."""
    overload = f"{name}.{suffix(op.operands[0].type)}"
    return builder.module.declare_intrinsic(overload, (), signature)


def _unary(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    operand = values[op.operands[0]]
    intrinsic = _declared(
        builder,
        convert_op._UNARY_INTRINSIC_MAP[type(op)],  # pyright: ignore[reportPrivateUsage]
        op,
        ir.FunctionType(operand.type, [operand.type]),
    )
    values[op.results[0]] = builder.call(intrinsic, [operand])


def _binary(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    lhs, rhs = values[op.operands[0]], values[op.operands[1]]
    intrinsic = _declared(
        builder,
        convert_op._BINARY_INTRINSIC_MAP[type(op)],  # pyright: ignore[reportPrivateUsage]
        op,
        ir.FunctionType(lhs.type, [lhs.type, rhs.type]),
    )
    values[op.results[0]] = builder.call(intrinsic, [lhs, rhs])


@lru_cache(maxsize=1024)
def _i32(value: int) -> ir.Constant:
    """An i32 constant, shared (constants belong to no block)."""
    return ir.Constant(ir.IntType(32), value)


def _getelementptr(op: llvm.GEPOp, builder: ir.IRBuilder, values: Values) -> None:
    """The base, then the dynamic indices, read from the operands (xDSL's
    accessors find each operand group anew)."""
    operands = op.operands
    base = values[operands[0]]
    element = convert_type(op.elem_type)
    if not base.type.is_opaque:
        base = builder.bitcast(base, element.as_pointer(base.type.addrspace))
    dynamic = iter(operands[1:])
    indices = [
        values[next(dynamic)] if index == llvm.GEP_USE_SSA_VAL else _i32(index)
        for index in op.rawConstantIndices.iter_values()
    ]
    values[op.results[0]] = builder.gep(
        base, indices, inbounds=op.inbounds is not None, source_etype=element
    )


def _call_intrinsic(
    op: llvm.CallIntrinsicOp, builder: ir.IRBuilder, values: Values
) -> None:
    """xDSL's, for a plain call (no operand bundles, no fast-math flags:
    anything else goes to xDSL's, which says what it lacks): the arguments
    are all the operands (xDSL's `args` accessor, from the segment sizes,
    cost more than the call), and the intrinsic's type is only built where
    the module does not declare it yet."""
    xdsl: Any = convert_op
    segments = op.properties.get("operandSegmentSizes")
    plain = (
        isinstance(segments, DenseArrayBase)
        and segments.get_values()[1:] == (0,)
        and not op.op_bundle_sizes.data.data
        and not any(op.fastmathFlags.data)
    )
    if not plain:
        xdsl._convert_call_intrinsic(op, builder, values)  # its diagnostics
        return
    args = [values[argument] for argument in op.operands]
    name = op.intrin.data
    intrinsic = builder.module.globals.get(name)
    if intrinsic is None:
        result = convert_type(op.results[0].type) if op.results else ir.VoidType()
        signature = ir.FunctionType(result, [arg.type for arg in args])
        intrinsic = ir.Function(builder.module, signature, name=name)
    call = builder.call(intrinsic, args)
    if op.results:
        values[op.results[0]] = call


@lru_cache(maxsize=1024)
def _mask(indices: tuple[int, ...]) -> ir.Constant:
    """A shuffle's mask, shared (it is formatted once)."""
    return ir.Constant(ir.VectorType(ir.IntType(32), len(indices)), indices)


def _shuffle_vector(
    op: llvm.ShuffleVectorOp, builder: ir.IRBuilder, values: Values
) -> None:
    first, second = op.operands
    values[op.results[0]] = builder.shuffle_vector(
        values[first], values[second], _mask(op.mask.get_values())
    )


@lru_cache(maxsize=16)
def _overflow_flags(value: int) -> tuple[str, ...]:
    """The LLVM flags of an integer op's `overflowFlags` value."""
    return tuple(flag.value for flag in llvm.OverflowAttr.from_int(value).data)


def _overflow(op: Operation) -> list[str] | None:
    flags = op.properties.get("overflowFlags")
    return list(_overflow_flags(flags.value.data)) if flags else None  # pyright: ignore[reportAttributeAccessIssue]


def _fast_math(op: Operation) -> list[str] | None:
    flags = op.properties.get("fastmathFlags")
    return [flag.value for flag in flags.data] if flags else None  # pyright: ignore[reportAttributeAccessIssue]


def _exact(op: Operation) -> list[str] | None:
    return ["exact"] if op.properties.get("isExact") else None


def _disjoint(op: Operation) -> list[str] | None:
    return ["disjoint"] if op.properties.get("isDisjoint") else None


def _flags_of(cls: type[Operation]) -> Callable[[Operation], list[str] | None]:
    """How xDSL's `_convert_binop` finds the flags of a `cls` op (the first
    of its cases the class matches); None: no flags."""
    for base, flags in (
        (llvm.ArithmeticBinOpOverflow, _overflow),
        (llvm.AbstractFloatArithOp, _fast_math),
        (llvm.ArithmeticBinOpExact, _exact),
        (llvm.ArithmeticBinOpDisjoint, _disjoint),
    ):
        if issubclass(cls, base):
            return flags
    return lambda op: None


_BINARY_FLAGS = {
    cls: _flags_of(cls)
    for cls in convert_op._BINARY_OP_MAP  # pyright: ignore[reportPrivateUsage]
}


def _binary_op(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    """xDSL's `_convert_binop`."""
    lhs, rhs = op.operands
    (result,) = op.results
    instruction: Any = convert_op._BINARY_OP_MAP[type(op)](builder)  # pyright: ignore[reportPrivateUsage]
    flags = _BINARY_FLAGS[type(op)](op)
    if flags is None:
        values[result] = instruction(values[lhs], values[rhs])
    else:
        values[result] = instruction(values[lhs], values[rhs], flags=flags)


def _load(op: llvm.LoadOp, builder: ir.IRBuilder, values: Values) -> None:
    """xDSL's `_convert_load`."""
    (pointer,) = op.operands
    (result,) = op.results
    load = builder.load(values[pointer], typ=convert_type(result.type))
    alignment = op.properties.get("alignment")
    if alignment:
        load.align = alignment.value.data  # pyright: ignore[reportAttributeAccessIssue]
    values[result] = load


def _store(op: llvm.StoreOp, builder: ir.IRBuilder, values: Values) -> None:
    """xDSL's `_convert_store`."""
    value, pointer = op.operands
    store = builder.store(values[value], values[pointer])
    alignment = op.properties.get("alignment")
    if alignment:
        store.align = alignment.value.data  # pyright: ignore[reportAttributeAccessIssue]


def _constant(op: llvm.ConstantOp, builder: ir.IRBuilder, values: Values) -> None:
    values[op.result] = convert_op.create_constant(op.result.type, op.value)


def _zero(op: llvm.ZeroOp, builder: ir.IRBuilder, values: Values) -> None:
    values[op.res] = _filler(op.res.type, None)


def _undef(op: llvm.UndefOp, builder: ir.IRBuilder, values: Values) -> None:
    values[op.res] = _filler(op.res.type, ir.Undefined)


def _unreachable(op: llvm.UnreachableOp, builder: ir.IRBuilder, values: Values) -> None:
    builder.unreachable()


def _extract_value(
    op: llvm.ExtractValueOp, builder: ir.IRBuilder, values: Values
) -> None:
    values[op.results[0]] = builder.extract_value(
        values[op.container], list(op.position.iter_values())
    )


def _insert_value(
    op: llvm.InsertValueOp, builder: ir.IRBuilder, values: Values
) -> None:
    values[op.results[0]] = builder.insert_value(
        values[op.container], values[op.value], list(op.position.iter_values())
    )


def _insert_element(
    op: llvm.InsertElementOp, builder: ir.IRBuilder, values: Values
) -> None:
    values[op.res] = builder.insert_element(
        values[op.vector], values[op.value], values[op.index]
    )


def _translations() -> dict[type[Operation], Translation]:
    """The translation of each op class xDSL's `convert_op` knows but the
    branches (which need the function's blocks: `_BRANCHES`), and of xlir's
    `llvm.fcmp` and `llvm.select` (dialects/llvm.py), which its match takes
    as xDSL's."""
    xdsl: Any = convert_op
    table: dict[type[Operation], Translation] = {}
    for kinds, translation in (
        (xdsl._BINARY_OP_MAP, _binary_op),
        (xdsl._CAST_OP_NAMES, xdsl._convert_cast),
        (xdsl._UNARY_INTRINSIC_MAP, _unary),
        (xdsl._BINARY_INTRINSIC_MAP, _binary),
        (xdsl._VECTOR_REDUCE_INTRINSIC_MAP, xdsl._convert_vector_reduce),
    ):
        table.update(dict.fromkeys(kinds, translation))
    table.update(
        {
            llvm.ICmpOp: xdsl._convert_icmp,
            llvm.FCmpOp: xdsl._convert_fcmp,
            xlir_llvm.FCmpOp: xdsl._convert_fcmp,
            llvm.FNegOp: xdsl._convert_fneg,
            llvm.CallOp: xdsl._convert_call,
            llvm.AllocaOp: xdsl._convert_alloca,
            llvm.LoadOp: _load,
            llvm.StoreOp: _store,
            llvm.ExtractValueOp: _extract_value,
            llvm.InsertValueOp: _insert_value,
            llvm.GEPOp: _getelementptr,
            llvm.InlineAsmOp: xdsl._convert_inline_asm,
            llvm.UnreachableOp: _unreachable,
            llvm.SelectOp: xdsl._convert_select,
            xlir_llvm.SelectOp: xdsl._convert_select,
            llvm.MaskedStoreOp: xdsl._convert_masked_store,
            llvm.ReturnOp: xdsl._convert_return,
            llvm.ZeroOp: _zero,
            llvm.UndefOp: _undef,
            llvm.AddressOfOp: xdsl._convert_addressof,
            llvm.CallIntrinsicOp: _call_intrinsic,
            llvm.InsertElementOp: _insert_element,
            llvm.ShuffleVectorOp: _shuffle_vector,
            llvm.FMAOp: xdsl._convert_fma,
            llvm.ConstantOp: _constant,
        }
    )
    return table


_TRANSLATIONS = _translations()
_BRANCHES: dict[type[Operation], BranchTranslation] = {
    llvm.BrOp: convert_op._convert_br,  # pyright: ignore[reportPrivateUsage]
    llvm.CondBrOp: convert_op._convert_condbr,  # pyright: ignore[reportPrivateUsage]
}


def _convert_op(
    op: Operation,
    builder: ir.IRBuilder,
    values: Values,
    blocks: dict[Block, ir.Block] | None = None,
) -> None:
    """xDSL's `convert_op`, the translation found by `op`'s class."""
    translation = _TRANSLATIONS.get(type(op))
    if translation is not None:
        translation(op, builder, values)
    elif blocks is not None and type(op) in _BRANCHES:
        _BRANCHES[type(op)](op, builder, values, blocks)
    else:
        convert_op.convert_op(op, builder, values, blocks)


def install() -> None:
    """Translate a function's ops by `_convert_op`, and intrinsics and
    `getelementptr` (also where xDSL's `convert_op` is called), and convert
    types, as above."""
    convert.convert_type = convert_type  # pyright: ignore[reportPrivateImportUsage]
    convert_op.convert_type = convert_type  # pyright: ignore[reportPrivateImportUsage]
    convert.convert_op = _convert_op  # pyright: ignore[reportPrivateImportUsage]
    convert_op._convert_unary_intrinsic = _unary  # pyright: ignore[reportPrivateUsage]
    convert_op._convert_binary_intrinsic = _binary  # pyright: ignore[reportPrivateUsage]
    convert_op._convert_getelementptr = _getelementptr  # pyright: ignore[reportPrivateUsage]
