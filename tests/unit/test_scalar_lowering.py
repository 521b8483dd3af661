"""Scalar translation (lowering/scalar.py): the ops each StableHLO elementwise
op becomes, that they verify, and the guards StableHLO's semantics need."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.rewriter import InsertPoint
from xlir.lowering.scalar import (
    UnsupportedScalarOp,
    emit_block,
    emit_scalar,
    scalar_type,
)

import xlir
from xlir.context import make_context
from xlir.parsing import parse_module


def hlo_op(text: str, types: str) -> Operation:
    """The single op of `%r = <text>` in a function of tensor arguments."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types.split(";")))
    module = parse_module(
        make_context(),
        f"func.func @f({args}) {{\n  %r = {text}\n  func.return\n}}",
        "test.mlir",
    )
    function = next(iter(module.ops))
    assert isinstance(function, func.FuncOp)
    return next(iter(function.body.ops))


def lower(op: Operation) -> tuple[list[str], func.FuncOp]:
    """The names of the ops `emit_scalar` makes, and a verified function of
    scalars that returns its results."""
    arg_types = [scalar_type(operand.type) for operand in op.operands]
    result_types = [scalar_type(result.type) for result in op.results]
    block = Block(arg_types=arg_types)
    builder = Builder(InsertPoint.at_end(block))
    results = emit_scalar(op, block.args, builder)
    names = [o.name for o in block.walk()]
    block.add_op(func.ReturnOp(*results))
    function = func.FuncOp("scalar", (arg_types, result_types), Region(block))
    ModuleOp([function]).verify()
    return names, function


def names(text: str, types: str) -> list[str]:
    return lower(hlo_op(text, types))[0]


@pytest.mark.parametrize(
    ("text", "types", "expected"),
    [
        (
            "stablehlo.add %a0, %a1 : tensor<f32>",
            "tensor<f32>;tensor<f32>",
            "arith.addf",
        ),
        (
            "stablehlo.add %a0, %a1 : tensor<i32>",
            "tensor<i32>;tensor<i32>",
            "arith.addi",
        ),
        ("stablehlo.add %a0, %a1 : tensor<i1>", "tensor<i1>;tensor<i1>", "arith.ori"),
        (
            "stablehlo.multiply %a0, %a1 : tensor<i1>",
            "tensor<i1>;tensor<i1>",
            "arith.andi",
        ),
        (
            "stablehlo.maximum %a0, %a1 : tensor<bf16>",
            "tensor<bf16>;tensor<bf16>",
            "arith.maximumf",
        ),
        (
            "stablehlo.maximum %a0, %a1 : tensor<i32>",
            "tensor<i32>;tensor<i32>",
            "arith.maxsi",
        ),
        (
            "stablehlo.maximum %a0, %a1 : tensor<ui32>",
            "tensor<ui32>;tensor<ui32>",
            "arith.maxui",
        ),
        (
            "stablehlo.minimum %a0, %a1 : tensor<i1>",
            "tensor<i1>;tensor<i1>",
            "arith.minui",
        ),
        (
            "stablehlo.divide %a0, %a1 : tensor<f16>",
            "tensor<f16>;tensor<f16>",
            "arith.divf",
        ),
        ("stablehlo.exponential %a0 : tensor<f32>", "tensor<f32>", "math.exp"),
        ("stablehlo.round_nearest_afz %a0 : tensor<f32>", "tensor<f32>", "math.round"),
        (
            "stablehlo.round_nearest_even %a0 : tensor<f32>",
            "tensor<f32>",
            "math.roundeven",
        ),
        ("stablehlo.popcnt %a0 : tensor<i32>", "tensor<i32>", "math.ctpop"),
        ("stablehlo.count_leading_zeros %a0 : tensor<i64>", "tensor<i64>", "math.ctlz"),
        (
            "stablehlo.power %a0, %a1 : tensor<f32>",
            "tensor<f32>;tensor<f32>",
            "math.powf",
        ),
        (
            "stablehlo.atan2 %a0, %a1 : tensor<f64>",
            "tensor<f64>;tensor<f64>",
            "math.atan2",
        ),
        ("stablehlo.abs %a0 : tensor<i32>", "tensor<i32>", "math.absi"),
    ],
)
def test_direct_translations(text: str, types: str, expected: str):
    assert names(text, types) == [expected]


def test_unsigned_abs_is_the_operand():
    assert names("stablehlo.abs %a0 : tensor<ui8>", "tensor<ui8>") == []


@pytest.mark.parametrize(
    ("element", "division"), [("i32", "arith.divsi"), ("ui32", "arith.divui")]
)
def test_integer_division_is_guarded(element: str, division: str):
    ops = names(
        f"stablehlo.divide %a0, %a1 : tensor<{element}>",
        f"tensor<{element}>;tensor<{element}>",
    )
    assert division in ops
    # the divisor is replaced before dividing, the quotient after
    assert ops.index("arith.select") < ops.index(division)
    assert ops[-1] == "arith.select"
    # only signed division guards INT_MIN / -1
    assert ops.count("arith.cmpi") == (3 if element == "i32" else 1)


def test_integer_remainder_keeps_the_dividend_on_zero():
    op = hlo_op("stablehlo.remainder %a0, %a1 : tensor<i32>", "tensor<i32>;tensor<i32>")
    _, function = lower(op)
    ret = function.body.block.last_op
    assert ret is not None
    select = ret.operands[0].owner
    assert isinstance(select, Operation) and select.name == "arith.select"
    assert select.operands[1] is function.body.block.args[0]


def test_float_remainder_is_remf():
    """`remf` is exact; `a - trunc(a / b) * b` is not once the quotient
    outgrows the mantissa (tests/unit/test_float_remainder.py)."""
    ops = names("stablehlo.remainder %a0, %a1 : tensor<f32>", "tensor<f32>;tensor<f32>")
    assert ops == ["arith.remf"]


@pytest.mark.parametrize(
    ("direction", "compare_type", "element", "predicate"),
    [
        ("NE", "FLOAT", "f32", "une"),
        ("EQ", "FLOAT", "f32", "oeq"),
        ("LT", "FLOAT", "f32", "olt"),
        ("GE", "FLOAT", "f32", "oge"),
        ("LT", "SIGNED", "i32", "slt"),
        ("LT", "UNSIGNED", "ui32", "ult"),
        ("GT", "UNSIGNED", "ui8", "ugt"),
        ("GT", "UNSIGNED", "i1", "ugt"),
        ("LE", "NOTYPE", "i1", "ule"),
        ("NE", "SIGNED", "i32", "ne"),
    ],
)
def test_compare_predicates(
    direction: str, compare_type: str, element: str, predicate: str
):
    op = hlo_op(
        f"stablehlo.compare {direction}, %a0, %a1, {compare_type} : "
        f"(tensor<{element}>, tensor<{element}>) -> tensor<i1>",
        f"tensor<{element}>;tensor<{element}>",
    )
    _, function = lower(op)
    (cmp,) = list(function.body.block.ops)[:-1]
    assert str(cmp).split()[3].rstrip(",") == predicate


def test_total_order_compares_integer_keys():
    ops = names(
        "stablehlo.compare LT, %a0, %a1, TOTALORDER : "
        "(tensor<f32>, tensor<f32>) -> tensor<i1>",
        "tensor<f32>;tensor<f32>",
    )
    assert ops.count("arith.bitcast") == 2 and "arith.cmpf" not in ops
    assert ops[-1] == "arith.cmpi"


@pytest.mark.parametrize(
    ("name", "shift"),
    [
        ("shift_left", "arith.shli"),
        ("shift_right_logical", "arith.shrui"),
        ("shift_right_arithmetic", "arith.shrsi"),
    ],
)
def test_shifts_are_guarded(name: str, shift: str):
    ops = names(f"stablehlo.{name} %a0, %a1 : tensor<i32>", "tensor<i32>;tensor<i32>")
    assert shift in ops and ops[-1] == "arith.select"
    assert ops.index("arith.cmpi") < ops.index(shift)


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("f32", "f64", ["arith.extf"]),
        ("f64", "bf16", ["arith.truncf"]),
        ("f16", "bf16", ["arith.extf", "arith.truncf"]),
        ("i32", "f32", ["arith.sitofp"]),
        ("ui32", "f32", ["arith.uitofp"]),
        ("i1", "f32", ["arith.uitofp"]),
        ("i1", "i32", ["arith.extui"]),
        ("i8", "i32", ["arith.extsi"]),
        ("ui8", "i32", ["arith.extui"]),
        ("i64", "i32", ["arith.trunci"]),
        ("i32", "ui32", []),
        ("i32", "i1", ["arith.constant", "arith.cmpi"]),
        ("f32", "i1", ["arith.constant", "arith.cmpf"]),
    ],
)
def test_convert(source: str, target: str, expected: list[str]):
    op = hlo_op(
        f"stablehlo.convert %a0 : (tensor<{source}>) -> tensor<{target}>",
        f"tensor<{source}>",
    )
    assert lower(op)[0] == expected


@pytest.mark.parametrize(
    ("target", "conversion"), [("i32", "arith.fptosi"), ("ui8", "arith.fptoui")]
)
def test_float_to_int_saturates(target: str, conversion: str):
    ops = names(
        f"stablehlo.convert %a0 : (tensor<f32>) -> tensor<{target}>", "tensor<f32>"
    )
    assert conversion in ops
    # NaN and out-of-range inputs never reach the conversion
    assert ops.count("arith.cmpf") == 3 and ops[-1] == "arith.select"


def test_f16_to_i32_bound_is_infinite():
    op = hlo_op("stablehlo.convert %a0 : (tensor<f16>) -> tensor<i32>", "tensor<f16>")
    _, function = lower(op)
    constants = [str(o) for o in function.walk() if o.name == "arith.constant"]
    assert any("0x7c00" in c.lower() for c in constants)


def test_integer_power_loops_over_bits():
    op = hlo_op("stablehlo.power %a0, %a1 : tensor<i32>", "tensor<i32>;tensor<i32>")
    ops, function = lower(op)
    assert "loop.for" in ops and "arith.muli" in ops
    loop = next(o for o in function.walk() if o.name == "loop.for")
    assert "0 to 32 step 1" in str(loop)


def test_bitcast_convert_same_width():
    op = hlo_op(
        "stablehlo.bitcast_convert %a0 : (tensor<f32>) -> tensor<i32>", "tensor<f32>"
    )
    assert lower(op)[0] == ["arith.bitcast"]


def test_scalar_constant():
    op = hlo_op("stablehlo.constant dense<0xFF800000> : tensor<f32>", "tensor<f32>")
    _, function = lower(op)
    assert "arith.constant 0xff800000 : f32" in str(function).lower()


@pytest.mark.parametrize(
    ("text", "types", "message"),
    [
        (
            "stablehlo.bitcast_convert %a0 : (tensor<f64>) -> tensor<2xf32>",
            "tensor<f64>",
            "changes the shape",
        ),
        ("stablehlo.sine %a0 : tensor<i32>", "tensor<i32>", "needs float elements"),
        ("stablehlo.and %a0, %a1 : tensor<f32>", "tensor<f32>;tensor<f32>", "float"),
        (
            "stablehlo.transpose %a0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>",
            "tensor<2x3xf32>",
            "no scalar translation",
        ),
        (
            "stablehlo.negate %a0 : tensor<complex<f32>>",
            "tensor<complex<f32>>",
            "only integers and floats",
        ),
    ],
)
def test_unsupported(text: str, types: str, message: str):
    op = hlo_op(text, types)
    with pytest.raises(UnsupportedScalarOp, match=message) as info:
        emit_scalar(op, [], Builder(InsertPoint.at_end(Block())))
    assert info.value.op is op


def test_emit_block_inlines_a_reducer():
    module = parse_module(
        make_context(),
        """
        func.func @f(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
          %r = stablehlo.reduce(%x init: %init) across dimensions = [0] :
              (tensor<4xf32>, tensor<f32>) -> tensor<f32>
           reducer(%a: tensor<f32>, %b: tensor<f32>) {
            %m = stablehlo.maximum %a, %b : tensor<f32>
            %s = stablehlo.add %m, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }
          func.return %r : tensor<f32>
        }
        """,
        "test.mlir",
    )
    reduce = next(o for o in module.walk() if o.name == "stablehlo.reduce")
    body = reduce.regions[0].block
    assert body is not None
    arg_types = [scalar_type(t) for t in body.arg_types]
    block = Block(arg_types=arg_types)
    results = emit_block(body, block.args, Builder(InsertPoint.at_end(block)))
    assert [o.name for o in block.ops] == ["arith.maximumf", "arith.addf"]
    assert results[0] is block.last_op.results[0]  # pyright: ignore[reportOptionalMemberAccess]


# --- numerics: loop interpreter vs HLO interpreter on edge values -------------------

FLOATS = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.0,
    1e30,
    -1e30,
    float("inf"),
    float("-inf"),
    float("nan"),
]
INTS = [0, 1, -1, 7, -7, 31, 32, 33, 2**31 - 1, -(2**31), 100, -100]


def edge_pairs(values: list) -> tuple[list, list]:
    """Every pair of edge values, as two flat lists."""
    return [a for a in values for _ in values], [b for _ in values for b in values]


def _signless(array: np.ndarray) -> np.ndarray:
    """Loop-level buffers are signless: unsigned arrays travel as signed."""
    return array.view(f"i{array.itemsize}") if array.dtype.kind == "u" else array


def run_elementwise(text: str, arrays: list[np.ndarray]) -> None:
    expected = xlir.compile(text, pipeline="")(*arrays)
    lowered = xlir.compile(text, pipeline="fuse,assign-buffers,hlo-to-loop")
    got = lowered(*[_signless(a) for a in arrays])
    np.testing.assert_array_equal(got, _signless(np.asarray(expected)))


@pytest.mark.parametrize(
    ("op", "element"),
    [
        (op, element)
        for element in ("f32", "i32", "ui32")
        for op in (
            "add",
            "subtract",
            "multiply",
            "divide",
            "remainder",
            "maximum",
            "minimum",
            "power",
        )
        if not (op == "power" and element == "f32")
    ]
    + [
        (op, "i32")
        for op in (
            "shift_left",
            "shift_right_logical",
            "shift_right_arithmetic",
            "and",
            "or",
            "xor",
        )
    ]
    + [("atan2", "f32")],
)
def test_binary_edge_values(op: str, element: str):
    n = len(FLOATS) ** 2
    text = (
        f"func.func @main(%a: tensor<{n}x{element}>, %b: tensor<{n}x{element}>) -> tensor<{n}x{element}> {{\n"
        f"  %r = stablehlo.{op} %a, %b : tensor<{n}x{element}>\n"
        f"  return %r : tensor<{n}x{element}>\n}}"
    )
    values = FLOATS if element == "f32" else INTS
    dtype = {"f32": np.float32, "i32": np.int32, "ui32": np.uint32}[element]
    a, b = edge_pairs(values)
    arrays = [np.array(a).astype(dtype), np.array(b).astype(dtype)]
    if op == "power":
        arrays[1] = np.abs(arrays[1]) % 40 if element == "ui32" else arrays[1] % 40 - 5
    with np.errstate(all="ignore"):
        run_elementwise(text, arrays)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("f32", "i32"),
        ("f32", "ui8"),
        ("f32", "i1"),
        ("i32", "f32"),
        ("ui32", "f32"),
        ("i32", "i8"),
        ("i1", "f32"),
        ("f32", "f16"),
    ],
)
def test_convert_edge_values(source: str, target: str):
    values = {
        "f32": [*FLOATS, 2.0**31, -(2.0**31), 255.9, 256.0, -0.9],
        "i32": INTS,
        "ui32": INTS,
        "i1": [True, False],
    }[source]
    dtype = {"f32": np.float32, "i32": np.int32, "ui32": np.uint32, "i1": np.bool_}[
        source
    ]
    n = len(values)
    text = (
        f"func.func @main(%a: tensor<{n}x{source}>) -> tensor<{n}x{target}> {{\n"
        f"  %r = stablehlo.convert %a : (tensor<{n}x{source}>) -> tensor<{n}x{target}>\n"
        f"  return %r : tensor<{n}x{target}>\n}}"
    )
    with np.errstate(all="ignore"):
        run_elementwise(text, [np.array(values).astype(dtype)])


@pytest.mark.parametrize(
    ("direction", "compare_type"),
    [
        (d, t)
        for d in ("EQ", "NE", "LT", "LE", "GT", "GE")
        for t in ("FLOAT", "TOTALORDER")
    ],
)
def test_compare_edge_values(direction: str, compare_type: str):
    n = len(FLOATS) ** 2
    text = (
        f"func.func @main(%a: tensor<{n}xf32>, %b: tensor<{n}xf32>) -> tensor<{n}xi1> {{\n"
        f"  %r = stablehlo.compare {direction}, %a, %b, {compare_type} : "
        f"(tensor<{n}xf32>, tensor<{n}xf32>) -> tensor<{n}xi1>\n"
        f"  return %r : tensor<{n}xi1>\n}}"
    )
    a, b = edge_pairs(FLOATS)
    run_elementwise(text, [np.array(a, np.float32), np.array(b, np.float32)])


@pytest.mark.parametrize(
    "op",
    ["abs", "negate", "sign", "exponential", "log", "sqrt", "rsqrt", "tanh", "floor", "ceil",
     "round_nearest_even", "round_nearest_afz", "logistic", "is_finite", "cbrt"],
)  # fmt: skip
def test_unary_float_edge_values(op: str):
    n = len(FLOATS) + 2
    result = "i1" if op == "is_finite" else "f32"
    text = (
        f"func.func @main(%a: tensor<{n}xf32>) -> tensor<{n}x{result}> {{\n"
        f"  %r = stablehlo.{op} %a : (tensor<{n}xf32>) -> tensor<{n}x{result}>\n"
        f"  return %r : tensor<{n}x{result}>\n}}"
    )
    with np.errstate(all="ignore"):
        expected = xlir.compile(text, pipeline="")(
            np.array([*FLOATS, 2.5, -3.5], np.float32)
        )
        got = xlir.compile(text, pipeline="fuse,assign-buffers,hlo-to-loop")(
            np.array([*FLOATS, 2.5, -3.5], np.float32)
        )
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize(
    "line",
    [
        "stablehlo.convert %a0 : (tensor<f8E4M3FN>) -> tensor<i32>",
        "stablehlo.is_finite %a0 : (tensor<f8E4M3FN>) -> tensor<i1>",
    ],
)
def test_float8_bounds_are_compared_in_f32(line: str):
    """f8E4M3FN holds neither 2^31 nor infinity (448 is its largest value):
    the value is extended to f32 before it meets those bounds."""
    _, function = lower(hlo_op(line, "tensor<f8E4M3FN>"))
    ops = [o for o in function.walk() if o.name.startswith("arith.")]
    assert ops[0].name == "arith.extf"
    compares = [o for o in ops if o.name == "arith.cmpf"]
    assert compares and all(str(c.operands[0].type) == "f32" for c in compares)
