"""Every program of the sharded corpus gives JAX's per-rank outputs on the
evaluator's process grid (`run_grid`, one thread per device): the oracle
the distributed runs are checked against."""

from __future__ import annotations

from pathlib import Path

import pytest
from xlir.evaluator.hlo.process_grid import run_grid

from tests.sharded_corpus import (
    PROGRAMS,
    SHARDED,
    assert_rank_matches,
    load_sharded,
    module_grid,
)
from xlir.context import make_context
from xlir.diagnostics import verify_module
from xlir.parsing import XlirParser


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_process_grid_gives_jax_outputs(path: Path) -> None:
    text = path.read_text()
    module = XlirParser(make_context(), text, path.name).parse_module()
    verify_module(module, {path.name: text})
    case = load_sharded(path)
    num_replicas, num_partitions = module_grid(module)
    assert num_replicas * num_partitions == case.num_devices
    outputs = run_grid(
        module, num_replicas, num_partitions, case.inputs, sources={path.name: text}
    )
    for rank, (got, want) in enumerate(zip(outputs, case.outputs, strict=True)):
        assert_rank_matches(rank, got, want)


def test_corpus_is_there() -> None:
    assert PROGRAMS, f"no programs in {SHARDED}"
