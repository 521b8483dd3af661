"""`xlir-compile`: a StableHLO program as an object file and a C header.

    xlir-compile MODEL.mlir [--target NAME] [--triple T] [--cpu NAME | --sm N] [--features +a,-b]
                 [--reloc pic|static] [--entry NAME] [--threads N] [--function main]
                 [--pipeline PASSES] -o model.o [--header model.h]

Ahead-of-time compilation on a target that can (`TargetInfo.ahead_of_time`;
without --target, the one registered target that can; docs/aot.md): the
object defines one C function, `void ENTRY(void **args, void **results,
void *temp)`, and needs only libc and libm (pthread for threaded kernels) to
link; the header declares it with the sizes, shapes and types of its
buffers. Without --triple the code is for this machine (its CPU and
features); with one it is for that triple's generic CPU unless --cpu says
otherwise. A GPU target (`--target nvptx --sm 80 -o model.ptx`, or
`.cubin`) writes its kernels and, beside them, the manifest of the host
side (model.manifest.json; docs/nvptx.md). The accel target (`--target
accel -o model.xa1`) writes one file, the kernels' XA1 object followed by
the program section with the host schedule, which `xlir-run model.xa1`
runs without compiling (docs/accel.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xlir.targets.aot import RELOCATION_MODELS, AotOptions, AotResult
from xlir.targets.registry import ahead_of_time_target
from xlir.tools.cli import UsageError, run_command, write_output

from xlir.api import load_module

PROG = "xlir-compile"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Compile a StableHLO module ahead of time to an object file "
        "and a C header.",
    )
    parser.add_argument("file", help="the .mlir file to compile")
    parser.add_argument(
        "--target",
        help="the target to compile for (default: the one registered target "
        "that compiles ahead of time)",
    )
    parser.add_argument("-o", "--output", required=True, help="object file to write")
    parser.add_argument("--header", help="C header to write")
    parser.add_argument("--triple", help="LLVM target triple (default: this machine's)")
    parser.add_argument(
        "--cpu",
        help="LLVM CPU name, or 'native' for this machine's (default: this "
        "machine's without --triple, else the triple's generic CPU)",
    )
    parser.add_argument("--features", help="LLVM target features, e.g. +avx2,-avx512f")
    parser.add_argument(
        "--sm",
        type=int,
        help="GPU targets: the CUDA compute capability, e.g. 80 or 90 (the same "
        "as --cpu sm_80)",
    )
    parser.add_argument(
        "--reloc", default="pic", choices=RELOCATION_MODELS, help="relocation model"
    )
    parser.add_argument(
        "--entry",
        help="C name of the entry point (default: module name + '_' + function)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="threads per call for the largest kernels: 1 = none (no pthread "
        "symbols); default one per online CPU",
    )
    parser.add_argument("--function", default="main", help="function to compile")
    parser.add_argument(
        "--pipeline",
        metavar="PASSES",
        help="HLO-level pass pipeline (default: hlo-opt; '' for none)",
    )
    return parser


def compile_file(args: argparse.Namespace) -> AotResult:
    module, sources = load_module(Path(args.file))
    if args.sm is not None and args.cpu is not None:
        raise UsageError("--sm and --cpu both name the processor; give one")
    cpu = f"sm_{args.sm}" if args.sm is not None else args.cpu
    options = AotOptions(
        args.triple,
        cpu,
        args.features,
        args.reloc,
        args.entry,
        args.threads,
        args.output,
    )
    compiler = ahead_of_time_target(args.target).platform().compiler()
    return compiler.compile_ahead_of_time(
        module, options, args.function, sources, args.pipeline
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)

    def body() -> int:
        if args.output == "-" and sys.stdout.isatty():
            raise UsageError("-o -: will not write an object file to a terminal")
        result = compile_file(args)
        if args.header and not result.header:
            raise UsageError(
                f"--header: target '{args.target}' writes no C header (its "
                "output is a device's program, not an object to link); drop it"
            )
        write_output(args.output, result.object_code)
        if args.header:
            write_output(args.header, result.header.encode())
        if result.companions and args.output == "-":
            raise UsageError(
                "-o -: this target writes files beside its output "
                f"({', '.join(result.companions)}); name an output file"
            )
        for suffix, data in result.companions.items():
            write_output(str(Path(args.output).with_suffix(suffix)), data)
        return 0

    run_command(PROG, body)


if __name__ == "__main__":
    main()
