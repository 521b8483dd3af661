"""Cubins through NVIDIA's `ptxas`, where it is installed (pip's
`nvidia-cuda-nvcc-cu12`, the `test` extra, puts it in site-packages under
nvidia/cuda_nvcc/bin; one on PATH does too). It runs without a GPU: the
tests assemble every corpus kernel with it, and its `-v` report says each
kernel's registers, shared memory and spills."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from xlir.diagnostics import XlirError


def ptxas_path() -> Path | None:
    """The ptxas of the installed nvidia-cuda-nvcc package, else one on PATH."""
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(root) / "cuda_nvcc" / "bin" / "ptxas"
        if candidate.is_file():
            return candidate
    found = shutil.which("ptxas")
    return Path(found) if found else None


@dataclass(frozen=True)
class KernelResources:
    """What ptxas reports of one kernel."""

    name: str
    registers: int
    shared_bytes: int
    spill_stores: int
    spill_loads: int


_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_SHARED = re.compile(r"(\d+) bytes smem")


def parse_report(text: str) -> list[KernelResources]:
    """The kernels of a `ptxas -v` report, in its order."""
    found: list[KernelResources] = []
    name, spills, registers, shared = "", (0, 0), 0, 0
    for line in text.splitlines():
        if match := _ENTRY.search(line):
            if name:
                found.append(KernelResources(name, registers, shared, *spills))
            name, spills, registers, shared = match.group(1), (0, 0), 0, 0
        if match := _SPILLS.search(line):
            spills = (int(match.group(1)), int(match.group(2)))
        if match := _USED.search(line):
            registers = int(match.group(1))
            shared_match = _SHARED.search(line)
            shared = int(shared_match.group(1)) if shared_match else 0
    if name:
        found.append(KernelResources(name, registers, shared, *spills))
    return found


def assemble(ptx: str, sm: int) -> tuple[bytes, list[KernelResources]]:
    """A cubin of `ptx` for `sm_<sm>`, and ptxas's report of its kernels."""
    ptxas = ptxas_path()
    if ptxas is None:
        raise XlirError(
            "error: a cubin needs NVIDIA's ptxas, which is not installed; "
            "pip install nvidia-cuda-nvcc-cu12 (or write .ptx, which the driver "
            "compiles when it loads it)"
        )
    with tempfile.TemporaryDirectory() as folder:
        source, cubin = Path(folder) / "kernels.ptx", Path(folder) / "kernels.cubin"
        source.write_text(ptx)
        done = subprocess.run(
            [str(ptxas), f"-arch=sm_{sm}", "-v", "-o", str(cubin), str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise XlirError(
                f"error: ptxas rejected the PTX for sm_{sm}:\n{done.stderr.strip()}"
            )
        return cubin.read_bytes(), parse_report(done.stdout + done.stderr)
