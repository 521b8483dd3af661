"""The evaluators' op tables (evaluator/registry.py): every entry is keyed by
the class the parser builds for its op name, or by xDSL's scalar form of a
cast whose vector form the parser builds (passes build xDSL's) with that form
registered too, so no entry silently never matches; a class registered twice
is refused."""

from __future__ import annotations

import pytest
import xlir.evaluator.loop  # noqa: F401  (registers the loop ops)
from xdsl.dialects import arith
from xlir.dialects.arith import VECTOR_FORMS
from xlir.dialects.stablehlo.elementwise import AddOp
from xlir.evaluator.hlo import KERNELS
from xlir.evaluator.loop.engine import OPS
from xlir.evaluator.registry import OpTable

from xlir.context import make_context


@pytest.mark.parametrize("table", [KERNELS, OPS], ids=["hlo", "loop"])
def test_every_key_is_the_class_the_parser_builds(table: OpTable) -> None:
    context = make_context()
    keys = list(table)
    assert keys
    wrong = [
        f"{op.name}: {op.__module__}.{op.__name__}"
        for op in keys
        if context.get_optional_op(op.name) is not op
        and not (op in VECTOR_FORMS and VECTOR_FORMS[op] in table)
    ]
    assert not wrong, "registered under a class the parser does not build"
    scalar_forms = [op for op in keys if op in VECTOR_FORMS]
    assert table is not OPS or len(scalar_forms) == len(VECTOR_FORMS)


def test_lookup_by_the_op_class() -> None:
    table: OpTable = OpTable()
    table.impl(AddOp)(lambda op: "add")
    assert AddOp in table and arith.AddiOp not in table
    assert table.lookup(arith.ConstantOp.from_int_and_width(1, 32)) is None


def test_a_class_registered_twice_is_refused() -> None:
    table: OpTable = OpTable()
    table.impl(AddOp)(lambda op: "first")
    with pytest.raises(ValueError, match=r"'stablehlo\.add' already has a factory"):
        table.impl(AddOp)(lambda op: "second")
