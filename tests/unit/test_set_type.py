"""`set_type` (xlir/rewriting.py) retypes a value in place: the register
allocator and the accel vectorizer rely on the value keeping its identity
and every use."""

from xdsl.dialects import arith, test
from xdsl.dialects.builtin import IntegerAttr, i32, i64

from xlir.rewriting import set_type


def test_set_type_keeps_the_value_and_its_uses() -> None:
    constant = arith.ConstantOp(IntegerAttr(1, i32))
    value = constant.result
    first = test.TestOp(operands=[value])
    second = test.TestOp(operands=[value, value])
    set_type(value, i64)
    assert constant.result is value
    assert value.type == i64
    assert {use.operation for use in value.uses} == {first, second}
    assert second.operands[1] is value
