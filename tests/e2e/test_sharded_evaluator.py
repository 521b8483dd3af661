"""Every program of the sharded corpus gives JAX's per-rank outputs on the
evaluator's process grid (`run_grid`, one thread per device): the oracle
the distributed runs are checked against. Once as parsed, and once after
`hlo-opt` (fused and planned), so that the passes are held to keeping the
collectives' meaning too."""

from __future__ import annotations

from pathlib import Path

import pytest
from xlir.dialects.stablehlo.process_groups import module_grid
from xlir.evaluator.hlo.process_grid import run_grid

from tests.sharded_corpus import (
    PROGRAMS,
    SHARDED,
    assert_rank_matches,
    load_sharded,
)
from xlir.context import make_context
from xlir.diagnostics import verify_module
from xlir.parsing import XlirParser
from xlir.pass_manager import run_pipeline


@pytest.mark.parametrize("pipeline", [None, "hlo-opt"])
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_process_grid_gives_jax_outputs(path: Path, pipeline: str | None) -> None:
    text = path.read_text()
    sources = {path.name: text}
    module = XlirParser(make_context(), text, path.name).parse_module()
    verify_module(module, sources)
    if pipeline is not None:
        run_pipeline(make_context(), module, pipeline, sources)
    case = load_sharded(path)
    grid = module_grid(module)
    assert grid.size == case.num_devices
    outputs = run_grid(
        module, grid.num_replicas, grid.num_partitions, case.inputs, sources=sources
    )
    for rank, (got, want) in enumerate(zip(outputs, case.outputs, strict=True)):
        assert_rank_matches(rank, got, want)


def test_corpus_is_there() -> None:
    assert PROGRAMS, f"no programs in {SHARDED}"
