"""The core helpers assembly dialects share: an instruction's immediates
from Python values (`Instruction.make`), and a compare's name with its
predicate (`full_name`), which tables of instructions and diagnostics use."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, f32, i32
from xdsl.utils.test_value import create_ssa_value
from xlir.dialects.arith import full_name, predicate
from xlir.dialects.instruction_op import immediate


def test_an_immediate_is_the_attribute_of_its_python_type() -> None:
    """An int an i32, a float an f32, a string a name, each made once."""
    assert immediate(1) == IntegerAttr(1, i32)
    assert immediate(1.0) == FloatAttr(1.0, f32)
    assert immediate("end") == StringAttr("end")
    assert immediate(7) is immediate(7)


def test_a_compare_is_named_with_its_predicate() -> None:
    x, y = create_ssa_value(f32), create_ssa_value(f32)
    a, b = create_ssa_value(i32), create_ssa_value(i32)
    less = arith.CmpfOp(x, y, "olt")
    assert predicate(less) == "olt"
    assert full_name(less) == "arith.cmpf olt"
    assert full_name(arith.CmpiOp(a, b, "slt")) == "arith.cmpi slt"
    assert full_name(arith.AddfOp(x, y)) == "arith.addf"
