"""What a compiled function takes and returns, read off its module: the
signature of an HLO-level function (complex where `split-complex` left a
complex tensor as its interleaved parts) or of a loop-level host function
(its memrefs read as tensors). Target-neutral: every target's compiler
computes its executable's signature with these."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xlir.dialects.hlo import complex_signature_type

from xlir.diagnostics import XlirError
from xlir.signature import Signature, TensorSpec
from xlir.walk import walk


def _functions(module: ModuleOp) -> list[Operation]:
    return [op for op in walk(module) if op.name == "func.func"]


def _field(op: Operation, name: str) -> Attribute | None:
    """A property of the function, or an attribute where the generic form
    gave it as one."""
    return op.properties.get(name) or op.attributes.get(name)


def _function(module: ModuleOp, function: str) -> tuple[Operation, FunctionType]:
    """The `func.func` named `function` and its type, or an error that lists
    the functions there are."""
    for op in _functions(module):
        name = _field(op, "sym_name")
        ftype = _field(op, "function_type")
        if isinstance(name, StringAttr) and name.data == function:
            assert isinstance(ftype, FunctionType)
            return op, ftype
    names = [getattr(_field(op, "sym_name"), "data", "?") for op in _functions(module)]
    known = ", ".join(f"@{n}" for n in names) or "none"
    raise XlirError(
        f"error: there is no function @{function} in the module (functions: {known})"
    )


def _signature(
    function: str, inputs: Sequence[Attribute], outputs: Sequence[Attribute]
) -> Signature:
    return Signature(
        function,
        tuple(TensorSpec.from_type(f"arg{i}", t) for i, t in enumerate(inputs)),
        tuple(TensorSpec.from_type(f"result{i}", t) for i, t in enumerate(outputs)),
    )


def _host_types(types: Sequence[Attribute], attrs: Attribute | None) -> list[Attribute]:
    """The types the host passes: complex where `split-complex` left a
    complex tensor as its interleaved parts (passes/hlo/split_complex.py)."""
    dictionaries = list(attrs.data) if isinstance(attrs, ArrayAttr) else []
    dictionaries += [None] * (len(types) - len(dictionaries))
    return [
        complex_signature_type(t, a) for t, a in zip(types, dictionaries, strict=True)
    ]


def function_signature(module: ModuleOp, function: str) -> Signature:
    """The signature of an HLO-level function, as the host passes it."""
    op, ftype = _function(module, function)
    return _signature(
        function,
        _host_types(ftype.inputs.data, op.properties.get("arg_attrs")),
        _host_types(ftype.outputs.data, op.properties.get("res_attrs")),
    )


def _as_tensor(type_: Attribute) -> Attribute:
    if isinstance(type_, MemRefType):
        return TensorType(type_.element_type, type_.get_shape())
    return type_


def loop_signature(module: ModuleOp, function: str) -> Signature:
    """A loop-level host function's signature as tensors (memrefs read as
    tensors)."""
    _, ftype = _function(module, function)
    return _signature(
        function,
        [_as_tensor(t) for t in ftype.inputs.data],
        [_as_tensor(t) for t in ftype.outputs.data],
    )
