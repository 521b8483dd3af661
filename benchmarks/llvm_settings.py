"""LLVM's time on xlir's modules under other LLVM settings, next to today's.

    python benchmarks/llvm_settings.py [--programs a,b] [--rounds N]
                                       [--settings O2,O1,...]

Each bench program (the broad corpus's and the original one's, or those
named) is compiled once for the cpu target with the cache off, and the LLVM
IR of every part `host_object_code` compiles is kept. Then each module is
optimized and emitted under each setting (`SETTINGS`), the settings taken
in turn module by module and their order reversed every round, and the
best thread CPU time of the `rounds` is kept per module: optimization
(parse, the pass pipeline) and emission (the code generator) apart, since
the two answer to different settings. Thread CPU, because the machine is
shared: a busy neighbour slows the wall clock, not this thread's work.

Printed per setting: the sums over the modules, the object code's bytes,
and how many modules' objects differ from the first setting's. A setting
whose objects are all the same needs no run-time check; any other needs
a run-time A/B of the programs it changes (`benchmarks/run.py`), whose
sub-millisecond programs moved up to 25% between two executables of the
same object code (measured), so compare against such a control.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import llvmlite.binding as llvm
from xlir.lowering.llvm import llvmlite_module, mask_move_fold
from xlir.targets.cpu.host_machine import host_target_machine

import xlir

ROOT = Path(__file__).resolve().parents[1]
CORPORA = (ROOT / "benchmarks/broad/bench", ROOT.parent / "shared/corpus/bench")


@dataclass(frozen=True)
class Setting:
    """A pass pipeline level with its vectorizers, a code generator level,
    and LLVM options set for its compiles (each with the value that undoes
    it afterwards)."""

    speed: int = llvmlite_module.OPT_LEVEL
    slp: bool = True
    loops: bool = True
    codegen: int = llvmlite_module.OPT_LEVEL
    options: tuple[tuple[str, str], ...] = ()


SETTINGS = {
    "O2": Setting(),
    "O1": Setting(speed=1),
    "O2-no-slp": Setting(slp=False),
    "O2-no-loop-vectorizer": Setting(loops=False),
    "codegen-O1": Setting(codegen=1),
    "no-lsr": Setting(options=(("-disable-lsr=true", "-disable-lsr=false"),)),
}
"""Settings by name; the first one asked for is the baseline."""


def captured_modules(programs: set[str] | None) -> dict[str, str]:
    """The LLVM IR of every part of every program, by program and part."""
    os.environ["XLIR_CACHE"] = "0"
    modules: dict[str, str] = {}
    parts: list[str] = []
    compile_part = mask_move_fold.object_code

    def recorded(ir: str, machine: llvm.TargetMachine) -> bytes:
        parts.append(ir)
        return compile_part(ir, machine)

    mask_move_fold.object_code = recorded
    try:
        for corpus in CORPORA:
            for path in sorted(corpus.glob("*.mlir")):
                if programs is not None and path.stem not in programs:
                    continue
                parts.clear()
                xlir.compile(path.read_text(), target="cpu")
                for index, ir in enumerate(parts):
                    modules[f"{path.stem}.{index}"] = ir
    finally:
        mask_move_fold.object_code = compile_part
    return modules


def timed(
    ir: str, setting: Setting, machine: llvm.TargetMachine
) -> tuple[float, float, bytes]:
    """(optimization seconds, emission seconds, object code) of `ir`."""
    for option, _ in setting.options:
        llvm.set_option("xlir", option)
    try:
        start = time.thread_time()
        module = llvm.parse_assembly(ir, llvm.create_context())
        module.triple = machine.triple
        module.data_layout = str(machine.target_data)
        tuning = llvm.PipelineTuningOptions(speed_level=setting.speed)
        tuning.loop_vectorization = setting.loops
        tuning.slp_vectorization = setting.slp
        tuning.loop_unrolling = False
        tuning.loop_interleaving = llvmlite_module.LOOP_INTERLEAVING
        builder = llvm.create_pass_builder(machine, tuning)
        manager = builder.getModulePassManager()
        manager.run(module, builder)
        llvmlite_module.dispose_pass_manager(manager)
        optimized = time.thread_time()
        code = machine.emit_object(module)
        return optimized - start, time.thread_time() - optimized, code
    finally:
        for _, undo in setting.options:
            llvm.set_option("xlir", undo)


def main() -> None:
    parser = argparse.ArgumentParser(description="LLVM time under other settings")
    parser.add_argument("--programs", help="comma-separated program names")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--settings", default=",".join(SETTINGS))
    args = parser.parse_args()
    names = args.settings.split(",")
    if unknown := set(names) - SETTINGS.keys():
        sys.exit(
            f"unknown setting(s) {', '.join(sorted(unknown))}: {', '.join(SETTINGS)}"
        )
    wanted = set(args.programs.split(",")) if args.programs else None
    modules = captured_modules(wanted)
    llvmlite_module.initialize_llvm()
    levels = {SETTINGS[name].codegen for name in names}
    machines = {level: host_target_machine(level) for level in levels}
    best: dict[str, dict[str, tuple[float, float]]] = {n: {} for n in names}
    objects: dict[str, dict[str, tuple[bytes, int]]] = {n: {} for n in names}
    for round_ in range(args.rounds):
        order = names if round_ % 2 == 0 else names[::-1]
        for key, ir in modules.items():
            for name in order:
                setting = SETTINGS[name]
                optimize, emit, code = timed(ir, setting, machines[setting.codegen])
                old = best[name].get(key, (float("inf"), float("inf")))
                best[name][key] = (min(old[0], optimize), min(old[1], emit))
                objects[name][key] = (hashlib.sha1(code).digest(), len(code))
    print(f"{len(modules)} modules, best of {args.rounds} rounds, thread CPU seconds")
    for name in names:
        optimize = sum(t[0] for t in best[name].values())
        emit = sum(t[1] for t in best[name].values())
        size = sum(length for _, length in objects[name].values())
        differ = sum(objects[name][k] != objects[names[0]][k] for k in modules)
        print(
            f"{name:<24} optimize {optimize:7.3f}  emit {emit:7.3f}  "
            f"total {optimize + emit:7.3f}  object bytes {size:8d}  "
            f"differ {differ}/{len(modules)}"
        )


if __name__ == "__main__":
    main()
