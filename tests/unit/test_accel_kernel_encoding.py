"""`encoding.encode_kernels`: the object of the lowered kernels, encoded
from their ops, is the one the assembler makes of their printed text (code
and symbols), for compiled corpus programs (tiles, spills, matrix unit,
wide integers) and for a kernel calling a device function; an operand that
does not fit its field is an error at the op, never a truncated word."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region
from xlir.dialects import accel
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.compiler import AccelExecutable
from xlir.targets.accel.encoding import encode_kernels

import xlir
from xlir.assembly import assembly_text
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "small"
FUNC = Path(__file__).resolve().parents[1] / "lit" / "accel" / "func.mlir"


@pytest.mark.parametrize(
    "program", ["slice_concat_pad", "matmul", "int_ops", "while_loops"]
)
def test_compiled_object_is_the_assembled_text(program: str) -> None:
    executable = xlir.compile((CORPUS / f"{program}.mlir").read_text(), "accel")
    assert isinstance(executable, AccelExecutable)
    assembled = assemble(executable.as_text())
    assert executable.image.code == assembled.code
    assert executable.image.symbols == assembled.symbols


def test_calls_and_functions_encode_as_assembled() -> None:
    module = parse_module(make_context(), FUNC.read_text(), str(FUNC))
    encoded = encode_kernels(module)
    assembled = assemble(assembly_text(module))
    assert (encoded.code, encoded.symbols) == (assembled.code, assembled.symbols)


def test_an_immediate_out_of_its_field_is_an_error_at_the_op() -> None:
    zero = accel.GetRegisterOp(accel.XRegisterType.from_name("zero"))
    wide = accel.instruction(
        "addi", [zero], [accel.XRegisterType.from_name("t0")], imm=1 << 16
    )
    kernel = accel.KernelOp(
        "k", 0, Region(Block([zero, wide, accel.instruction("halt")]))
    )
    with pytest.raises(
        XlirError, match=r"signed 16-bit immediate 65536 is out of range"
    ):
        encode_kernels(ModuleOp([kernel]))


def test_an_unallocated_register_is_an_error_at_the_op() -> None:
    zero = accel.GetRegisterOp(accel.XRegisterType.from_name("zero"))
    free = accel.instruction("addi", [zero], [accel.XRegisterType.unallocated()], imm=1)
    kernel = accel.KernelOp("k", 0, Region(Block([zero, free])))
    with pytest.raises(XlirError, match="is not in the register file"):
        encode_kernels(ModuleOp([kernel]))


def test_a_module_without_kernels_is_an_empty_object() -> None:
    encoded = encode_kernels(ModuleOp([]))
    assert (encoded.code, encoded.symbols) == ([], [])
