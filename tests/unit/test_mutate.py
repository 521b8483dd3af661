"""The text mutator: seeded, and each operator changes the text the way it
says."""

from __future__ import annotations

from xlir.testing.mutate import Mutator, seed_texts, tokens

TEXT = """func.func @main(%a: tensor<4x8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def test_a_seed_gives_one_mutant() -> None:
    assert Mutator(5).mutate(TEXT) == Mutator(5).mutate(TEXT)
    mutants = {Mutator(seed).mutate(TEXT) for seed in range(50)}
    assert len(mutants) > 40 and TEXT not in mutants


def test_operators() -> None:
    m = Mutator(0)
    assert len(tokens(m.delete_token(TEXT))) == len(tokens(TEXT)) - 1
    assert m.truncate(TEXT) in TEXT
    shapes = {m.change_shape(TEXT) for _ in range(20)}
    assert any("tensor<8xf32>) -> tensor<8xf32>" not in s for s in shapes)
    assert any(m.change_list(TEXT) != TEXT for _ in range(10))
    assert any(m.change_number(TEXT) != TEXT for _ in range(10))


def test_seed_texts_split_lit_files(tmp_path) -> None:
    (tmp_path / "a.mlir").write_text("one\n// -----\ntwo\n")
    (tmp_path / "b.txt").write_text("not mlir")
    assert seed_texts([tmp_path]) == [("a.0", "one"), ("a.1", "two\n")]
