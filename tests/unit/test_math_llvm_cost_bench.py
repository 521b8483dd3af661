"""benchmarks/math_llvm_cost.py: the module with each kind of expansion
replaced by one cheap op, `EXPANSIONS` restored after; a row per program
whose module holds an expansion, none for one that holds none."""

from __future__ import annotations

from pathlib import Path

import pytest
from xlir.passes.loop.expand_math import EXPANSIONS

from tests.e2e.jax_corpus_check import script

bench = script("benchmarks/math_llvm_cost.py")

# exp of a scalar loop LLVM vectorizes: an expansion on scalars only.
EXP = """func.func @main(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = stablehlo.exponential %a : tensor<1024xf32>
  return %e : tensor<1024xf32>
}
"""

ADD = """func.func @main(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = stablehlo.add %a, %a : tensor<1024xf32>
  return %e : tensor<1024xf32>
}
"""


def test_variants_replace_the_scalar_expansions_and_restore_them() -> None:
    saved = dict(EXPANSIONS)
    as_is, scalar, vector, every = bench.module_irs(EXP)
    assert saved == EXPANSIONS
    assert scalar == every != as_is
    assert vector == as_is
    assert "0x4168000000000000" in as_is  # the shifter of exp's reduction
    assert "0x4168000000000000" not in scalar
    assert "llvm.fabs" in scalar


def test_cheap_restores_on_error() -> None:
    saved = dict(EXPANSIONS)
    with pytest.raises(RuntimeError), bench.cheap("all"):
        assert saved != EXPANSIONS
        raise RuntimeError
    assert saved == EXPANSIONS


def test_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "exp.mlir").write_text(EXP)
    (tmp_path / "add.mlir").write_text(ADD)
    bench.main(
        ["--repeat", "1", str(tmp_path / "exp.mlir"), str(tmp_path / "add.mlir")]
    )
    lines = capsys.readouterr().out.splitlines()
    assert any(str(tmp_path / "exp.mlir") in line for line in lines)
    assert not any("add.mlir" in line for line in lines)
    assert lines[-1].split()[0] == "total"
