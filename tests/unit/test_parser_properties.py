"""Property-based round trips: programs the corpus never shows (random
element types, shapes, op sequences and constants) print, parse back and print
again to the same text."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from xlir import make_context, parse_module
from xlir.diagnostics import verify_module

FLOAT_TYPES = ["f16", "bf16", "f32", "f64"]
INT_TYPES = ["i8", "i16", "i32", "i64", "ui8", "ui32", "ui64"]
FLOAT_UNARY = ["abs", "exponential", "log", "tanh", "sqrt", "rsqrt", "negate",
               "floor", "ceil", "sine", "cosine", "logistic", "sign"]  # fmt: skip
INT_UNARY = ["popcnt", "count_leading_zeros", "not", "negate"]
FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum",
                "power", "atan2", "remainder"]  # fmt: skip
INT_BINARY = ["add", "multiply", "and", "or", "xor", "shift_left",
              "shift_right_logical", "remainder", "maximum"]  # fmt: skip


def _print(op) -> str:
    out = StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


@st.composite
def programs(draw: st.DrawFn) -> str:
    is_float = draw(st.booleans())
    element = draw(st.sampled_from(FLOAT_TYPES if is_float else INT_TYPES))
    dims = draw(st.lists(st.integers(1, 6), max_size=3))
    tensor = "tensor<" + "".join(f"{d}x" for d in dims) + element + ">"
    unary = FLOAT_UNARY if is_float else INT_UNARY
    binary = FLOAT_BINARY if is_float else INT_BINARY
    if is_float:
        value = draw(st.floats(allow_nan=False, allow_infinity=False, width=16))
        literal = repr(float(value))
    else:
        literal = str(draw(st.integers(0, 100)))
    lines = [
        f"func.func @main(%a: {tensor}, %b: {tensor}) -> {tensor} {{",
        f"  %c = stablehlo.constant dense<{literal}> : {tensor}",
    ]
    values = ["%a", "%b", "%c"]
    for i in range(draw(st.integers(1, 12))):
        if draw(st.booleans()):
            op = draw(st.sampled_from(unary))
            x = draw(st.sampled_from(values))
            lines.append(f"  %v{i} = stablehlo.{op} {x} : {tensor}")
        else:
            op = draw(st.sampled_from(binary))
            x, y = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"  %v{i} = stablehlo.{op} {x}, {y} : {tensor}")
        values.append(f"%v{i}")
    lines.append(f"  func.return {values[-1]} : {tensor}")
    lines.append("}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(programs())
def test_random_elementwise_programs_round_trip(text: str) -> None:
    ctx = make_context()
    module = parse_module(ctx, text, "random.mlir")
    verify_module(module)
    printed = _print(module)
    again = parse_module(ctx, printed, "printed.mlir")
    assert _print(again) == printed


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["f32", "f64", "i32", "ui8", "i1"]),
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.data(),
)
def test_constants_keep_their_values(element: str, dims: list[int], data) -> None:
    """Non-splat constants print and parse back to the same values."""
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
             "ui8": np.uint8, "i1": np.bool_}[element]  # fmt: skip
    count = int(np.prod(dims))
    if element == "i1":
        values = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
        body = ", ".join("true" if v else "false" for v in values)
    elif element.startswith("f"):
        values = data.draw(
            st.lists(st.floats(-1e6, 1e6, width=32), min_size=count, max_size=count)
        )
        body = ", ".join(repr(float(v)) for v in values)
    else:
        high = 255 if element == "ui8" else 2**31 - 1
        values = data.draw(
            st.lists(st.integers(0, high), min_size=count, max_size=count)
        )
        body = ", ".join(str(v) for v in values)
    tensor = "tensor<" + "".join(f"{d}x" for d in dims) + element + ">"
    nested = np.array(values, dtype=dtype).reshape(dims)
    text = (
        f"func.func @main() -> {tensor} {{\n"
        f"  %c = stablehlo.constant dense<[{body}]> : tensor<{count}x{element}>\n"
        f"  %r = stablehlo.reshape %c : (tensor<{count}x{element}>) -> {tensor}\n"
        f"  func.return %r : {tensor}\n}}\n"
    )
    ctx = make_context()
    module = parse_module(ctx, text, "constants.mlir")
    printed = _print(module)
    again = parse_module(ctx, printed, "printed.mlir")
    assert _print(again) == printed
    constant = next(op for op in again.walk() if op.name == "stablehlo.constant")
    parsed = np.array(constant.value.get_values(), dtype=dtype)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(parsed, nested.reshape(-1))


def test_repeated_dense_literals_read_by_their_spelling() -> None:
    """A dense literal parsed once is looked up by its spelling: repeats give
    the same values, and spellings that differ only in the type, the sign of
    zero or as bits (JAX's -inf) stay apart; a bad literal is still an
    error."""
    literals = [
        "dense<0.000000e+00> : tensor<f32>",
        "dense<-0.000000e+00> : tensor<f32>",
        "dense<0.000000e+00> : tensor<f64>",
        "dense<0xFF800000> : tensor<f32>",
        "dense<[1, 2]> : tensor<2xi32>",
    ]
    lines = [f"  %c{i} = stablehlo.constant {t}" for i, t in enumerate(literals * 2)]
    text = "func.func @main() {\n" + "\n".join(lines) + "\n  func.return\n}\n"
    module = parse_module(make_context(), text)
    ops = list(next(iter(module.body.block.ops)).body.block.ops)[:-1]
    values = [op.value for op in ops]
    assert values[:5] == values[5:]
    assert len({str(v) for v in values[:5]}) == 5
    assert [np.signbit(float(values[i].get_values()[0])) for i in (0, 1)] == [0, 1]
    assert values[3].get_values()[0] == float("-inf")
    bad = text.replace(literals[4], "dense<[1, 2, 3]> : tensor<2xi32>", 2)
    with pytest.raises(ParseError, match="Shape mismatch"):
        parse_module(make_context(), bad)
