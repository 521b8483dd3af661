"""`xlir-translate`: one named translation of one file, like mlir-translate.

    xlir-translate FILE [--target NAME] [-o OUT]
                   [--backend NAME] [--triple T] [--cpu NAME] [--features +a,-b] [-O0..3]
    xlir-translate --disassemble FILE [-o OUT]
    xlir-translate --list-translations

The translations are a registry (`xlir.targets.translations`, entry-point
group `xlir.translations`), so a target adds its own from its folder. xlir's:
`llvmir` (the default), `asm` and `obj` take a module at the llvm-dialect
level (what `xlir-opt -p hlo-opt,hlo-to-loop,expand-math,loop-to-llvm,
device-to-llvm` prints) to LLVM IR, the LLVM backend's assembly or an object
file; the LLVM options apply to them only (llvm_translations.py). XA-1's
(targets/accel/translations.py): `accel-asm`, `accel-obj` and `accel-disasm`.
`--disassemble` picks the translation that reads the file's magic. FILE may
be `-` for stdin. A translation that writes binary writes to `-o FILE`, never
to a terminal.

Every error is a diagnostic on stderr (file:line:col where there is one) and
exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from xlir.targets.translations import (
    TranslationInput,
    disassembler_for,
    get_translation,
    list_translations,
)
from xlir.tools.cli import UsageError, run_command, write_output

from xlir.api import load_module
from xlir.diagnostics import decode_source

PROG = "xlir-translate"

LLVM_OPTIONS = {
    "backend": "--backend",
    "triple": "--triple",
    "cpu": "--cpu",
    "features": "--features",
}
"""The options only a translation that `takes_llvm_options` reads."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Translate a file with a registered translation "
        "(--list-translations names them).",
    )
    parser.add_argument("file", nargs="?", help="the input file ('-' for stdin)")
    parser.add_argument(
        "--target",
        metavar="NAME",
        help="the translation (default: llvmir; see --list-translations)",
    )
    parser.add_argument(
        "--disassemble",
        action="store_true",
        help="translate FILE with the disassembler that reads its magic",
    )
    parser.add_argument(
        "--list-translations",
        action="store_true",
        help="list the registered translations and exit",
    )
    parser.add_argument(
        "-o", dest="output", metavar="OUT", help="output file (default: stdout)"
    )
    llvm = parser.add_argument_group("LLVM translations (llvmir, asm, obj)")
    llvm.add_argument(
        "--backend",
        metavar="NAME",
        help="the registered target whose LLVM backend translates (default: "
        "the one that compiles ahead of time)",
    )
    llvm.add_argument("--triple", help="target triple (default: this host's)")
    llvm.add_argument(
        "--cpu", help="CPU name (default: this host's, or generic for --triple)"
    )
    llvm.add_argument(
        "--features",
        metavar="+a,-b",
        help="target features, e.g. +fma,-avx512f; write --features=-x when the "
        "first one is removed (default: this host's, or none for --triple)",
    )
    llvm.add_argument(
        "-O",
        dest="opt",
        type=int,
        choices=range(4),
        default=None,
        metavar="N",
        help="-O0 (default) translates only; -O1..-O3 run LLVM's pipeline",
    )
    return parser


def _read(path: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def run(args: argparse.Namespace) -> int:
    if args.list_translations:
        sys.stdout.write(list_translations())
        return 0
    if args.file is None:
        raise UsageError("give an input FILE (or --list-translations)")
    if args.disassemble and args.target is not None:
        raise UsageError("--disassemble picks the translation: give no --target")
    name = "<stdin>" if args.file == "-" else args.file
    data = _read(args.file)
    key = disassembler_for(data, name) if args.disassemble else args.target or "llvmir"
    translation = get_translation(key)
    if not translation.takes_llvm_options:
        given = [flag for dest, flag in LLVM_OPTIONS.items() if getattr(args, dest)]
        given += ["-O"] if args.opt is not None else []
        if given:
            raise UsageError(
                f"{', '.join(given)}: only the LLVM translations take these, "
                f"not '{key}'"
            )
    if translation.reads_magic is not None and not data.startswith(
        translation.reads_magic
    ):
        raise UsageError(
            f"{name}: '{key}' reads a file that starts with "
            f"{translation.reads_magic!r}, found {data[:4]!r}"
        )
    if translation.writes_binary:
        if args.output is None:
            raise UsageError(f"--target {key} writes binary: give -o FILE")
        if args.output == "-" and sys.stdout.isatty():
            raise UsageError(f"--target {key}: will not write binary to a terminal")
    source = TranslationInput(
        name, data, lambda: load_module(decode_source(data, name), name), args
    )
    result = translation.translate(source)
    write_output(args.output, result.encode() if isinstance(result, str) else result)
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    run_command(PROG, lambda: run(args))


if __name__ == "__main__":
    main()
