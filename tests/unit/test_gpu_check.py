"""scripts/gpu_check.py rehearsed without a GPU: `prepare` on three small
corpus programs (an elementwise one, a row reduction with shuffles, shared
memory and a barrier, and one with host while loops), then `run` over the
fake driver (gpucheck/fake_cuda.py), whose kernels are xlir's nvptx-emu
kernels of the same programs; a JIT error, a wrong output and a missing
driver each end the run non-zero with the reason in the report."""

from __future__ import annotations

import ctypes
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import CORPUS

SCRIPTS = Path(__file__).parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from gpucheck.compare import compare_output  # noqa: E402
from gpucheck.cuda import CudaError, Driver  # noqa: E402
from gpucheck.device_time import PTX  # noqa: E402
from gpucheck.fake_cuda import FakeCuda  # noqa: E402
from gpucheck.prepare import prepare  # noqa: E402
from gpucheck.run import run  # noqa: E402

PROGRAMS = ["fma_xyz", "softmax_rows", "while_loops"]

# One worker runs the module: the prepared programs is made once.
pytestmark = pytest.mark.xdist_group("gpu_check")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("gpu_check")
    assert prepare(CORPUS, folder, 80, PROGRAMS) == 0
    return folder


def _run(folder: Path, tmp_path: Path, only: list[str] | None = None):
    report = tmp_path / "report.json"
    status = run(
        folder,
        report,
        SCRIPTS / "gpu_check.py",
        repeats=1,
        warmup=0,
        with_xla=False,
        fake=True,
        only=only,
    )
    return status, json.loads(report.read_text())


def test_prepare_writes_the_programs(prepared: Path) -> None:
    index = json.loads((prepared / "index.json").read_text())
    assert [e["name"] for e in index["programs"]] == sorted(PROGRAMS)
    for entry in index["programs"]:
        folder = prepared / entry["dir"]
        manifest = json.loads((folder / "model.manifest.json").read_text())
        assert manifest["format"] == "xlir-nvptx-manifest"
        assert ".visible .entry" in (folder / "model.ptx").read_text()
        data = np.load(folder / "data.npz")
        corpus = np.load(CORPUS / "small" / f"{entry['name']}.npz")
        for key in corpus.files:
            np.testing.assert_array_equal(data[key], corpus[key])


def test_fake_run_passes_every_program(prepared: Path, tmp_path: Path) -> None:
    status, report = _run(prepared, tmp_path)
    assert status == 0, report["summary"]
    assert report["summary"]["failed"] == 0
    by_name = {p["name"]: p for p in report["programs"]}
    assert by_name["while_loops"]["images"][0]["while_iterations"] > 0
    index = json.loads((prepared / "index.json").read_text())
    for program, entry in zip(report["programs"], index["programs"], strict=True):
        images = [i["image"] for i in program["images"]]
        # the fake device is an sm_80: its cubin, where ptxas made them
        assert images == [
            "model.ptx",
            *([entry["cubins"]["80"]] if entry["cubins"] else []),
        ]
        assert program["xlir_ms"] > 0
        assert program["device_ms"] > 0 and program["device_warm_ms"] > 0
    assert by_name["fma_xyz"]["fraction_of_copy_device"] > 0
    assert report["copy_bandwidth"]["device_gb_per_s"] > 0


@pytest.mark.parametrize("sm", [80, 90])
def test_the_device_clocks_kernels_assemble(sm: int) -> None:
    """The hold and evict kernels are hand-written PTX: ptxas must take them."""
    from xlir.targets.nvptx.ptxas import assemble, ptxas_path

    if ptxas_path() is None:
        pytest.skip("ptxas is not installed (pip install nvidia-cuda-nvcc-cu12)")
    _, kernels = assemble(PTX.decode(), sm)
    assert sorted(k.name for k in kernels) == ["gpu_check_evict", "gpu_check_hold"]
    assert all(k.spill_stores == 0 for k in kernels)


def test_a_jit_error_is_recorded_and_the_run_goes_on(
    prepared: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "broken"
    shutil.copytree(prepared, folder)
    ptx = folder / "small" / "fma_xyz" / "model.ptx"
    ptx.write_text(ptx.read_text().replace(".version", "//"))
    status, report = _run(folder, tmp_path, ["fma_xyz", "softmax_rows"])
    assert status == 1
    by_name = {p["name"]: p for p in report["programs"]}
    error = by_name["fma_xyz"]["images"][0]["error"]
    assert "cuModuleLoadDataEx" in error and "JIT error log" in error
    assert "no .version" in error
    assert by_name["softmax_rows"]["ok"]
    assert report["summary"]["failed_names"] == ["small/fma_xyz"]


def test_a_wrong_output_fails_the_run(prepared: Path, tmp_path: Path) -> None:
    folder = tmp_path / "wrong"
    shutil.copytree(prepared, folder)
    data_path = folder / "small" / "softmax_rows" / "data.npz"
    arrays = dict(np.load(data_path))
    arrays["out0"] = arrays["out0"].copy()
    arrays["out0"][3, 5] += 1e-3
    np.savez_compressed(data_path, **arrays)
    status, report = _run(folder, tmp_path, ["softmax_rows"])
    assert status == 1
    output = report["programs"][0]["images"][0]["outputs"][0]
    assert not output["ok"] and output["mismatches"] == 1
    assert output["first"]["at"] == 3 * 128 + 5


def _has_driver() -> bool:
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


@pytest.mark.skipif(_has_driver(), reason="this machine has a CUDA driver")
def test_run_without_a_driver_says_so(
    prepared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = run(prepared, tmp_path / "report.json", SCRIPTS / "gpu_check.py")
    assert status == 2
    assert "libcuda.so.1 cannot be loaded" in capsys.readouterr().err


def test_the_fake_driver_refuses_a_copy_outside_memory() -> None:
    fake = FakeCuda(kernels=lambda name: (_ for _ in ()).throw(KeyError(name)))
    driver = Driver(fake.library())
    pointer = driver.allocate(16)
    with pytest.raises(CudaError, match=r"CUDA_ERROR_ILLEGAL_ADDRESS.*outside every"):
        driver.to_device(pointer + 8, np.zeros(4, np.float32))
    driver.free(pointer)


def test_compare_within_the_reduction_tolerance() -> None:
    want = np.array([100.0, 1e-3, 0.0], np.float32)
    close = want + np.array([1e-4, 0, 0], np.float32)
    assert compare_output(close, want, 1e-5, 1e-6, exact=False)["ok"]
    far = want + np.array([0, 0, 1e-3], np.float32)
    assert not compare_output(far, want, 1e-5, 1e-6, exact=False)["ok"]
    sample = compare_output(
        np.arange(10, dtype=np.int32),
        np.array([0, 9], np.int32),
        0,
        0,
        False,
        positions=np.array([0, 9]),
    )
    assert sample["ok"] and sample["exact"]


def test_a_failed_launch_resets_the_context_and_the_run_goes_on(
    prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gpucheck.run

    made = []
    compiled = gpucheck.run.emulated_kernels

    class Failing:
        def __init__(self, kernel):
            self.params = kernel.params

        def run_raw(self, *_):
            raise RuntimeError("an illegal address, say")

    def kernels(folder, entry):
        found = compiled(folder, entry)
        if entry["name"] == "fma_xyz":
            return lambda name: Failing(found(name))
        return found

    def fake_driver():
        driver, fake = original()
        made.append(fake)
        return driver, fake

    original = gpucheck.run.fake_driver
    monkeypatch.setattr(gpucheck.run, "emulated_kernels", kernels)
    monkeypatch.setattr(gpucheck.run, "fake_driver", fake_driver)
    status, report = _run(prepared, tmp_path, ["fma_xyz", "softmax_rows"])
    assert status == 1
    failed, passed = report["programs"]
    assert failed["images"][0]["context_reset"]
    assert "CUDA_ERROR_LAUNCH_FAILED" in failed["images"][0]["error"]
    assert "an illegal address, say" in failed["images"][0]["error"]
    assert passed["ok"]
    assert made[0].resets == len(failed["images"])


def test_xla_runs_the_stablehlo_text() -> None:
    pytest.importorskip("jax")
    from gpucheck.xla import run_text

    data = np.load(CORPUS / "small" / "reductions.npz")
    arguments = [data["arg0"]]
    wants = [data[f"out{i}"] for i in range(5)]
    got = run_text(
        (CORPUS / "small" / "reductions.mlir").read_text(),
        arguments,
        [(w.shape, str(w.dtype)) for w in wants],
    )
    for have, want in zip(got, wants, strict=True):
        np.testing.assert_array_equal(have, want)


def test_the_run_times_xla_beside_xlir(prepared: Path, tmp_path: Path) -> None:
    pytest.importorskip("jax")
    report = tmp_path / "report.json"
    status = run(
        prepared,
        report,
        SCRIPTS / "gpu_check.py",
        repeats=2,
        warmup=1,
        fake=True,
        only=["fma_xyz"],
    )
    found = json.loads(report.read_text())
    assert status == 0 and found["xla"]["ok"], found["xla"]
    (program,) = found["programs"]
    assert program["xla_wall_ms"] > 0 and program["xlir_over_xla"] > 0
    assert all(o["ok"] for o in program["xla_vs_expected"])
    assert all(o["ok"] for o in program["xlir_vs_xla"])


def test_prepare_scales_the_elementwise_bench_programs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An elementwise bench program also goes as scaled/NAME_xS: exported
    afresh by JAX at S times its size, its expected outputs JAX's, and it
    runs (and passes) as any other program."""
    pytest.importorskip("jax")
    from gpucheck import prepare as preparing

    monkeypatch.setattr(preparing, "SCALE", 2)
    assert prepare(CORPUS, tmp_path, 80, ["fma_xyz_1m"]) == 0
    index = json.loads((tmp_path / "index.json").read_text())
    bench, scaled = index["programs"]
    assert (bench["dir"], scaled["dir"]) == ("bench/fma_xyz_1m", "scaled/fma_xyz_1m_x2")
    assert scaled["elementwise"]
    assert [i["shape"] for i in scaled["inputs"]] == [[1 << 21]] * 3
    assert (
        "tensor<2097152xf32>" in (tmp_path / scaled["dir"] / "program.mlir").read_text()
    )
    status, report = _run(tmp_path, tmp_path, only=["fma_xyz_1m_x2"])
    assert status == 0, report["summary"]
    assert (
        "fma_xyz_1m_x2"
        in report["summary"]["scaled_elementwise_fraction_of_copy_device"]
    )
