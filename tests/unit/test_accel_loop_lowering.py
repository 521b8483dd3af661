"""Differential tests of the accel backend: the same loop-level kernel on the
loop evaluator (the interpreter target) and compiled for XA-1 and run on its
simulator (loop-to-accel, register allocation, assembly, object), on inputs
with the edge cases of each op. Outputs must be equal bit for bit (the
lowering keeps each op's order and rounding; a NaN's sign and payload are
the chip's canonical NaN, manual section 4.7)."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

N = 37
"""Not a multiple of 16: remainders are exercised."""


def _program(kernel: str, arguments: list[str], results: list[str]) -> str:
    """A module of `kernel` (named @k, taking `arguments` then `results`) and a
    host function that allocates the results, launches it and returns them."""
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arguments))
    allocs = "\n".join(f"  %r{i} = device.alloc : {t}" for i, t in enumerate(results))
    values = [f"%a{i}" for i in range(len(arguments))]
    values += [f"%r{i}" for i in range(len(results))]
    types = ", ".join(arguments + results)
    return f"""{kernel}
func.func @main({params}) -> ({", ".join(results)}) {{
  %s = device.default_stream
{allocs}
  device.launch @k({", ".join(values)}) on %s : {types}
  device.synchronize %s
  func.return {", ".join(f"%r{i}" for i in range(len(results)))} : {", ".join(results)}
}}
"""


def _same(text: str, *inputs: np.ndarray) -> None:
    expected = xlir.compile(text, target="interpreter")(*inputs)
    got = xlir.compile(text, target="accel")(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for index, (have, want) in enumerate(zip(got, expected, strict=True)):
        assert have.dtype == want.dtype, index
        if have.dtype == np.float32:  # bits, but any NaN equals any NaN
            np.testing.assert_array_equal(np.isnan(have), np.isnan(want))
            have, want = (
                np.where(np.isnan(a), 0, a).view(np.uint32) for a in (have, want)
            )
        np.testing.assert_array_equal(have, want, err_msg=f"result {index}")


def _binary_kernel(op: str, type_: str, result: str | None = None) -> str:
    result = result or type_
    return f"""loop.kernel @k(%x: memref<{N}x{type_}>, %y: memref<{N}x{type_}>, %z: memref<{N}x{result}>) {{
  loop.parallel (%i) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%i] : memref<{N}x{type_}>
    %b = loop.load %y[%i] : memref<{N}x{type_}>
    %c = {op} %a, %b : {type_}
    loop.store %c, %z[%i] : memref<{N}x{result}>
  }}
  loop.return
}}"""


INT_EDGES = np.array(
    [0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 2**31 - 1, -(2**31), 12345, -54321, 255, 256],
    np.int32,
)
FLOAT_EDGES = np.array(
    [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -3.5, 2.5, 1e30, 0.1],
    np.float32,
)


def _pairs(edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.choice(edges, N), rng.choice(edges, N)


@pytest.mark.parametrize(
    "op",
    ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
     "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"],
)  # fmt: skip
def test_integer_ops(op: str) -> None:
    text = _program(
        _binary_kernel(op, "i32"), [f"memref<{N}xi32>"] * 2, [f"memref<{N}xi32>"]
    )
    _same(text, *_pairs(INT_EDGES))


@pytest.mark.parametrize(
    "predicate",
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"],
)
def test_integer_compares(predicate: str) -> None:
    kernel = _binary_kernel(f"arith.cmpi {predicate},", "i32", "i1")
    text = _program(kernel, [f"memref<{N}xi32>"] * 2, [f"memref<{N}xi1>"])
    _same(text, *_pairs(INT_EDGES))


@pytest.mark.parametrize(
    "op",
    ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
     "arith.minimumf"],
)  # fmt: skip
def test_float_ops(op: str) -> None:
    text = _program(
        _binary_kernel(op, "f32"), [f"memref<{N}xf32>"] * 2, [f"memref<{N}xf32>"]
    )
    _same(text, *_pairs(FLOAT_EDGES))


@pytest.mark.parametrize(
    "predicate",
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
     "uge", "ult", "ule", "une", "uno", "true"],
)  # fmt: skip
def test_float_compares(predicate: str) -> None:
    kernel = _binary_kernel(f"arith.cmpf {predicate},", "f32", "i1")
    text = _program(kernel, [f"memref<{N}xf32>"] * 2, [f"memref<{N}xi1>"])
    _same(text, *_pairs(FLOAT_EDGES))


def test_unary_ops_and_conversions() -> None:
    """negf, absf, copysign, sqrt, select on floats and integers, and the
    conversions between them."""
    f, i = f"memref<{N}xf32>", f"memref<{N}xi32>"
    kernel = f"""loop.kernel @k(%x: {f}, %n: {i}, %o0: {f}, %o1: {f}, %o2: {i}, %o3: {f}, %o4: {i}) {{
  loop.parallel (%j) = (0) to ({N}) step (1) {{
    %a = loop.load %x[%j] : {f}
    %m = loop.load %n[%j] : {i}
    %neg = arith.negf %a : f32
    %abs = math.absf %neg : f32
    %cs = math.copysign %abs, %neg : f32
    %sq = math.sqrt %abs : f32
    %sum = arith.addf %cs, %sq : f32
    loop.store %sum, %o0[%j] : {f}
    %c = arith.cmpf olt, %a, %sq : f32
    %s = arith.select %c, %a, %neg : f32
    %fm = arith.sitofp %m : i32 to f32
    %t = arith.addf %s, %fm : f32
    loop.store %t, %o1[%j] : {f}
    %zero = arith.constant 0 : i32
    %pos = arith.cmpi sgt, %m, %zero : i32
    %k = arith.select %pos, %m, %zero : i32
    %bits = arith.bitcast %a : f32 to i32
    %mix = arith.xori %k, %bits : i32
    loop.store %mix, %o2[%j] : {i}
    %u = arith.uitofp %m : i32 to f32
    loop.store %u, %o3[%j] : {f}
    %small = arith.constant 1.0e9 : f32
    %lim = arith.minimumf %a, %small : f32
    %back = arith.fptosi %lim : f32 to i32
    loop.store %back, %o4[%j] : {i}
  }}
  loop.return
}}"""
    text = _program(kernel, [f, i], [f, f, i, f, i])
    x = np.random.default_rng(1).choice(FLOAT_EDGES[~np.isinf(FLOAT_EDGES)], N)
    _same(text, x.astype(np.float32), _pairs(INT_EDGES)[0])


def test_carried_values_that_swap_and_repeat() -> None:
    """A loop that yields its carried values swapped, one twice, and one
    computed before the last read of another: each gets its own register
    where sharing would clobber."""
    kernel = f"""loop.kernel @k(%x: memref<{N}xi32>, %o: memref<3xi32>) {{
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:3 = loop.for %j = 0 to {N} step 1 iter_args(%a = %z, %b = %one, %c = %one) -> (i32, i32, i32) {{
    %v = loop.load %x[%j] : memref<{N}xi32>
    %n = arith.addi %b, %v : i32
    %m = arith.muli %a, %c : i32
    loop.yield %n, %a, %m : i32, i32, i32
  }}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  loop.store %r#0, %o[%c0] : memref<3xi32>
  loop.store %r#1, %o[%c1] : memref<3xi32>
  loop.store %r#2, %o[%c2] : memref<3xi32>
  loop.return
}}"""
    text = _program(kernel, [f"memref<{N}xi32>"], ["memref<3xi32>"])
    _same(text, np.arange(N, dtype=np.int32) - 5)


def test_deep_nest_uses_branch_loops_and_dynamic_bounds() -> None:
    """Six nested loops (the outer two as branches: the chip keeps four
    hardware loops) and a bound read from memory."""
    kernel = """loop.kernel @k(%x: memref<2x2x2x2x2x3xf32>, %n: memref<i32>, %o: memref<2x2x2x2x2xf32>) {
  %z = arith.constant 0.0 : f32
  %b = loop.load %n[] : memref<i32>
  %bound = arith.index_cast %b : i32 to index
  loop.parallel (%i, %j, %k, %l, %m) = (0, 0, 0, 0, 0) to (2, 2, 2, 2, 2) step (1, 1, 1, 1, 1) {
    %s = loop.for %q = 0 to %bound step 1 iter_args(%acc = %z) -> (f32) {
      %v = loop.load %x[%i, %j, %k, %l, %m, %q] : memref<2x2x2x2x2x3xf32>
      %w = arith.addf %acc, %v : f32
      loop.yield %w : f32
    }
    loop.store %s, %o[%i, %j, %k, %l, %m] : memref<2x2x2x2x2xf32>
  }
  loop.return
}"""
    text = _program(
        kernel, ["memref<2x2x2x2x2x3xf32>", "memref<i32>"], ["memref<2x2x2x2x2xf32>"]
    )
    x = np.random.default_rng(2).standard_normal((2, 2, 2, 2, 2, 3)).astype(np.float32)
    for bound in (0, 2, 3):
        _same(text, x, np.array(bound, np.int32))


def test_more_than_sixteen_arguments() -> None:
    """Arguments past the sixteenth are read from the stack (manual 8.2)."""
    count = 18
    params = ", ".join(f"%x{i}: memref<4xf32>" for i in range(count))
    loads = "\n".join(
        f"    %v{i} = loop.load %x{i}[%i] : memref<4xf32>" for i in range(count)
    )
    sums = "\n".join(
        f"    %s{i} = arith.addf %s{i - 1}, %v{i} : f32" for i in range(1, count)
    )
    kernel = f"""loop.kernel @k({params}, %o: memref<4xf32>) {{
  loop.parallel (%i) = (0) to (4) step (1) {{
{loads}
    %s0 = arith.addf %v0, %v0 : f32
{sums}
    loop.store %s{count - 1}, %o[%i] : memref<4xf32>
  }}
  loop.return
}}"""
    text = _program(kernel, ["memref<4xf32>"] * count, ["memref<4xf32>"])
    rng = np.random.default_rng(3)
    _same(text, *(rng.standard_normal(4).astype(np.float32) for _ in range(count)))


def test_values_past_the_register_files_spill() -> None:
    """40 floats live at once: more than the 32 vector registers, so some
    live in the spill area and the result is still exact."""
    count = 40
    loads = "\n".join(
        f"    %c{i} = arith.constant {i} : index\n"
        f"    %v{i} = loop.load %x[%i, %c{i}] : memref<2x{count}xf32>"
        for i in range(count)
    )
    products = "\n".join(
        f"    %p{i} = arith.mulf %v{i}, %v{count - 1 - i} : f32" for i in range(count)
    )
    sums = "\n".join(
        f"    %s{i} = arith.addf %s{i - 1}, %p{i} : f32" for i in range(1, count)
    )
    kernel = f"""loop.kernel @k(%x: memref<2x{count}xf32>, %o: memref<2xf32>) {{
  loop.parallel (%i) = (0) to (2) step (1) {{
{loads}
{products}
    %s0 = arith.addf %p0, %p0 : f32
{sums}
    loop.store %s{count - 1}, %o[%i] : memref<2xf32>
  }}
  loop.return
}}"""
    text = _program(kernel, [f"memref<2x{count}xf32>"], ["memref<2xf32>"])
    compiled = xlir.compile(text, target="accel")
    assert "sp)" in compiled.as_text()  # spill slots are addressed from sp
    x = np.random.default_rng(4).standard_normal((2, count)).astype(np.float32)
    _same(text, x)


def test_memory_stats_and_assembly() -> None:
    text = _program(
        _binary_kernel("arith.addf", "f32"),
        [f"memref<{N}xf32>"] * 2,
        [f"memref<{N}xf32>"],
    )
    compiled = xlir.compile(text, target="accel")
    stats = compiled.memory_stats()
    assert stats.scratchpad_size_in_bytes == 3 * 192  # three 148-byte buffers, aligned
    assert stats.generated_code_size_in_bytes > 0
    assembly = compiled.as_text()
    assert ".kernel k, 3" in assembly and "halt" in assembly


@pytest.mark.parametrize("element", ["i8", "ui16"])
@pytest.mark.parametrize(
    "op", ["add", "divide", "shift_right_logical", "maximum", "multiply"]
)
def test_narrow_integers_in_their_containers(element: str, op: str) -> None:
    """Narrow integers are moved by DMA conversions and computed in 32-bit
    containers, sign-extended, re-extended after each op and zero-extended
    where one reads them unsigned: they wrap, divide and compare as the
    evaluator's do."""
    dtype = np.dtype({"i8": np.int8, "ui16": np.uint16}[element])
    text = f"""func.func @main(%a: tensor<{N}x{element}>, %b: tensor<{N}x{element}>) -> (tensor<{N}x{element}>, tensor<{N}xi1>) {{
  %0 = stablehlo.{op} %a, %b : tensor<{N}x{element}>
  %1 = stablehlo.compare LT, %0, %a : (tensor<{N}x{element}>, tensor<{N}x{element}>) -> tensor<{N}xi1>
  return %0, %1 : tensor<{N}x{element}>, tensor<{N}xi1>
}}"""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    a, b = (
        rng.integers(info.min, info.max, N, endpoint=True).astype(dtype) for _ in "ab"
    )
    b[b == 0] = 1
    if op.startswith("shift"):
        b = (b % 12).astype(dtype)
    _same(text, a, b)


def test_true_is_one_in_an_i1_register() -> None:
    """`not` of an i1 is an xor with `true`, which the IR may hold as -1: the
    register gets 1 (found by tests/fuzz/test_element_types.py; LAPACK's
    `info` outputs came out -1 and -2 through it)."""
    text = """func.func @main(%x: tensor<5xi1>) -> (tensor<5xi1>, tensor<5xi1>) {
  %n = stablehlo.not %x : tensor<5xi1>
  %nn = stablehlo.not %n : tensor<5xi1>
  %x1 = stablehlo.xor %n, %nn : tensor<5xi1>
  %x2 = stablehlo.xor %nn, %x1 : tensor<5xi1>
  return %x2, %n : tensor<5xi1>, tensor<5xi1>
}"""
    _same(text, np.array([True, False, True, True, False]))
