"""The nvptx target without a GPU: its platform says why it has no device
(and never crashes), a compiled program says so when called, the
manifest describes the host schedule (control flow included), and ptxas's
report is read."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from xlir.targets.aot import AotOptions
from xlir.targets.nvptx import NvptxPlatform, cuda_driver, sm_number
from xlir.targets.nvptx.ptxas import KernelResources, parse_report
from xlir.targets.registry import ahead_of_time_target, get_target

import xlir
from tests.conftest import CORPUS
from xlir.api import load_module
from xlir.diagnostics import XlirError

NEGATE = """func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = stablehlo.negate %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
"""


@pytest.fixture
def no_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without the NVIDIA driver."""
    monkeypatch.setattr(cuda_driver, "LIBRARY", "libxlir-no-such-cuda.so.1")


def test_platform_without_driver_has_no_device(no_driver: None) -> None:
    platform = NvptxPlatform()
    assert platform.device_count() == 0
    assert platform.devices() == []
    why = platform.unavailable()
    assert why is not None and "libxlir-no-such-cuda.so.1 cannot be loaded" in why
    with pytest.raises(XlirError, match=r"has 0 device.*no NVIDIA driver"):
        platform.executor(0)


def test_call_without_device_says_why(no_driver: None, monkeypatch) -> None:
    target = get_target("nvptx")
    monkeypatch.setattr(target, "_platform", None)
    executable = xlir.compile(NEGATE, target="nvptx")
    assert ".visible .entry" in executable.as_text()
    assert executable.memory_stats().output_size_in_bytes == 32
    with pytest.raises(XlirError, match="target 'nvptx' has 0 device"):
        executable(np.zeros(8, np.float32))


def test_tools_default_to_the_host_target() -> None:
    """nvptx compiles ahead of time only when named: its output is a
    device's code."""
    assert ahead_of_time_target().name == "cpu"
    assert ahead_of_time_target("nvptx").name == "nvptx"


@pytest.mark.parametrize(("text", "sm"), [(None, 80), ("sm_90", 90), ("86", 86)])
def test_compute_capability(text: str | None, sm: int) -> None:
    assert sm_number(text) == sm


def test_compute_capability_diagnostic() -> None:
    with pytest.raises(XlirError, match="'ampere' is not a CUDA compute capability"):
        sm_number("ampere")


REPORT = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'fusion_1' for 'sm_80'
ptxas info    : Function properties for fusion_1
    0 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 12 registers, 16 bytes smem, 368 bytes cmem[0]
ptxas info    : Compiling entry function 'fusion_2' for 'sm_80'
ptxas info    : Function properties for fusion_2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 6 registers, 360 bytes cmem[0]
"""


def test_ptxas_report() -> None:
    assert parse_report(REPORT) == [
        KernelResources("fusion_1", 12, 16, 8, 4),
        KernelResources("fusion_2", 6, 0, 0, 0),
    ]


def _manifest(path) -> dict:
    compiler = get_target("nvptx").platform().compiler()
    module, sources = load_module(path)
    result = compiler.compile_ahead_of_time(
        module, AotOptions(output="w.ptx"), sources=sources
    )
    assert result.object_code.startswith(b"//")  # PTX text
    return json.loads(result.companions[".manifest.json"])


def test_manifest_of_while_loops() -> None:
    """The host's while loops, their condition a scalar the device wrote."""
    manifest = _manifest(CORPUS / "small" / "while_loops.mlir")
    assert manifest["format"] == "xlir-nvptx-manifest" and manifest["sm"] == 80
    assert manifest["image"] == "w.ptx"
    kernels = {k["name"]: k for k in manifest["kernels"]}
    assert [b["id"] for b in manifest["buffers"]] == list(
        range(len(manifest["buffers"]))
    )
    assert [i["buffer"] for i in manifest["inputs"]] == [0, 1]
    loops = [s for s in manifest["steps"] if s["op"] == "while"]
    assert len(loops) == 2
    for loop in loops:
        assert loop["test"]["dtype"] == "bool"
        assert loop["cond"] and loop["body"]
        for step in loop["cond"] + loop["body"]:
            if step["op"] == "launch":
                assert len(step["args"]) == len(kernels[step["kernel"]]["params"])
    constants = [b for b in manifest["buffers"] if "data" in b]
    assert [base64.b64decode(c["data"]) for c in constants] == [bytes(4)]  # int32 0
    assert manifest["outputs"][1] | {"buffer": 0} == {
        "name": "result1",
        "shape": [],
        "dtype": "int32",
        "buffer": 0,
        "offset": 0,
    }
