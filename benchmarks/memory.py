"""Temp memory of xlir's buffer plan against XLA's, on the bench corpus.

    python benchmarks/memory.py [--alignment N] [--buffers] [NAME ...]

For each bench program: the `hlo-opt` pipeline (inline, decompose, simplify,
subpixel-conv, fold-constants, cse, dce, combine-all-reduces, fuse,
assign-buffers), then xlir's fusion count and
temp bytes beside XLA:CPU's (`xla_cpu_baselines.json`), and the temp bytes of
a naive plan with one buffer per op. The first line names any pipeline pass
that is not written yet: the table is then of the passes that exist.
Goal: xlir temp bytes <= XLA's on every program; `--buffers` lists the temp
buffers of the programs that miss it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.hlo_buffers import TEMP
from xlir.passes.hlo.buffers.report import BufferStats, buffer_stats

from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import PASSES, PIPELINES, PassManager
from xlir.registry import PluginError

BENCH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "bench"


def available_passes() -> tuple[list[str], list[str]]:
    """The `hlo-opt` passes that can be loaded, and those that cannot yet."""
    present, missing = [], []
    for name in PIPELINES["hlo-opt"]:
        try:
            PASSES[name]
        except PluginError:
            missing.append(name)
        else:
            present.append(name)
    return present, missing


def count_fusions(module: ModuleOp) -> int:
    return sum(op.name == "hlo.fusion" for op in module.walk())


def plan(path: Path, spec: str) -> tuple[int, BufferStats]:
    ctx = make_context()
    module = parse_module(ctx, path.read_text(), path.name)
    PassManager(spec, verify_each=False).run(ctx, module)
    return count_fusions(module), buffer_stats(module)["main"]


def temp_rows(stats: BufferStats) -> list[str]:
    return [
        f"      {row.size:>10} B at {row.offset:>9}  live {row.live}  "
        + ", ".join(row.values)
        for row in stats.buffers
        if row.location == TEMP
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="bench programs (default: all)")
    parser.add_argument("--alignment", type=int, default=64)
    parser.add_argument(
        "--buffers", action="store_true", help="list temp buffers where XLA wins"
    )
    args = parser.parse_args()
    baselines = json.loads((BENCH / "xla_cpu_baselines.json").read_text())
    programs = baselines["programs"]
    present, missing = available_passes()
    steps = [
        f"assign-buffers{{alignment={args.alignment}}}" if p == "assign-buffers" else p
        for p in present
    ]
    print(
        "pipeline: "
        + ",".join(present)
        + (f"   MISSING (not run): {', '.join(missing)}" if missing else "")
    )
    header = (
        f"{'program':<26}{'fusions':>8}{'XLA':>5}{'temp B':>12}{'XLA temp B':>12}"
        f"{'naive B':>12}  goal"
    )
    print(header)
    print("-" * len(header))
    met = 0
    names = args.names or list(programs)
    for name in names:
        fusions, stats = plan(BENCH / f"{name}.mlir", ",".join(steps))
        xla = programs[name]
        temp, xla_temp = stats.temp_size_in_bytes, xla["xla_temp_size_in_bytes"]
        ok = temp <= xla_temp
        met += ok
        print(
            f"{name:<26}{fusions:>8}{xla['xla_fusion_count']:>5}{temp:>12}"
            f"{xla_temp:>12}{stats.naive_temp_size_in_bytes:>12}  "
            + ("ok" if ok else f"+{temp - xla_temp}")
        )
        if not ok and args.buffers:
            print("\n".join(temp_rows(stats)))
    print(f"temp bytes <= XLA's on {met} of {len(names)} programs")
    sys.exit(0)


if __name__ == "__main__":
    main()
