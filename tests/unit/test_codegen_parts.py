"""Parallel code generation (targets/cpu/codegen_parts.py): every function
definition lands in exactly one part, a symbol used across parts is
declared where it is used and exported where it lives, the module comes
back as it was, and programs compiled in parts compute bit for bit what
they compute compiled whole."""

from __future__ import annotations

import ctypes
import functools
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import xlir.targets.cpu.codegen_parts as codegen_parts
from xdsl.dialects import llvm
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.base import program_record
from xlir.targets.cpu import lower_to_llvm
from xlir.targets.cpu.codegen_parts import (
    PART_COST,
    SWITCH_INTERVAL,
    THREADS,
    codegen_threads,
    compile_parts,
    deal,
    part_modules,
)
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.registry import get_platform
from xlir.targets.target import CompileOptions

import xlir
from tests.corpus import SMALL, load_case
from xlir.context import make_context
from xlir.parsing import parse_module

# Two kernels (of different trip counts: `fuse-kernels` leaves them apart)
# read one global table; either may land in either part.
SHARED_GLOBAL = """
loop.global @table : memref<64xf32> = dense<2.0>
loop.kernel @scale(%x: memref<64xf32>, %y: memref<64xf32>) {
  %t = loop.get_global @table : memref<64xf32>
  loop.parallel (%i) = (0) to (64) step (1) {
    %a = loop.load %x[%i] : memref<64xf32>
    %b = loop.load %t[%i] : memref<64xf32>
    %m = arith.mulf %a, %b : f32
    loop.store %m, %y[%i] : memref<64xf32>
  }
  loop.return
}
loop.kernel @shift(%x: memref<64xf32>, %y: memref<32xf32>) {
  %t = loop.get_global @table : memref<64xf32>
  loop.parallel (%i) = (0) to (32) step (1) {
    %a = loop.load %x[%i] : memref<64xf32>
    %b = loop.load %t[%i] : memref<64xf32>
    %m = arith.addf %a, %b : f32
    loop.store %m, %y[%i] : memref<32xf32>
  }
  loop.return
}
func.func public @main(%x: memref<64xf32>) -> (memref<64xf32>, memref<32xf32>) {
  %stream = device.default_stream
  %y = device.alloc : memref<64xf32>
  %z = device.alloc : memref<32xf32>
  device.launch @scale(%x, %y) on %stream : memref<64xf32>, memref<64xf32>
  device.launch @shift(%x, %z) on %stream : memref<64xf32>, memref<32xf32>
  func.return %y, %z : memref<64xf32>, memref<32xf32>
}
"""


def _llvm_level(text: str):
    module = parse_module(make_context(), text, "test")
    record = program_record(module, "main", loop_level=True)
    lower_to_llvm(CpuTarget(), module, record, CompileOptions())
    return module


@functools.cache
def _corpus_llvm_level(name: str):
    """Lowered once per program for all its part counts: `deal` only reads
    the module."""
    module = parse_module(make_context(), (SMALL / f"{name}.mlir").read_text(), name)
    record = get_platform("cpu").compiler().optimize(module)
    lower_to_llvm(CpuTarget(), module, record, CompileOptions())
    return module


def _definitions(module) -> list[str]:
    return [
        op.sym_name.data
        for op in module.body.block.ops
        if isinstance(op, llvm.FuncOp) and op.body.blocks
    ]


def test_quick_gil_handover_while_translating(monkeypatch) -> None:
    """The parts are translated with `SWITCH_INTERVAL` (workers waiting for
    the GIL get it quickly), and the interval before comes back after."""
    seen: list[float] = []
    translate = codegen_parts.llvm_ir

    def recording(*args, **kwargs):
        seen.append(sys.getswitchinterval())
        return translate(*args, **kwargs)

    monkeypatch.setattr(codegen_parts, "llvm_ir", recording)
    before = sys.getswitchinterval()
    compile_parts(_llvm_level(SHARED_GLOBAL), threads=2)
    assert seen == pytest.approx([SWITCH_INTERVAL] * 3), "two kernels, one entry"
    assert sys.getswitchinterval() == before


@pytest.mark.parametrize("name", ["mlp_fwd", "while_loops", "compare_select"])
@pytest.mark.parametrize("count", [1, 2, 3, 8])
def test_every_definition_in_one_part(name: str, count: int) -> None:
    module = _corpus_llvm_level(name)
    parts = deal(module, count)
    dealt = [op.sym_name.data for part in parts for op in part.definitions]
    assert sorted(dealt) == sorted(_definitions(module))
    optimized = [part for part in parts if part.optimize]
    assert 1 <= len(optimized) <= count
    if len(optimized) > 1:
        assert min(part.cost for part in optimized) >= PART_COST
    assert len(parts) - len(optimized) == 1, "every program has an optnone entry"
    for part in parts:
        for op in part.definitions:
            assert ("optimize_none" in op.properties) != part.optimize


def test_unoptimized_definitions_generated_at_o0(monkeypatch) -> None:
    """The `optnone` definitions are one part, compiled without LLVM's
    pipeline through the -O0 code generator; the others are optimized."""
    compiled: list[tuple[str, bool]] = []
    compile_ = codegen_parts.host_object_code

    def recording(ir: str, optimize: bool = True) -> bytes:
        compiled.append((ir, optimize))
        return compile_(ir, optimize)

    monkeypatch.setattr(codegen_parts, "host_object_code", recording)
    compile_parts(_llvm_level(SHARED_GLOBAL), threads=1)
    defined = [
        (sorted(re.findall(r'^define .*@"([^"]+)"', ir, re.M)), optimize)
        for ir, optimize in compiled
    ]
    assert sorted(defined) == [(["main"], False), (["scale", "shift"], True)]


def test_shared_global_declared_and_exported() -> None:
    module = _llvm_level(SHARED_GLOBAL)
    before = str(module)
    parts = deal(module, 2)
    assert len(parts) == 3, "two loop kernels each cost more than PART_COST"
    with part_modules(module, parts) as modules:
        holders = []
        for dealt, (part, exported) in zip(parts, modules, strict=True):
            names = {op.sym_name.data: op for op in part.body.block.ops}
            if not dealt.optimize:
                assert "table" not in names, "the entry does not read the table"
                continue
            assert "table" in names, "every part using the table sees it"
            if names["table"].value is not None:
                holders.append(part)
                assert "table" in exported
            else:
                assert names["table"].linkage.linkage.data == "external"
        assert len(holders) == 1, "one part defines the table, the other declares it"
    assert str(module) == before, "the module is back as it was"


def test_shared_global_runs_in_parts() -> None:
    module = _llvm_level(SHARED_GLOBAL)
    ir, objects = compile_parts(module, threads=2)
    assert len(objects) == 3 and ir.count("; part ") == 3
    engine = LoadedObject(objects)
    x = np.arange(64, dtype=np.float32)
    y, z = np.empty_like(x), np.empty(32, dtype=np.float32)
    args = (ctypes.c_void_p * 1)(x.ctypes.data)
    results = (ctypes.c_void_p * 2)(y.ctypes.data, z.ctypes.data)
    arena = np.empty(64, dtype=np.uint8)
    entry = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    entry(engine.address("main"))(
        ctypes.addressof(args), ctypes.addressof(results), arena.ctypes.data
    )
    np.testing.assert_array_equal(y, x * 2)
    np.testing.assert_array_equal(z, x[:32] + 2)


@pytest.mark.parametrize("name", ["mlp_fwd", "while_loops", "compare_select"])
def test_parts_compute_what_the_whole_does(name: str, monkeypatch) -> None:
    monkeypatch.setenv("XLIR_CACHE", "0")
    text = (SMALL / f"{name}.mlir").read_text()
    arguments, _ = load_case(SMALL / f"{name}.mlir")
    monkeypatch.setenv(THREADS, "1")
    whole = xlir.compile(text, target="cpu")
    monkeypatch.setenv(THREADS, "3")
    split = xlir.compile(text, target="cpu")
    assert len(whole.objects) == 2 and len(split.objects) == 4  # and the entry
    for got, want in zip(
        _tuple(split(*arguments)), _tuple(whole(*arguments)), strict=True
    ):
        np.testing.assert_array_equal(got, want)


def _tuple(result):
    return result if isinstance(result, tuple) else (result,)


def test_thread_count_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv(THREADS, "3")
    assert codegen_threads() == 3
    monkeypatch.setenv(THREADS, "many")
    with pytest.raises(ValueError, match=f"{THREADS}: expected a number"):
        codegen_threads()
    monkeypatch.delenv(THREADS)
    assert codegen_threads() >= 1


FORKED = """
import os, signal, sys
os.environ["XLIR_CACHE"] = "0"
os.environ["XLIR_CODEGEN_THREADS"] = "3"
import xlir
text = open(sys.argv[1]).read()
xlir.compile(text, target="cpu")
child = os.fork()
if child == 0:
    signal.alarm(120)  # a hung child ends too
    executable = xlir.compile(text, target="cpu")
    os._exit(0 if len(executable.objects) == 4 else 1)
_, status = os.waitpid(child, 0)
print("ok" if os.waitstatus_to_exitcode(status) == 0 else "child failed")
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_compile_in_a_forked_child() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FORKED, str(SMALL / "mlp_fwd.mlir")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.stdout.strip() == "ok", result.stderr
