"""`ml_dtypes` arrays (bf16, float8, int4, uint4, int2) in and out of the
Python API and through `.npz` files in `xlir-run`, and the per-dtype
tolerances of `xlir-run --expected` (`tools/compare.py`)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xlir.tools.compare import Tolerance, compare, default_tolerance, tolerance_for
from xlir.tools.run import main as run_main

import xlir
from xlir.element_dtypes import to_void

NARROW = {
    "bf16": ml_dtypes.bfloat16,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "i4": ml_dtypes.int4,
    "ui4": ml_dtypes.uint4,
    "i2": ml_dtypes.int2,
}


def _double(element: str) -> str:
    t = f"tensor<2x3x{element}>"
    return f"""func.func @main(%x: {t}) -> {t} {{
  %0 = stablehlo.add %x, %x : {t}
  return %0 : {t}
}}
"""


def _values(dtype: type) -> np.ndarray:
    if dtype in (ml_dtypes.int2,):
        return np.array([[-2, -1, 0], [1, 0, -1]]).astype(dtype)
    if dtype in (ml_dtypes.int4, ml_dtypes.uint4):
        return np.array([[1, 2, 3], [4, 5, 7]]).astype(dtype)
    return np.array([[0.5, -1.25, 3.0], [1e-3, 100.0, -7.5]]).astype(dtype)


@pytest.mark.parametrize("element", list(NARROW))
def test_api_takes_and_returns_ml_dtypes(element: str) -> None:
    dtype = NARROW[element]
    executable = xlir.compile(_double(element))
    assert executable.signature.arguments[0].dtype == np.dtype(dtype)
    x = _values(dtype)
    got = executable(x)
    assert isinstance(got, np.ndarray) and got.dtype == np.dtype(dtype)
    # x + x computed exactly and rounded (wrapped) to the type once
    want = (x.astype(np.float64) * 2).astype(dtype)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("element", list(NARROW))
def test_npz_round_trip_through_xlir_run(
    element: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ml_dtypes array saved as raw bytes (`|V2` for bf16, as numpy saves
    JAX's bf16 arrays) is read as the function's type; outputs are saved so."""
    dtype = NARROW[element]
    program = tmp_path / "double.mlir"
    program.write_text(_double(element))
    x = _values(dtype)
    np.savez(tmp_path / "in.npz", arg0=to_void(x))
    assert np.load(tmp_path / "in.npz")["arg0"].dtype.kind == "V"
    out = tmp_path / "out.npz"
    with pytest.raises(SystemExit) as exit_:
        run_main(
            [str(program), "--inputs", str(tmp_path / "in.npz"), "--output", str(out)]
        )
    assert exit_.value.code == 0, capsys.readouterr().err
    saved = np.load(out)["out0"]
    assert saved.dtype.itemsize == np.dtype(dtype).itemsize
    want = xlir.compile(_double(element))(x)
    np.testing.assert_array_equal(saved.view(dtype), want)
    with pytest.raises(SystemExit) as exit_:
        run_main(
            [str(program), "--inputs", str(tmp_path / "in.npz"), "--expected", str(out)]
        )
    stdout = capsys.readouterr().out
    assert exit_.value.code == 0 and "PASSED" in stdout, stdout


def test_expected_bf16_is_compared_in_ulps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "double.mlir"
    program.write_text(_double("bf16"))
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ml_dtypes.bfloat16)
    np.savez(tmp_path / "in.npz", arg0=x)
    exact = (x.astype(np.float32) * 2).astype(ml_dtypes.bfloat16)
    bits = exact.view(np.uint16)

    def run(shift: int, *flags: str) -> tuple[int, str]:
        np.savez(tmp_path / "want.npz", out0=(bits + shift).view(ml_dtypes.bfloat16))
        argv = [str(program), "--inputs", str(tmp_path / "in.npz")]
        with pytest.raises(SystemExit) as exit_:
            run_main([*argv, "--expected", str(tmp_path / "want.npz"), *flags])
        code = exit_.value.code
        return code if isinstance(code, int) else 1, capsys.readouterr().out

    code, out = run(7)  # 7 ulp off: within the default 8
    assert code == 0 and "within 8 ulp of bfloat16" in out, out
    code, out = run(9)
    assert code == 1 and "outside 8 ulp of bfloat16" in out, out
    code, out = run(1, "--rtol", "0", "--atol", "0")
    assert code == 1 and "outside rtol=0 atol=0" in out, out


def test_default_tolerances_per_dtype() -> None:
    assert default_tolerance(np.dtype(np.int32)) == Tolerance()
    assert default_tolerance(np.dtype(ml_dtypes.int4)) == Tolerance()
    assert default_tolerance(np.dtype(np.bool_)) == Tolerance()
    assert default_tolerance(np.dtype(np.float32)) == Tolerance(rtol=1e-4, atol=1e-5)
    assert default_tolerance(np.dtype(np.float64)) == Tolerance(rtol=1e-9, atol=1e-12)
    assert default_tolerance(np.dtype(np.float16)).ulps == 8
    assert default_tolerance(np.dtype(ml_dtypes.float8_e4m3fn)).ulps == 2
    # the flags set one rule for floats; integers stay exact
    assert tolerance_for(np.dtype(ml_dtypes.bfloat16), 1e-2, None) == Tolerance(
        rtol=1e-2
    )
    assert tolerance_for(np.dtype(np.int8), 1.0, 1.0) == Tolerance()


def test_integers_compare_exactly_and_float8_by_ulps() -> None:
    want = np.array([1, -8, 7], ml_dtypes.int4)
    assert compare(want.copy(), want, Tolerance())[0]
    ok, verdict = compare(np.array([1, -8, 6], ml_dtypes.int4), want, Tolerance())
    assert not ok and "first at [2]" in verdict
    f8 = np.array([1.0, 448.0, np.nan], ml_dtypes.float8_e4m3fn)
    up = (f8.view(np.uint8) + np.array([2, 0, 0], np.uint8)).view(f8.dtype)
    assert compare(up, f8, default_tolerance(f8.dtype))[0]  # 2 ulp at 1.0
    three = (f8.view(np.uint8) + np.array([3, 0, 0], np.uint8)).view(f8.dtype)
    assert not compare(three, f8, default_tolerance(f8.dtype))[0]


def test_complex_outputs_compare_both_parts() -> None:
    want = np.array([1 + 1j, 2 - 3j], np.complex64)
    assert compare(want.copy(), want, default_tolerance(want.dtype))[0]
    got = np.array([1 + 1j, 2 + 3j], np.complex64)
    assert not compare(got, want, default_tolerance(want.dtype))[0]


def test_f16_through_xlir_run_on_cpu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A type the cpu target computes: the same files, the same comparison."""
    program = tmp_path / "double.mlir"
    program.write_text(_double("f16"))
    x = np.array([[0.5, -1.25, 3.0], [1e-3, 100.0, -7.5]], np.float16)
    np.savez(tmp_path / "in.npz", arg0=x)
    np.savez(tmp_path / "want.npz", out0=x * 2)
    argv = [str(program), "--target", "cpu", "--inputs", str(tmp_path / "in.npz")]
    with pytest.raises(SystemExit) as exit_:
        run_main([*argv, "--expected", str(tmp_path / "want.npz")])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "within 8 ulp of float16" in out, out


def test_cpu_cache_keeps_ml_dtypes_in_signatures() -> None:
    """The compilation cache stores each dtype by name: bf16's `.str` is
    `<V2`, which reads back as a plain void."""
    from xlir.targets.cpu import cache

    from xlir.signature import Signature, TensorSpec

    specs = tuple(
        TensorSpec(f"arg{i}", (2, 3), element, np.dtype(dtype))
        for i, (element, dtype) in enumerate(NARROW.items())
    )
    signature = Signature("main", specs, specs[:1])
    restored = cache._signature(cache._signature_json(signature))  # pyright: ignore[reportPrivateUsage]
    assert restored == signature


def test_api_argument_checks_for_narrow_types() -> None:
    """Raw bytes of the type (a void array, as np.load gives JAX's bf16) are
    taken as the type; values of another kind, or a narrow array for a wide
    type, are refused naming the argument."""
    executable = xlir.compile(_double("bf16"))
    x = _values(ml_dtypes.bfloat16)
    got = executable(to_void(x))
    np.testing.assert_array_equal(got, executable(x))
    with pytest.raises(ValueError, match="argument arg0: expected dtype bfloat16"):
        executable(np.ones((2, 3), np.int32))
    wide = xlir.compile(_double("f32"))
    with pytest.raises(ValueError, match="argument arg0: expected dtype float32"):
        wide(x)
    with pytest.raises(ValueError, match="argument arg0: expected dtype float32"):
        wide(np.ones((2, 3), np.float32).view("V4"))
