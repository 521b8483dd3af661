"""The vector width LLVM's vectorizers use on this host: how the cpu target
fills its `TargetInfo` (targets/cpu/target.py), whose sizes its pipeline
gives the loop passes (`register-tile`, `vectorize`, ...) as options.

The CPU's features say what registers exist (`avx512f`: 32 registers of 512
bits), but not what LLVM will use: its tuning for many AVX-512 CPUs
(Skylake-X to Sapphire Rapids) prefers 256-bit vectors unless the target
machine says otherwise. A register tile sized for 512-bit registers that
LLVM vectorizes at 256 bits needs twice the registers and spills, at a
fifth of the speed, so the width is measured: a copy loop optimized and
compiled by the cpu target's own target machine (`host_machine`), and the
widest register its assembly names; 128 when llvmlite cannot compile for
the host. The register count comes from the features.

The measurement (20 to 50 ms, paid by the first compile of every process)
is kept on disk next to the compilation cache (`targets/cpu/cache.py`),
keyed like its entries by the host CPU, its features and the versions of
xlir, xDSL and llvmlite, so only the first process on a host pays it (none
is written with `XLIR_CACHE=0`). It cannot be derived without compiling:
the preference is a tuning flag inside LLVM's CPU models that llvmlite does
not expose, and a table of CPU names would go stale with each LLVM.

Whether the machine has a byte dot product instruction (VNNI's `vpdpbusd`,
for int8 dots) follows from its features alone (`byte_dot_bits`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

_PROBE = """
define void @probe(ptr noalias %out, ptr noalias %in) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr float, ptr %in, i64 %i
  %dst = getelementptr float, ptr %out, i64 %i
  %x = load float, ptr %src
  %y = fadd float %x, 1.0
  store float %y, ptr %dst
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 4096
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""

_REGISTER_BITS = {"zmm": 512, "ymm": 256, "xmm": 128}


@cache
def vector_bits() -> int:
    """Bits per vector register in the code LLVM makes for this host: from
    the disk, else measured (and written there)."""
    from xlir.targets.cpu import cache as disk
    from xlir.targets.cpu.host_machine import host_description

    folder = disk.cache_dir()
    if folder is None:
        return _measured_vector_bits()
    path = folder / f"vector-bits-{disk.cache_key('vector-bits', host_description())}"
    try:
        known = int(path.read_text())
    except (OSError, ValueError):
        known = None
    if known is not None and known in _REGISTER_BITS.values():
        return known
    bits = _measured_vector_bits()
    disk.write_atomically(path, f"{bits}\n".encode())
    return bits


def _measured_vector_bits() -> int:
    from xlir.lowering.llvm.llvmlite_module import optimize
    from xlir.targets.cpu.host_machine import host_target_machine

    try:
        machine = host_target_machine()
        assembly = machine.emit_assembly(optimize(_PROBE, machine))
    except RuntimeError:
        return 128
    names = set(re.findall(r"%([xyz]mm)\d+", assembly))
    return max((_REGISTER_BITS[name] for name in names), default=128)


@cache
def vector_registers() -> int:
    """How many vector registers the code may use: 32 with AVX-512 (at any
    width), 16 otherwise (x86's AVX2 and SSE)."""
    import llvmlite.binding as llvm

    return 32 if llvm.get_host_cpu_features().get("avx512f") else 16


def byte_dot_bits(features: Mapping[str, bool]) -> int:
    """The widest `vpdpbusd` a machine with these LLVM features has: 512
    with AVX512-VNNI (whose 256- and 128-bit forms need AVX512VL), 256 with
    AVX-VNNI, 0 without either (any other architecture)."""
    if all(features.get(name) for name in ("avx512f", "avx512vl", "avx512vnni")):
        return 512
    return 256 if features.get("avx2") and features.get("avxvnni") else 0


def with_features(features: Mapping[str, bool], given: str) -> dict[str, bool]:
    """`features` as LLVM's `+a,-b` list `given` (`xlir-compile --features`)
    turns them on and off."""
    changed = dict(features)
    for item in given.split(","):
        item = item.strip()
        if len(item) > 1 and item[0] in "+-":
            changed[item[1:]] = item[0] == "+"
    return changed


@cache
def host_features() -> dict[str, bool]:
    """This CPU's LLVM features, by name."""
    import llvmlite.binding as llvm

    return dict(llvm.get_host_cpu_features().items())
