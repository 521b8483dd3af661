"""Every kernel of the corpus (small and bench) as PTX that NVIDIA's ptxas
assembles for sm_80 (A100; what H100s and H200s also run) and sm_90
(H100), spilling no register: PTX a GPU's driver would take, checked
without a GPU. ptxas comes with the `test` extra (nvidia-cuda-nvcc-cu12);
without it the test is skipped, saying so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from xlir.targets.aot import AotOptions
from xlir.targets.nvptx.ptxas import assemble, ptxas_path
from xlir.targets.registry import get_target

from tests.conftest import CORPUS
from xlir.api import load_module

SMALL = sorted(p for p in (CORPUS / "small").glob("*.mlir") if ".export." not in p.name)
BENCH = sorted(p for p in (CORPUS / "bench").glob("*.mlir") if ".export." not in p.name)


def _check(path: Path) -> None:
    if ptxas_path() is None:
        pytest.skip("ptxas is not installed (pip install nvidia-cuda-nvcc-cu12)")
    module, sources = load_module(path)
    compiler = get_target("nvptx").platform().compiler()
    result = compiler.compile_ahead_of_time(
        module, AotOptions(output="model.ptx"), sources=sources
    )
    ptx = result.object_code.decode()
    manifest = json.loads(result.companions[".manifest.json"])
    kernels = [k["name"] for k in manifest["kernels"]]
    assert re.findall(r"\.visible \.entry (\w+)\(", ptx) == kernels
    for sm in (80, 90):
        cubin, report = assemble(ptx, sm)
        assert cubin
        assert sorted(k.name for k in report) == sorted(kernels)
        spilled = [k for k in report if k.spill_stores or k.spill_loads]
        assert not spilled, f"sm_{sm}: {spilled}"


@pytest.mark.parametrize("path", SMALL, ids=[p.name for p in SMALL])
def test_small_program_assembles(path: Path) -> None:
    _check(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", BENCH, ids=[p.name for p in BENCH])
def test_bench_program_assembles(path: Path) -> None:
    _check(path)
