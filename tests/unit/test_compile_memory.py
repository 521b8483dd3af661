"""Compiling in a long-lived process (a server, a notebook, a fuzzer) must
not keep anything per compile: every live object a compile makes is freed
or sits in a bounded cache once the executable is dropped. Counted by
type over `gc.get_objects()`, which sees containers (lists, tuples, dicts
with objects in them, class instances): what leaks sits in one."""

from __future__ import annotations

import gc
from collections import Counter

import pytest

import xlir

PROGRAM = """
func.func @main(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %n = stablehlo.negate %t : tensor<3x4xf32>
  return %n : tensor<3x4xf32>
}
"""

COMPILES = 10


def _live_objects_by_type() -> Counter[type]:
    gc.collect()
    return Counter(type(o) for o in gc.get_objects())


def _compile(target: str, times: int) -> None:
    for _ in range(times):
        xlir.compile(PROGRAM, target=target)


def _growth(target: str) -> Counter[type]:
    """How many more live objects of each kind `COMPILES` compiles leave."""
    before = _live_objects_by_type()
    _compile(target, COMPILES)
    grown = _live_objects_by_type()
    grown.subtract(before)
    return grown


@pytest.mark.parametrize("target", ["interpreter", "cpu"])
def test_repeated_compiles_keep_no_objects(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rounds of ten compiles of the same program: no kind of object is
    more numerous by one per compile after both (a leak grows in every round;
    lazy imports, thread pools, ABC and lru caches fill up once). With the
    compile cache off each is a full compile."""
    monkeypatch.setenv("XLIR_CACHE", "0")
    _compile(target, 3)
    first, second = _growth(target), _growth(target)
    kept = {
        kind.__qualname__: (first[kind], second[kind])
        for kind in second
        if min(first[kind], second[kind]) >= COMPILES and kind is not Counter
    }
    assert not kept, f"live objects grew in each round of {COMPILES} compiles: {kept}"
