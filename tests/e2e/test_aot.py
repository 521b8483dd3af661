"""Ahead-of-time compiled corpus programs, linked into the plain C program of
examples/aot/ with the system's C compiler and run: outputs equal JAX's
within the corpus tolerances, for this host and, through Debian's cross
compilers and qemu-user, for aarch64 and riscv64. Each object needs nothing
but libc and libm (and pthread) at link time.

The cross compilers and qemu come from `scripts/install-cross-tools.sh`
(which `.ci/run` runs); without them the cross cases skip and say so.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
import shutil
import subprocess
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.aot import AotOptions, AotResult
from xlir.targets.registry import get_platform

import xlir
from tests.conftest import CORPUS
from tests.corpus import PROGRAMS, assert_matches, load_case, program_name
from tests.e2e.test_sort_routine import assert_same_bits, keys, sort_program
from tests.e2e.test_top_k_routine import elements, top_k
from xlir.api import load_module

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "aot" / "main.c"
LOWERED = [p for p in PROGRAMS if ".export." not in p.name]
CROSS_PROGRAMS = [
    "mlp_fwd",
    "softmax_rows",
    "conv2d_nhwc",
    "while_loops",
    "train_step_mlp",
]
CROSS = ["x86_64-linux-gnu", "aarch64-linux-gnu", "riscv64-linux-gnu"]
"""Triples run from a generic CPU (x86_64 natively, the others under qemu)."""


@pytest.fixture(autouse=True)
def no_cache(monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")


@cache
def compile_ahead(name: str, triple: str | None) -> AotResult:
    """Each program is compiled once per triple: the tests that run it and
    those that read its symbols share the object."""
    path = CORPUS / "small" / f"{name}.mlir"
    module, sources = load_module(path)
    options = AotOptions(triple=triple, entry=f"model_{name}")
    return (
        get_platform("cpu")
        .compiler()
        .compile_ahead_of_time(module, options, "main", sources)
    )


def toolchain(triple: str | None) -> tuple[str, list[str]]:
    """The C compiler and the command prefix that runs its programs."""
    if triple is None or triple.split("-")[0] == platform.machine():
        return "cc", []
    arch = triple.split("-")[0]
    cc, qemu = f"{arch}-linux-gnu-gcc", f"qemu-{arch}"
    missing = [tool for tool in (cc, qemu) if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed (Debian packages "
            f"gcc-{arch}-linux-gnu and qemu-user; scripts/install-cross-tools.sh)"
        )
    return cc, [qemu, "-L", f"/usr/{arch}-linux-gnu"]


def build_and_run(result: AotResult, triple: str | None, folder: Path, name: str):
    """Links examples/aot/main.c with the object, runs it on the corpus
    inputs, and returns the outputs it wrote."""
    arguments, expected = load_case(CORPUS / "small" / f"{name}.mlir")
    return link_and_run(result, triple, folder, arguments, expected), expected


def link_and_run(
    result: AotResult,
    triple: str | None,
    folder: Path,
    arguments: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
) -> tuple[np.ndarray, ...]:
    """Links examples/aot/main.c with the object, runs it on `arguments`,
    and returns the outputs it wrote (shaped and typed as `expected`)."""
    cc, runner = toolchain(triple)
    (folder / "model.o").write_bytes(result.object_code)
    (folder / "model.h").write_text(result.header)
    subprocess.run(
        [
            cc,
            "-O2",
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            f"-DXLIR_ENTRY={result.entry}",
            f"-DXLIR_PREFIX={result.entry.upper()}",
            '-DXLIR_HEADER="model.h"',
            f"-I{folder}",
            str(EXAMPLE),
            str(folder / "model.o"),
            "-lm",
            "-lpthread",
            "-o",
            str(folder / "main"),
        ],
        check=True,
        capture_output=True,
    )
    (folder / "inputs.bin").write_bytes(
        b"".join(np.ascontiguousarray(a).tobytes() for a in arguments)
    )
    subprocess.run(
        [*runner, str(folder / "main"), "inputs.bin", "outputs.bin"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=300,
    )
    raw = (folder / "outputs.bin").read_bytes()
    outputs, offset = [], 0
    for want in expected:
        outputs.append(
            np.frombuffer(raw, want.dtype, want.size, offset).reshape(want.shape)
        )
        offset += want.nbytes
    assert offset == len(raw)
    return tuple(outputs)


@pytest.mark.parametrize("path", LOWERED, ids=[program_name(p) for p in LOWERED])
def test_host_object_runs_as_c_program(path: Path, tmp_path: Path) -> None:
    name = program_name(path)
    result = compile_ahead(name, None)
    got, expected = build_and_run(result, None, tmp_path, name)
    assert_matches(name, got, expected)


@pytest.mark.parametrize("triple", CROSS)
@pytest.mark.parametrize("name", CROSS_PROGRAMS)
def test_cross_object_runs_under_qemu(name: str, triple: str, tmp_path: Path) -> None:
    toolchain(triple)  # skip before compiling when the tools are missing
    result = compile_ahead(name, triple)
    assert result.triple == triple
    got, expected = build_and_run(result, triple, tmp_path, name)
    assert_matches(name, got, expected)


def _libc_and_libm() -> list[ctypes.CDLL]:
    names = [ctypes.util.find_library(n) for n in ("c", "m", "pthread")]
    return [ctypes.CDLL(n) for n in names if n]


def undefined_symbols(code: bytes, folder: Path) -> list[str]:
    (folder / "model.o").write_bytes(code)
    listing = subprocess.run(
        ["nm", "-u", str(folder / "model.o")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [line.split()[-1] for line in listing.splitlines() if line.strip()]


@pytest.mark.parametrize("triple", [None, *CROSS])
@pytest.mark.parametrize("name", ["train_step_mlp", "gelu", "int_ops", "reductions"])
def test_objects_need_only_libc_libm_pthread(
    name: str, triple: str | None, tmp_path: Path
) -> None:
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) not installed")
    symbols = undefined_symbols(compile_ahead(name, triple).object_code, tmp_path)
    libraries = _libc_and_libm()
    foreign = [s for s in symbols if not any(hasattr(lib, s) for lib in libraries)]
    assert not foreign, f"undefined symbols outside libc/libm/pthread: {foreign}"


def assert_runs_as_jit(
    text: str, arrays: tuple[np.ndarray, ...], triple: str | None, folder: Path
) -> None:
    """`text`'s object for `triple` defines the routines it calls (no
    undefined `xlir` symbol), links with the C library alone, and computes
    the JIT's bits."""
    expected = xlir.compile(text, target="cpu")(*arrays)
    module, sources = load_module(text)
    result = (
        get_platform("cpu")
        .compiler()
        .compile_ahead_of_time(module, AotOptions(triple=triple), "main", sources)
    )
    if shutil.which("nm") is not None:
        symbols = undefined_symbols(result.object_code, folder)
        assert not [s for s in symbols if "xlir" in s], symbols
    got = link_and_run(result, triple, folder, arrays, expected)
    assert_same_bits(got, expected)


@pytest.mark.parametrize("triple", [None, "aarch64-linux-gnu"])
def test_sort_object_runs_as_c_program(triple: str | None, tmp_path: Path) -> None:
    """A sort calls the sort routine, which the object defines (internal):
    it links with the C library alone and sorts as the JIT does, bit for
    bit (NaNs, zeros of both signs, ties; rows for insertion and radix)."""
    rng = np.random.default_rng(0)
    for shape in ((3, 40), (2, 300)):
        text = sort_program(shape, 1, "f32", "jax", "GT")
        x = keys("f32", shape, rng)
        y = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
        assert_runs_as_jit(text, (x, y), triple, tmp_path)


@pytest.mark.parametrize("triple", [None, "aarch64-linux-gnu"])
def test_top_k_object_runs_as_c_program(triple: str | None, tmp_path: Path) -> None:
    """A top_k calls the top_k routine, which the object defines
    (internal): it links with the C library alone and selects as the JIT
    does, bit for bit (NaNs, zeros of both signs, ties; rows of blocks)."""
    rng = np.random.default_rng(0)
    for shape, element in (((3, 40), "f32"), ((2, 300), "i16")):
        x = elements(element, shape, rng)
        assert_runs_as_jit(top_k(shape, element, 5), (x,), triple, tmp_path)


def test_object_exports_only_its_entry(tmp_path: Path) -> None:
    result = compile_ahead("mlp_fwd", None)
    (tmp_path / "model.o").write_bytes(result.object_code)
    listing = subprocess.run(
        ["nm", "-g", "--defined-only", str(tmp_path / "model.o")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert [line.split()[-1] for line in listing.splitlines()] == ["model_mlp_fwd"]
