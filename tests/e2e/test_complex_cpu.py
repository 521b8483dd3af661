"""Complex numbers and fft on cpu (split into real and imaginary parts by
`split-complex`, fft by its own kernel) against the reference interpreter
(numpy's complex arithmetic and numpy.fft)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import xlir

TYPES = {"f32": (np.complex64, np.float32), "f64": (np.complex128, np.float64)}
TOLERANCE = {"f32": 2e-5, "f64": 1e-12}


def _tensor(shape: list[int], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _run_both(text: str, *args: np.ndarray) -> tuple[object, object]:
    ref = xlir.compile(text, target="interpreter")(*args)
    got = xlir.compile(text, target="cpu")(*args)
    return got, ref


def _close(got: np.ndarray, ref: np.ndarray, part: str, scale: float = 1.0) -> None:
    assert got.dtype == ref.dtype and got.shape == ref.shape
    both_nan = np.isnan(got) & np.isnan(ref)
    tol = TOLERANCE[part] * max(1.0, scale)
    close = np.isclose(got, ref, rtol=TOLERANCE[part], atol=tol) | both_nan
    assert close.all(), (got[~close], ref[~close])


def _random(rng: np.random.Generator, shape: list[int], part: str) -> np.ndarray:
    complex_type, _ = TYPES[part]
    values = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return values.astype(complex_type)


UNARY = [
    "negate",
    "exponential",
    "log",
    "sqrt",
    "rsqrt",
    "sine",
    "cosine",
    "tanh",
    "tan",
    "sign",
    "exponential_minus_one",
    "log_plus_one",
    "logistic",
    "cbrt",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "power",
    "maximum",
    "minimum",
    "atan2",
]


@pytest.mark.parametrize("part", ["f32", "f64"])
def test_elementwise_ops_match_the_interpreter(part: str) -> None:
    rng = np.random.default_rng(7)
    shape = [3, 5]
    c = _tensor(shape, f"complex<{part}>")
    lines = [f"func.func @main(%a: {c}, %b: {c}) -> ("]
    body, results = [], []
    for i, name in enumerate(UNARY):
        body.append(f"  %u{i} = stablehlo.{name} %a : {c}")
        results.append((f"%u{i}", c))
    for i, name in enumerate(BINARY):
        body.append(f"  %b{i} = stablehlo.{name} %a, %b : {c}")
        results.append((f"%b{i}", c))
    r = _tensor(shape, part)
    body.append(f"  %abs = stablehlo.abs %a : ({c}) -> {r}")
    body.append(f"  %re = stablehlo.real %a : ({c}) -> {r}")
    body.append(f"  %im = stablehlo.imag %b : ({c}) -> {r}")
    body.append(f"  %z = stablehlo.complex %im, %re : {c}")
    results += [("%abs", r), ("%re", r), ("%im", r), ("%z", c)]
    text = (
        lines[0]
        + ", ".join(t for _, t in results)
        + ") {\n"
        + "\n".join(body)
        + "\n  return "
        + ", ".join(v for v, _ in results)
        + " : "
        + ", ".join(t for _, t in results)
        + "\n}"
    )
    a, b = _random(rng, shape, part), _random(rng, shape, part)
    a[0, 0], b[0, 0] = 0, 0  # the zero cases of sign, sqrt, power, divide
    got, ref = _run_both(text, a, b)
    assert isinstance(got, tuple) and isinstance(ref, tuple)
    names = [*UNARY, *BINARY, "abs", "real", "imag", "complex"]
    for name, g, r_ in zip(names, got, ref, strict=True):
        try:
            _close(
                g,
                r_,
                part,
                scale=float(np.nanmax(np.abs(r_[np.isfinite(r_)]), initial=1)),
            )
        except AssertionError as error:
            raise AssertionError(f"{name}: {error}") from None


EXACT = {
    "add": "stablehlo.add %a, %b",
    "multiply_then_negate": "stablehlo.negate %a",
}


@pytest.mark.parametrize("part", ["f32", "f64"])
def test_exact_ops_are_bit_for_bit(part: str) -> None:
    """add, subtract, negate, division (numpy's Smith algorithm), compare,
    select and data movement give the interpreter's bits."""
    rng = np.random.default_rng(3)
    c = _tensor([4, 6], f"complex<{part}>")
    t = _tensor([6, 4], f"complex<{part}>")
    i1 = _tensor([4, 6], "i1")
    text = f"""func.func @main(%a: {c}, %b: {c}) -> ({c}, {c}, {c}, {i1}, {i1}, {c}, {t}, {_tensor([2, 6], f"complex<{part}>")}) {{
  %0 = stablehlo.add %a, %b : {c}
  %1 = stablehlo.subtract %a, %b : {c}
  %2 = stablehlo.divide %a, %b : {c}
  %3 = stablehlo.compare EQ, %a, %b : ({c}, {c}) -> {i1}
  %4 = stablehlo.compare LT, %a, %b : ({c}, {c}) -> {i1}
  %5 = stablehlo.select %4, %a, %b : {i1}, {c}
  %6 = stablehlo.transpose %a, dims = [1, 0] : ({c}) -> {t}
  %7 = stablehlo.slice %b [1:4:2, 0:6] : ({c}) -> {_tensor([2, 6], f"complex<{part}>")}
  return %0, %1, %2, %3, %4, %5, %6, %7 : {c}, {c}, {c}, {i1}, {i1}, {c}, {t}, {_tensor([2, 6], f"complex<{part}>")}
}}"""
    a, b = _random(rng, [4, 6], part), _random(rng, [4, 6], part)
    b[0, :3] = a[0, :3]
    b[1, 0] = a[1, 0].real + 5j  # equal real parts: the imaginary parts decide
    b[2, 0] = 0  # division by zero
    got, ref = _run_both(text, a, b)
    assert isinstance(got, tuple) and isinstance(ref, tuple)
    for g, r in zip(got, ref, strict=True):
        assert g.dtype == r.dtype
        assert g.view(np.uint8).tobytes() == r.view(np.uint8).tobytes()


@pytest.mark.parametrize("part", ["f32", "f64"])
def test_reduce_dot_and_control_flow_carry_both_parts(part: str) -> None:
    rng = np.random.default_rng(5)
    el = f"complex<{part}>"
    a, b, v = _tensor([3, 4], el), _tensor([4, 5], el), _tensor([3], el)
    m, s = _tensor([3, 5], el), _tensor([], el)
    text = f"""func.func @main(%a: {a}, %b: {b}) -> ({m}, {v}, {v}, {s}, {_tensor([3, 4], part)}) {{
  %zero = stablehlo.constant dense<(0.0, 0.0)> : {s}
  %one = stablehlo.constant dense<(1.0, 0.0)> : {s}
  %dot = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({a}, {b}) -> {m}
  %sum = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : ({a}, {s}) -> {v}
  %prod = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [1] : ({a}, {s}) -> {v}
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %one) : tensor<i32>, {s}
    cond {{
      %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }} do {{
      %x2 = stablehlo.multiply %x, %zero : {s}
      %x3 = stablehlo.add %x2, %one : {s}
      %x4 = stablehlo.multiply %x3, %x3 : {s}
      %i2 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %i2, %x4 : tensor<i32>, {s}
    }}
  %iota = stablehlo.iota dim = 1 : {a}
  %mixed = stablehlo.add %a, %iota : {a}
  %abs = stablehlo.abs %mixed : ({a}) -> {_tensor([3, 4], part)}
  return %dot, %sum, %prod, %w#1, %abs : {m}, {v}, {v}, {s}, {_tensor([3, 4], part)}
}}"""
    x, y = _random(rng, [3, 4], part), _random(rng, [4, 5], part)
    got, ref = _run_both(text, x, y)
    assert isinstance(got, tuple) and isinstance(ref, tuple)
    for g, r in zip(got, ref, strict=True):
        _close(g, r, part, scale=10.0)


def _fft_program(kind: str, batch: list[int], length: list[int], part: str) -> str:
    c = f"complex<{part}>"
    full = batch + length
    half = [*batch, *length[:-1], length[-1] // 2 + 1]
    types = {
        "FFT": (_tensor(full, c), _tensor(full, c)),
        "IFFT": (_tensor(full, c), _tensor(full, c)),
        "RFFT": (_tensor(full, part), _tensor(half, c)),
        "IRFFT": (_tensor(half, c), _tensor(full, part)),
    }
    i, o = types[kind]
    return f"""func.func @main(%a: {i}) -> {o} {{
  %0 = stablehlo.fft %a, type = {kind}, length = {length} : ({i}) -> {o}
  return %0 : {o}
}}"""


@pytest.mark.parametrize("kind", ["FFT", "IFFT", "RFFT", "IRFFT"])
@pytest.mark.parametrize("part", ["f32", "f64"])
def test_fft_matches_numpy(kind: str, part: str) -> None:
    """Random batch and lengths over 1-3 axes, powers of two (radix-2) and
    others (Bluestein), against numpy.fft; the same inputs every run (a
    seed of the case's own; `hash` of a string changes per process)."""
    rng = np.random.default_rng(zlib.crc32(f"{kind} {part}".encode()))
    transforms = {
        "FFT": np.fft.fftn,
        "IFFT": np.fft.ifftn,
        "RFFT": np.fft.rfftn,
        "IRFFT": np.fft.irfftn,
    }
    complex_type, real_type = TYPES[part]
    for _ in range(4):
        axes = int(rng.integers(1, 4))
        length = [int(n) for n in rng.choice([1, 2, 3, 5, 6, 8, 12, 16, 17], axes)]
        batch = [int(n) for n in rng.integers(1, 4, int(rng.integers(0, 2)))]
        shape = [*batch, *length]
        if kind == "IRFFT":
            shape[-1] = length[-1] // 2 + 1
        x = rng.standard_normal(shape)
        if kind != "RFFT":
            x = x + 1j * rng.standard_normal(shape)
        x = x.astype(real_type if kind == "RFFT" else complex_type)
        got = xlir.compile(_fft_program(kind, batch, length, part), target="cpu")(x)
        axes_ = list(range(-axes, 0))
        want = transforms[kind](
            x.astype(np.complex128 if kind != "RFFT" else np.float64),
            s=length,
            axes=axes_,
        )
        assert got.shape == want.shape, (length, batch)
        scale = float(np.abs(want).max(initial=1.0))
        error = float(np.abs(got - want).max(initial=0.0)) / scale
        assert error <= (1e-5 if part == "f32" else 1e-12), (kind, batch, length, error)


def test_ops_without_a_split_are_one_diagnostic() -> None:
    text = """func.func @main(%a: tensor<complex<f64>>) -> (tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<complex<f64>>) -> tensor<2xcomplex<f32>>
  %1 = stablehlo.custom_call @foo(%a) : (tensor<complex<f64>>) -> tensor<complex<f64>>
  %2 = stablehlo.add %1, %1 : tensor<complex<f64>>
  return %0, %2 : tensor<2xcomplex<f32>>, tensor<complex<f64>>
}"""
    with pytest.raises(xlir.diagnostics.XlirError) as caught:
        xlir.compile(text, target="cpu")
    message = str(caught.value)
    assert "split-complex cannot split 2 op(s) on complex values" in message
    assert ":2:3: error: 'stablehlo.bitcast_convert'" in message
    assert ":3:3: error: 'stablehlo.custom_call'" in message


def test_sort_by_complex_keys_and_conj() -> None:
    """A comparator on complex values gets both parts of each side; conj."""
    c, i = "tensor<6xcomplex<f32>>", "tensor<6xi32>"
    s = "tensor<complex<f32>>"
    text = f"""func.func @main(%a: {c}, %b: {i}) -> ({c}, {i}, {c}) {{
  %0:2 = "stablehlo.sort"(%a, %b) ({{
  ^bb0(%x: {s}, %y: {s}, %p: tensor<i32>, %q: tensor<i32>):
    %lt = stablehlo.compare LT, %x, %y : ({s}, {s}) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) {{dimension = 0 : i64, is_stable = true}} : ({c}, {i}) -> ({c}, {i})
  %c = chlo.conj %a : {c} -> {c}
  return %0#0, %0#1, %c : {c}, {i}, {c}
}}"""
    a = np.array([1 + 2j, 1 + 1j, -3, 1 + 1j, 0.5 - 2j, -3 - 1j], np.complex64)
    b = np.arange(6, dtype=np.int32)
    got, ref = _run_both(text, a, b)
    assert isinstance(got, tuple) and isinstance(ref, tuple)
    for g, r in zip(got, ref, strict=True):
        assert g.dtype == r.dtype and (g == r).all()


_SPECIAL_PARTS = (0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e300, 1e-300, 3.0)
_SPECIAL = np.array(
    [
        complex(a, b)
        for a in _SPECIAL_PARTS
        for b in (0.0, -0.0, 2.0, -2.0, np.inf, np.nan)
    ],
    np.complex128,
)


def _one_part_finite(z: np.ndarray) -> np.ndarray:
    return np.isfinite(z.real) | np.isfinite(z.imag)


SPECIAL_UNARY = {
    "exponential": None,
    "log": None,
    "sqrt": None,
    "rsqrt": None,
    "sign": None,
    "exponential_minus_one": None,
    "log_plus_one": None,
    "logistic": None,
    "sine": _one_part_finite,
    "cosine": _one_part_finite,
    "tanh": lambda z: np.abs(z.real) < 1e300,
    "tan": lambda z: np.abs(z.imag) < 1e300,
}
"""Ops whose special values (zeros of either sign, infinities, NaN, huge and
tiny parts) are C99's, as numpy gives them, with the inputs where they are
(None: all; the rest are listed as known differences in docs/hlo-passes.md)."""


@pytest.mark.parametrize("name", sorted(SPECIAL_UNARY))
def test_special_values_are_numpys(name: str) -> None:
    where = SPECIAL_UNARY[name]
    x = _SPECIAL if where is None else _SPECIAL[where(_SPECIAL)]
    t = _tensor([len(x)], "complex<f64>")
    text = f"func.func @main(%a: {t}) -> {t} {{\n  %0 = stablehlo.{name} %a : {t}\n  return %0 : {t}\n}}"
    with np.errstate(all="ignore"):
        got, ref = _run_both(text, x)
    assert isinstance(got, np.ndarray) and isinstance(ref, np.ndarray)
    for part in (np.real, np.imag):
        g, r = part(got), part(ref)
        same = (np.isnan(g) & np.isnan(r)) | np.isclose(g, r, rtol=1e-12, atol=0)
        same |= g == r
        assert same.all(), (name, x[~same], got[~same], ref[~same])


def test_data_movement_and_region_ops_carry_both_parts() -> None:
    """Every data movement op and op with a region on complex values, bit
    for bit (they move or add values: no rounding differs)."""
    c = "complex<f32>"
    m, s = _tensor([3, 4], c), _tensor([], c)
    text = f"""func.func @main(%a: {m}, %b: {_tensor([4], c)}, %i: tensor<i32>) -> ({_tensor([2, 3, 4], c)}, {_tensor([3, 8], c)}, {_tensor([5, 7], c)}, {m}, {_tensor([12], c)}, {_tensor([2, 4], c)}, {_tensor([2, 2], c)}, {m}, {m}, {_tensor([3, 4], "complex<f64>")}, {_tensor([3, 3], c)}, {m}) {{
  %bc = stablehlo.broadcast_in_dim %a, dims = [1, 2] : ({m}) -> {_tensor([2, 3, 4], c)}
  %cat = stablehlo.concatenate %a, %a, dim = 1 : ({m}, {m}) -> {_tensor([3, 8], c)}
  %pv = stablehlo.constant dense<(1.5, -2.5)> : {s}
  %pad = stablehlo.pad %a, %pv, low = [1, 2], high = [1, 1], interior = [0, 0] : ({m}, {s}) -> {_tensor([5, 7], c)}
  %rev = stablehlo.reverse %a, dims = [0, 1] : {m}
  %rs = stablehlo.reshape %a : ({m}) -> {_tensor([12], c)}
  %idx = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %g = "stablehlo.gather"(%a, %idx) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}}> : ({m}, tensor<2x1xi32>) -> {_tensor([2, 4], c)}
  %ds = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 2] : ({m}, tensor<i32>, tensor<i32>) -> {_tensor([2, 2], c)}
  %upd = stablehlo.reshape %b : ({_tensor([4], c)}) -> {_tensor([1, 4], c)}
  %dus = stablehlo.dynamic_update_slice %a, %upd, %i, %i : ({m}, {_tensor([1, 4], c)}, tensor<i32>, tensor<i32>) -> {m}
  %sidx = stablehlo.constant dense<[[1], [1]]> : tensor<2x1xi32>
  %supd = stablehlo.broadcast_in_dim %b, dims = [1] : ({_tensor([4], c)}) -> {_tensor([2, 4], c)}
  %sc = "stablehlo.scatter"(%a, %sidx, %supd) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
  ^bb0(%x: {s}, %y: {s}):
    %sum = stablehlo.add %x, %y : {s}
    stablehlo.return %sum : {s}
  }}) : ({m}, tensor<2x1xi32>, {_tensor([2, 4], c)}) -> {m}
  %wide = stablehlo.convert %a : ({m}) -> {_tensor([3, 4], "complex<f64>")}
  %zero = stablehlo.constant dense<(0.0, 0.0)> : {s}
  %rw = "stablehlo.reduce_window"(%a, %zero) <{{window_dimensions = array<i64: 1, 2>}}> ({{
  ^bb0(%x: {s}, %y: {s}):
    %sum = stablehlo.add %x, %y : {s}
    stablehlo.return %sum : {s}
  }}) : ({m}, {s}) -> {_tensor([3, 3], c)}
  %case = "stablehlo.case"(%i) ({{
    stablehlo.return %a : {m}
  }}, {{
    %n = stablehlo.negate %a : {m}
    stablehlo.return %n : {m}
  }}) : (tensor<i32>) -> {m}
  return %bc, %cat, %pad, %rev, %rs, %g, %ds, %dus, %sc, %wide, %rw, %case : {_tensor([2, 3, 4], c)}, {_tensor([3, 8], c)}, {_tensor([5, 7], c)}, {m}, {_tensor([12], c)}, {_tensor([2, 4], c)}, {_tensor([2, 2], c)}, {m}, {m}, {_tensor([3, 4], "complex<f64>")}, {_tensor([3, 3], c)}, {m}
}}"""
    rng = np.random.default_rng(11)
    a, b = _random(rng, [3, 4], "f32"), _random(rng, [4], "f32")
    got, ref = _run_both(text, a, b, np.array(1, np.int32))
    assert isinstance(got, tuple) and isinstance(ref, tuple)
    for g, r in zip(got, ref, strict=True):
        assert g.dtype == r.dtype and g.shape == r.shape
        assert g.tobytes() == r.tobytes()
