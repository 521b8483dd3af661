#!/usr/bin/env python3
"""The nvptx target on a real GPU, in two steps (docs/nvptx.md, "Checking
on a GPU"):

    python scripts/gpu_check.py prepare [--out build/gpu_check]
        here, with xlir: compile every corpus program (small/ and bench/)
        for nvptx, with its inputs, expected outputs and StableHLO text;
    python scripts/gpu_check.py run [--dir build/gpu_check] [--report report.json]
        on the GPU machine, with only Python, numpy and ctypes (and JAX
        for XLA's times, where it is installed): run, compare, time;
        non-zero exit on any mismatch. `--fake` rehearses it without a
        GPU (a fake driver running the kernels by xlir's nvptx-emu).

`xla` is the subprocess `run` starts for XLA's times.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

ROOT = SCRIPTS.parent
DEFAULT_FOLDER = ROOT / "build" / "gpu_check"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare = commands.add_parser("prepare", help="compile the corpus for the GPU run")
    prepare.add_argument("--out", type=Path, default=DEFAULT_FOLDER)
    prepare.add_argument(
        "--corpus", type=Path, default=ROOT.parent / "shared" / "corpus"
    )
    prepare.add_argument("--sm", type=int, default=80)
    prepare.add_argument("--only", nargs="*", help="program names (default: all)")
    run = commands.add_parser("run", help="run the prepared programs on the GPU")
    run.add_argument("--dir", type=Path, default=DEFAULT_FOLDER)
    run.add_argument("--report", type=Path, default=Path("gpu_check_report.json"))
    run.add_argument("--repeats", type=int, default=20)
    run.add_argument("--warmup", type=int, default=3)
    run.add_argument("--no-xla", action="store_true", help="skip XLA's timing")
    run.add_argument("--fake", action="store_true", help="rehearse without a GPU")
    run.add_argument("--only", nargs="*", help="program names (default: all)")
    run.add_argument(
        "--deadline",
        type=float,
        default=300.0,
        help="seconds after which no further program starts (default 300)",
    )
    xla = commands.add_parser("xla", help="(run's subprocess) XLA on the programs")
    xla.add_argument("--dir", type=Path, default=DEFAULT_FOLDER)
    xla.add_argument("--out", type=Path, required=True)
    xla.add_argument("--repeats", type=int, default=20)
    xla.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args(argv)

    if args.command == "prepare":
        from gpucheck.prepare import prepare as prepare_folder

        if not (args.corpus / "small").is_dir():
            print(f"gpu_check prepare: no corpus at {args.corpus}", file=sys.stderr)
            return 2
        failed = prepare_folder(args.corpus, args.out, args.sm, args.only)
        size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
        print(
            f"prepared {args.out} ({size / 1e6:.1f} MB); {failed} program(s) did not compile"
        )
        return 1 if failed else 0
    if args.command == "run":
        from gpucheck.run import run as run_folder

        return run_folder(
            args.dir,
            args.report,
            Path(__file__).resolve(),
            args.repeats,
            args.warmup,
            not args.no_xla,
            args.fake,
            args.only,
            args.deadline,
        )
    from gpucheck.xla import time_programs

    return time_programs(args.dir, args.out, args.repeats, args.warmup)


if __name__ == "__main__":
    sys.exit(main())
