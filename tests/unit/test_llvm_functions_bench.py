"""benchmarks/llvm_functions.py: a row per function definition of the
program's cpu module, each from a module of its own that LLVM compiles,
its IR dumped where asked; a name no program has is a usage error."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import pytest

from tests.e2e.jax_corpus_check import script

bench = script("benchmarks/llvm_functions.py")

DOT = """func.func @main(%a: tensor<64x96xf32>, %b: tensor<96x128xf32>) -> tensor<64x128xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x96xf32>, tensor<96x128xf32>) -> tensor<64x128xf32>
  return %c : tensor<64x128xf32>
}
"""


def test_each_definition_is_a_module_of_its_own() -> None:
    module = bench.llvm_module(DOT)
    rows = bench.function_rows(module)
    names = [name for name, *_ in rows]
    assert "main" in names and len(names) == len(set(names)) > 1
    for name, ir, cost, blocks, ops in rows:
        parsed = llvm.parse_assembly(ir)
        defined = [f.name for f in parsed.functions if not f.is_declaration]
        assert defined == [name]
        assert cost > 0 and blocks >= 1 and ops >= 1
    # the parts' ops went back: the whole module still holds every definition
    assert bench.ir_lines(bench.llvm_ir(module)) == sum(
        bench.ir_lines(ir) for _, ir, *_ in rows
    )


def test_table_and_dump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "dot.mlir"
    program.write_text(DOT)
    bench.main([str(program), "--repeat", "1", "--dump", str(tmp_path / "ir")])
    out = capsys.readouterr().out
    assert "main" in out and "whole module" in out
    dumped = sorted(p.name for p in (tmp_path / "ir").iterdir())
    assert "dot.main.ll" in dumped and len(dumped) > 1


def test_unknown_program_is_a_usage_error() -> None:
    with pytest.raises(SystemExit, match="no program 'no_such_program'"):
        bench.main(["no_such_program"])
