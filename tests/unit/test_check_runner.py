"""Self-checking files on every registered target (tools/check_runner.py):
a target that runs check ops runs the tests as written, any other compiles
each through `check-to-outputs` and has the evaluator check its results,
narrow types included. Either way a wrong value fails its test."""

from __future__ import annotations

import pytest
from xlir.targets.registry import target_names
from xlir.tools.check_runner import check_source

from tests.conftest import computes_types_of, skip_without_device

TESTS = """
func.func @sums_right() {
  %a = stablehlo.constant dense<[1.5, 2.0]> : tensor<2xbf16>
  %s = stablehlo.add %a, %a : tensor<2xbf16>
  check.expect_eq_const %s, dense<[3.0, 4.0]> : tensor<2xbf16>
  func.return
}

func.func @sums_wrong() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %s, dense<[2, 5]> : tensor<2xi32>
  func.return
}
"""


@pytest.mark.parametrize("target", target_names())
def test_checks_pass_and_fail_on_every_target(target: str) -> None:
    skip_without_device(target)
    results = {
        r.function: r for r in check_source(TESTS, "t.mlir", False, None, target)
    }
    if computes_types_of(target, "tensor<2xbf16>"):  # else refused, not wrong
        assert results["sums_right"].passed, results["sums_right"].problems
    assert not results["sums_wrong"].passed
    assert "[2 5]" in "\n".join(results["sums_wrong"].problems)
