"""The checks the prebuilt GEMM routine's e2e tests (test_gemm_routine.py,
test_conv_routine.py) run on a program: the routine's calls give the
inline kernel's bits, threaded or not, the bounds-checked code keeps the
inline kernel, and an object compiled ahead of time defines what it calls
and gives the JIT's bits; each with the compilation cache off.
`called` is a pattern that finds a call of the
routine (or the entry under test) in LLVM IR."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.aot import AotOptions
from xlir.targets.registry import get_platform
from xlir.targets.target import CompileOptions

import xlir
from tests.e2e.test_aot import link_and_run
from xlir.api import load_module


@contextmanager
def _cache_off() -> Iterator[None]:
    """Compiles that compile the routine's object afresh, not read it from
    the cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XLIR_CACHE", "0")
        yield


def _compile(
    program: str, options: CompileOptions | None = None, bounds_check: bool = False
) -> Callable:
    with _cache_off():
        return xlir.compile(
            program, target="cpu", options=options, bounds_check=bounds_check
        )


def tensor(shape: tuple[int, ...]) -> str:
    """The f32 tensor type of `shape`."""
    return f"tensor<{'x'.join(map(str, (*shape, 'f32')))}>"


def program(
    op: str,
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    out: tuple[int, ...],
    epilogue: bool,
) -> str:
    """`main(%a: lhs, %b: rhs) -> out` computing `%d = op(%a, %b)` (a line
    of StableHLO) and returning it, or with `epilogue` a bias (`%d`
    itself) and a relu after it."""
    body, result = f"%d = {op}\n", "%d"
    if epilogue:
        body += (
            f"  %z = stablehlo.constant dense<0.0> : {tensor(out)}\n"
            f"  %s = stablehlo.add %d, %d : {tensor(out)}\n"
            f"  %r = stablehlo.maximum %s, %z : {tensor(out)}\n"
        )
        result = "%r"
    return (
        f"func.func @main(%a: {tensor(lhs)}, %b: {tensor(rhs)}) -> {tensor(out)} {{\n"
        f"  {body}  return {result} : {tensor(out)}\n}}\n"
    )


def bits(array: object) -> np.ndarray:
    return np.asarray(array, np.float32).view(np.uint32)


def _llvm_ir(executable: object) -> str:
    return executable.llvm_ir  # pyright: ignore[reportAttributeAccessIssue]


def matches_inline_kernel(
    program: str, arguments: Sequence[np.ndarray], called: re.Pattern[str], calls: bool
) -> None:
    """The program calls the routine iff `calls`, and gives the bits of the
    inline kernel (`library_calls=False`), which does not call it."""
    with_calls = _compile(program)
    inline = _compile(program, options=CompileOptions(library_calls=False))
    assert bool(called.search(_llvm_ir(with_calls))) == calls
    assert not called.search(_llvm_ir(inline))
    np.testing.assert_array_equal(
        bits(with_calls(*arguments)), bits(inline(*arguments))
    )


def threads_do_not_change_the_bits(
    program: str, arguments: Sequence[np.ndarray]
) -> None:
    threaded = _compile(program, options=CompileOptions(threads=2))
    single = _compile(program, options=CompileOptions(threads=1))
    assert "xlir.parallel_for" in _llvm_ir(threaded)
    assert "xlir.parallel_for" not in _llvm_ir(single)
    np.testing.assert_array_equal(bits(threaded(*arguments)), bits(single(*arguments)))


def bounds_checked_code_keeps_the_inline_kernel(
    program: str, called: re.Pattern[str]
) -> None:
    """Every access of a bounds-checked program is checked: none is left to
    the routine."""
    checked = _compile(program, bounds_check=True)
    assert not called.search(_llvm_ir(checked))


def ahead_of_time_object(
    program: str,
    arguments: Sequence[np.ndarray],
    entry: str,
    tmp_path: Path,
    defines: Sequence[re.Pattern[str]],
) -> None:
    """An object compiled ahead of time defines (locally) a symbol matching
    each of `defines`, so it links with the C library alone, and computes
    the JIT's bits."""
    module, sources = load_module(program)
    with _cache_off():
        result = (
            get_platform("cpu")
            .compiler()
            .compile_ahead_of_time(module, AotOptions(entry=entry), "main", sources)
        )
    (tmp_path / "model.o").write_bytes(result.object_code)
    symbols = subprocess.run(
        ["nm", str(tmp_path / "model.o")], check=True, capture_output=True, text=True
    ).stdout
    local = {
        line.split()[-1] for line in symbols.splitlines() if line.split()[-2:][0] == "t"
    }
    for pattern in defines:
        assert any(pattern.fullmatch(name) for name in local), symbols
    jit = np.asarray(_compile(program)(*arguments))
    (got,) = link_and_run(result, None, tmp_path, arguments, (jit,))
    np.testing.assert_array_equal(bits(got), bits(jit))
