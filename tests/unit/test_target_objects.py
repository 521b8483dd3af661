"""The target objects: the registry reads entry points without importing a
target, and each target's pipelines are pass objects sized by its
`TargetInfo` and the compile's `CompileOptions`."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from importlib.metadata import EntryPoint

import numpy as np
import pytest
from xlir.lowering.llvm.passes import LoopToLLVMPass
from xlir.passes.loop.parallelize import ParallelizePass
from xlir.passes.loop.register_tile import RegisterTilePass
from xlir.passes.loop.vectorize import VectorizePass
from xlir.targets import registry
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.target import CompileOptions

import xlir
from tests.conftest import CORPUS, runnable_targets
from xlir.diagnostics import XlirError
from xlir.pass_manager import passes_of, pipeline_text


def test_importing_the_registry_imports_no_target() -> None:
    script = (
        "import sys, xlir.targets.registry as r; names = r.target_names(); "
        "loaded = [m for m in sys.modules if m.startswith(('xlir.targets.cpu', "
        "'xlir.targets.interpreter', 'xlir.targets.loop_interpreter'))]; "
        "print(names, loaded)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("[]"), done.stdout
    assert "'cpu'" in done.stdout and "'interpreter'" in done.stdout


def test_unknown_target_names_the_known_ones() -> None:
    with pytest.raises(XlirError, match=r"unknown target 'gpu' \(known targets: .*cpu"):
        registry.get_target("gpu")


def test_entry_point_that_is_no_target(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = EntryPoint("bad", "builtins:dict", registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: {"bad": bad})
    with pytest.raises(XlirError, match=r"entry point 'bad' .*expected a Target"):
        registry.get_target("bad")


def test_one_registered_target_is_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The interpreter is the reference; with none (or two) registered as
    such, the look-up is a diagnostic, not a guessed name."""
    assert registry.reference_target() == "interpreter"
    assert [n for n in registry.target_names() if n != "interpreter"]
    points = registry._entry_points()
    others = {n: p for n, p in points.items() if n != "interpreter"}
    monkeypatch.setattr(registry, "_entry_points", lambda: others)
    with pytest.raises(XlirError, match=r"must be the reference .*found none"):
        registry.reference_target()


def _loop_passes(**options: object) -> list:
    return CpuTarget().loop_pipeline(CompileOptions(**options))  # type: ignore[arg-type]


def _one(passes: list, kind: type):
    (found,) = [p for p in passes if isinstance(p, kind)]
    return found


def test_options_set_the_passes() -> None:
    plain = _loop_passes()
    assert not _one(plain, VectorizePass).reassociate
    assert not _one(plain, LoopToLLVMPass).bounds_check
    assert _one(plain, ParallelizePass).threads == 0
    assert _one(_loop_passes(fast_math=True), VectorizePass).reassociate
    assert _one(_loop_passes(bounds_check=True), LoopToLLVMPass).bounds_check
    assert _one(_loop_passes(threads=3), ParallelizePass).threads == 3
    assert not [p for p in _loop_passes(threads=1) if isinstance(p, ParallelizePass)]


def test_host_sizes_are_measured_and_triples_are_given() -> None:
    host = _one(_loop_passes(), RegisterTilePass)
    assert host.vector_bits in (128, 256, 512)
    riscv = _loop_passes(triple="riscv64-unknown-linux-gnu")
    tile = _one(riscv, RegisterTilePass)
    assert (tile.mr, tile.nr, tile.vector_bits) == (4, 4, 32)
    assert _one(riscv, VectorizePass).vector_bits == 32
    arm = _one(_loop_passes(triple="aarch64-linux-gnu"), RegisterTilePass)
    assert (arm.vector_bits, arm.vector_registers) == (128, 32)
    unknown = _one(_loop_passes(triple="mips64-linux-gnu"), RegisterTilePass)
    assert (unknown.vector_bits, unknown.vector_registers) == (128, 16)


def test_pipeline_text_reads_back() -> None:
    """The spec text of a pipeline of objects gives the same objects."""
    options = CompileOptions(fast_math=True, threads=2)
    target = CpuTarget()
    for passes in (target.hlo_pipeline(options), target.backend_pipeline(options)):
        assert passes_of(pipeline_text(passes)) == passes
    assert "vectorize{reassociate=true vector-bits=" in pipeline_text(
        target.loop_pipeline(options)
    )


def test_environment_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XLIR_FAST_MATH", raising=False)
    monkeypatch.delenv("XLIR_CPU_BOUNDS_CHECK", raising=False)
    monkeypatch.delenv("XLIR_SORT_ROUTINES", raising=False)
    assert CompileOptions().with_environment() == CompileOptions()
    monkeypatch.setenv("XLIR_FAST_MATH", "1")
    monkeypatch.setenv("XLIR_CPU_BOUNDS_CHECK", "1")
    monkeypatch.setenv("XLIR_SORT_ROUTINES", "0")
    assert CompileOptions().with_environment() == CompileOptions(
        fast_math=True, bounds_check=True, sort_routines=False
    )


def test_loop_level_record_is_read_once_for_every_target() -> None:
    """A module that comes in at the loop level: its figures are read off
    its host function, the same for every target."""
    done = subprocess.run(
        [
            "xlir-opt",
            str(CORPUS / "small" / "mlp_fwd.mlir"),
            "-p",
            "hlo-opt,hlo-to-loop",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = {}
    for target in registry.target_names():
        stats = xlir.compile(done.stdout, target=target).memory_stats()
        figures[target] = dataclasses.replace(
            stats, generated_code_size_in_bytes=0, scratchpad_size_in_bytes=0
        )
    first = next(iter(figures.values()))
    assert first.temp_size_in_bytes > 0 and first.argument_size_in_bytes > 0
    assert all(f == first for f in figures.values()), figures


def test_no_entry_points_says_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_entry_points", dict)
    with pytest.raises(XlirError, match=r"no target is registered .*pip install -e"):
        registry.get_target("xa-1")


def test_pipeline_that_lowers_to_the_loop_level() -> None:
    """The record reads the level after the HLO pipeline: one ending in
    `hlo-to-loop` leaves a loop-level module, which every target goes on
    from."""
    source = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.exponential %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""
    x = np.arange(4, dtype=np.float32)
    for target in runnable_targets():
        lowered = xlir.compile(source, target=target, pipeline="hlo-opt,hlo-to-loop")
        np.testing.assert_allclose(lowered(x), np.exp(x), rtol=1e-6, err_msg=target)
