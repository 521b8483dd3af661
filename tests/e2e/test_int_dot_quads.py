"""int8 dots through the byte dot product path (`int-dot-quads`, `dot-quads`,
`arith.dot_quads` as `vpdpbusd`) give the integer dot bit for bit: shapes
whose rows, columns and k are not multiples of the register tile, the
-128/127 extremes, each signedness pair it takes, a transposed rhs, a sum
that wraps; and the same programs where the host has no such instruction
(the f32 path), so the fallback stays right too."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.cpu import vector_width

import xlir

PROGRAM = """
func.func @main(%a: tensor<{a}x{lhs}>, %b: tensor<{b}x{rhs}>) -> tensor<{m}x{n}xi32> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [{ca}] x [{cb}] : (tensor<{a}x{lhs}>, tensor<{b}x{rhs}>) -> tensor<{m}x{n}xi32>
  return %d : tensor<{m}x{n}xi32>
}}"""

DTYPES = {"i8": np.int8, "ui8": np.uint8}


def _program(m: int, k: int, n: int, lhs: str, rhs: str, transposed: bool) -> str:
    b = f"{n}x{k}" if transposed else f"{k}x{n}"
    return PROGRAM.format(
        a=f"{m}x{k}", b=b, lhs=lhs, rhs=rhs, m=m, n=n, ca=1, cb=1 if transposed else 0
    )


def _draw(rng: np.random.Generator, name: str, shape: tuple[int, int]) -> np.ndarray:
    info = np.iinfo(DTYPES[name])
    values = rng.integers(info.min, info.max, shape, endpoint=True)
    values[0, :] = info.min  # the extremes, in whole rows and columns
    values[:, -1] = info.max
    return values.astype(DTYPES[name])


@pytest.fixture(params=["host", "no-byte-dot"])
def byte_dot(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The host's byte dot product width, or none (the f32 fallback)."""
    if request.param == "no-byte-dot":
        monkeypatch.setattr(vector_width, "host_features", dict)
    return vector_width.byte_dot_bits(vector_width.host_features())


@pytest.mark.parametrize(
    ("m", "k", "n", "lhs", "rhs", "transposed"),
    [
        (4, 4, 16, "i8", "i8", False),  # one quad, one vector of columns
        (13, 36, 33, "i8", "i8", False),  # remainder rows and columns
        (29, 260, 70, "i8", "i8", True),  # A.B^T, k past one panel of 256
        (24, 64, 47, "ui8", "i8", False),  # unsigned lhs: no offset
        (17, 128, 40, "i8", "ui8", False),  # unsigned rhs: no offset
        (6, 2048, 16, "i8", "i8", False),  # past f32's exact limit
    ],
)
def test_dots_are_exact(
    byte_dot: int, m: int, k: int, n: int, lhs: str, rhs: str, transposed: bool
):
    rng = np.random.default_rng(m * k * n)
    a = _draw(rng, lhs, (m, k))
    b = _draw(rng, rhs, (n, k) if transposed else (k, n))
    executable = xlir.compile(_program(m, k, n, lhs, rhs, transposed), target="cpu")
    got = executable(a, b)
    b_kn = b.T if transposed else b
    exact = (a.astype(np.int64) @ b_kn.astype(np.int64)).astype(np.int32)
    np.testing.assert_array_equal(got, exact)


def test_sums_wrap_like_i32(byte_dot: int):
    """-128 * -128 over 2^17 terms is 2^31: the i32 result wraps to -2^31."""
    m, k, n = 4, 1 << 17, 16
    a = np.full((m, k), -128, np.int8)
    b = np.full((k, n), -128, np.int8)
    got = xlir.compile(_program(m, k, n, "i8", "i8", False), target="cpu")(a, b)
    np.testing.assert_array_equal(got, np.full((m, n), -(1 << 31), np.int32))


def test_pipeline_has_quads_only_with_the_instruction(byte_dot: int):
    """The cpu target runs `int-dot-quads` where the host has a byte dot
    product instruction, and never for another triple."""
    from xlir.targets.cpu.target import CpuTarget
    from xlir.targets.target import CompileOptions

    target = CpuTarget()
    names = [p.name for p in target.hlo_pipeline(CompileOptions())]
    assert ("int-dot-quads" in names) == (byte_dot > 0)
    aot = CompileOptions(triple="x86_64-unknown-linux-gnu")
    assert target.info(aot).byte_dot_bits == 0
    assert "int-dot-quads" not in [p.name for p in target.hlo_pipeline(aot)]


@pytest.mark.parametrize(
    ("triple", "features", "bits"),
    [
        (None, "-avx512vnni,-avxvnni", 0),
        ("x86_64-unknown-linux-gnu", "+avx512f,+avx512vl,+avx512vnni", 512),
        ("x86_64-unknown-linux-gnu", "+avx2,+avxvnni", 256),
        ("aarch64-unknown-linux-gnu", "+neon", 0),
    ],
)
def test_features_given_ahead_of_time_decide(
    triple: str | None, features: str, bits: int
):
    """`xlir-compile --features` turns the instruction off for the host or
    on for a triple: the code never names an instruction the machine lacks."""
    from xlir.targets.cpu.target import CpuTarget
    from xlir.targets.target import CompileOptions

    options = CompileOptions(triple=triple, features=features)
    assert CpuTarget().info(options).byte_dot_bits == bits


def test_host_object_without_vnni_compiles(tmp_path):
    """An object for this host with VNNI turned off compiles: the code names
    no vpdpbusd, which LLVM cannot select there (it aborted the process)."""
    from xlir.tools.compile import main

    source = tmp_path / "int8.mlir"
    source.write_text(_program(16, 64, 32, "i8", "i8", False))
    output = tmp_path / "int8.o"
    with pytest.raises(SystemExit) as exit_:
        main([str(source), "--features=-avx512vnni,-avxvnni", "-o", str(output)])
    assert exit_.value.code in (0, None)
    assert output.stat().st_size > 0
