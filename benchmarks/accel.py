"""Programs on the simulated XA-1: simulated cycles (the manual's program
time, launch overheads included) and microseconds at its 1 GHz clock,
FLOPs executed, DRAM bytes moved, DMA and matrix-unit busy fractions, and
roofline utilization (and its geometric mean over the programs), for the
compiler's pipeline and for a naive one (no double buffering, no matrix
unit: matrix products on the vector lanes, the DMA and the compute taking
turns), to show what those two buy.

Roofline utilization is U = T_roof / sum of the launches' C (manual
section 6.6), with T_roof counted for the whole program from its StableHLO
ops (`tools/kernel_cost.py`'s FLOPs: matrix FLOPs of dot_general and
convolution at 512 per cycle, the rest at 32; the arguments' and results'
bytes at 32 per cycle): a program-level bound, so U is a lower bound on the
manual's per-kernel figure. A `while` body's work is counted once.

    python benchmarks/accel.py [--corpus bench|small] [--no-naive] [PROGRAM ...]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from statistics import geometric_mean

import numpy as np
from xlir.dialects.stablehlo.contraction import ConvolutionOp, DotGeneralOp, DotOp
from xlir.targets.accel.compiler import AccelExecutable
from xlir.targets.accel.device import LAUNCH_OVERHEAD
from xlir.targets.accel.encoding import encode_kernels
from xlir.targets.accel.profile import Profile
from xlir.targets.accel.runtime import AccelStreamExecutor
from xlir.targets.accel.target import naive_pipeline
from xlir.targets.registry import get_target
from xlir.tools.kernel_cost import op_flops

from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
MATRIX_OPS = (DotGeneralOp, DotOp, ConvolutionOp)


def roofline_cycles(text: str, arrays: list[np.ndarray], outputs: list) -> float:
    """T_roof of the program (module docstring)."""
    module = parse_module(make_context(), text, "program.mlir")
    matrix = vector = 0
    for op in module.walk():
        flops = op_flops(op) or 0
        if isinstance(op, MATRIX_OPS):
            matrix += flops
        else:
            vector += flops
    traffic = sum(a.nbytes for a in arrays) + sum(np.asarray(o).nbytes for o in outputs)
    return max(matrix / 512, vector / 32, traffic / 32)


def compile_accel(text: str, name: str, naive: bool) -> AccelExecutable:
    """The accel target's executable, by its pipeline or the naive one
    (module docstring)."""
    platform = get_target("accel").platform()
    compiler = platform.compiler()
    sources = {name: text}
    module = parse_module(make_context(), text, name)
    record = compiler.optimize(module, "main", sources)
    passes = platform.target.backend_pipeline(compiler.options)
    if naive:
        passes = naive_pipeline(passes)
    run_pipeline(make_context(), module, passes, sources, verify=False)
    image = encode_kernels(module)
    return AccelExecutable(platform, module, image, None, record, sources)


def inputs(executable: AccelExecutable) -> list[np.ndarray]:
    """Random arguments: small floats (iterated programs stay tame), small
    integers, booleans."""
    rng = np.random.default_rng(0)
    arrays = []
    for spec in executable.signature.arguments:
        if spec.dtype.kind == "f":
            arrays.append((0.05 * rng.standard_normal(spec.shape)).astype(spec.dtype))
        elif spec.dtype.kind == "b":
            arrays.append(rng.random(spec.shape) < 0.5)
        else:
            arrays.append(rng.integers(0, 8, spec.shape).astype(spec.dtype))
    return arrays


def run(
    text: str, name: str, naive: bool
) -> tuple[list[Profile], list[np.ndarray], list]:
    """The launches' profiles, the arguments and the outputs of one run."""
    executable = compile_accel(text, name, naive)
    arrays = inputs(executable)
    executor = executable.platform.executor(0)
    assert isinstance(executor, AccelStreamExecutor)
    program = executor.program(executable.image)
    before = len(program.profiles)
    outputs = executable(*arrays)
    outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
    return program.profiles[before:], arrays, outputs


def _same_bits(a: object, b: object) -> bool:
    """Whether two outputs are the same arrays, bit for bit (any NaN equal
    to any NaN): both pipelines compute each value in the same order."""
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype.kind == "f":
        x, y = (np.where(np.isnan(v), 0, v) for v in (x, y))
    return x.dtype == y.dtype and x.tobytes() == y.tobytes()


def report(path: Path, naive_pipeline: bool) -> float | None:
    """Print the program's row; its roofline utilization (None: not run)."""
    text = path.read_text()
    line = f"{path.stem:24}"
    try:
        start = time.perf_counter()
        profiles, arrays, outputs = run(text, str(path), naive=False)
        seconds = time.perf_counter() - start
    except Exception as error:  # a program the target cannot run yet
        print(f"{line} not run: {str(error).splitlines()[0][:100]}")
        return None
    naive: list[Profile] = []
    same = True
    if naive_pipeline:
        naive, _, naive_outputs = run(text, str(path), naive=True)
        same = all(map(_same_bits, outputs, naive_outputs))
    cycles = sum(LAUNCH_OVERHEAD + p.cycles for p in profiles)
    compute = sum(p.cycles for p in profiles) or 1
    naive_cycles = sum(LAUNCH_OVERHEAD + p.cycles for p in naive)
    speedup = f"{naive_cycles / cycles:5.2f}x" if naive else "  n/a"
    if not same:
        speedup += " (its outputs differ)"
    roof = roofline_cycles(text, arrays, outputs)
    flops = sum(p.flops for p in profiles)
    moved = sum(p.dram_bytes for p in profiles)
    dma = sum(p.dma_busy_cycles for p in profiles) / compute
    matrix = sum(p.matrix_busy_cycles for p in profiles) / compute
    print(
        f"{line} {cycles:>11,} cycles {cycles / 1000:>9.1f} us  "
        f"{flops:>12,} FLOP {moved:>11,} B  DMA {dma:6.1%}  MU {matrix:6.1%}  "
        f"U {roof / compute:6.1%}  naive {speedup}  "
        f"({len(profiles)} launches, {seconds:.1f} s)"
    )
    return roof / compute


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("bench", "small"), default="bench")
    parser.add_argument(
        "--no-naive",
        action="store_true",
        help="skip the naive pipeline (its matrix products on the vector lanes simulate for minutes)",
    )
    parser.add_argument("programs", nargs="*")
    args = parser.parse_args()
    paths = sorted(
        p
        for p in (CORPUS / args.corpus).glob("*.mlir")
        if ".export." not in p.name and (not args.programs or p.stem in args.programs)
    )
    utilizations = [u for path in paths if (u := report(path, not args.no_naive))]
    if utilizations:
        print(
            f"geometric mean U over {len(utilizations)} programs: "
            f"{geometric_mean(utilizations):.1%}"
        )


if __name__ == "__main__":
    main()
