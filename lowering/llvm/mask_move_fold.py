"""A guard against LLVM 22's mask-move fold on x86, which miscompiles.

LLVM 22's `x86-compress-evex` pass rewrites `vpmov{b,d,q}2m %xmm, %k;
kmov %k, %r` (128- or 256-bit sources, which exist with AVX512VL only) into
`vmovmskp{s,d}` or `vpmovmskb %xmm, %r` and erases the `vpmov*2m`. It gets
that wrong twice: an instruction after the `kmov` that reads the mask and
writes it back (`kshiftrb $1, %k1, %k1`, extracting the next lane) reads
whatever the register held before (llvm-project#198197), and a source in
xmm16-31, which a VEX instruction cannot name, becomes another register
(#191304). LLVM has no option that turns the fold off (the pass has none,
and a legacy code generation pass cannot be skipped by name), and the
scheduling that exposes it depends on the CPU model (Sapphire Rapids and
later): fuzzer seeds 7202474 and 7201610 got -0 for +0 on nvptx-emu.

What the fold makes is a VEX `movmsk` instruction, so an object without
one holds no fold; an object with one (folded, or a `movmsk` LLVM chose
itself) is compiled again without AVX512VL, where every `vpmov*2m` is a
512-bit one, which the fold leaves alone, and without the features LLVM's
code selection needs AVX512VL for (`NEEDS_VL`). The scan reads the object's
bytes: a chance match elsewhere in them costs a second compile, never a
wrong answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import llvmlite.binding as llvm
from xlir.lowering.llvm.llvmlite_module import object_code

VEX_MASK_MOVE = re.compile(
    rb"(?:\xc5[\x78-\x7f\xf8-\xff]"
    rb"|\xc4[\x01\x21\x41\x61\x81\xa1\xc1\xe1][\x78-\x7f\xf8-\xff])"
    rb"[\x50\xd7][\xc0-\xff]"
)
"""`vmovmskps`/`vmovmskpd` (opcode 0x50) and `vpmovmskb` (0xd7), 128 or 256
bits, register to register: a two-byte VEX prefix (0xc5, no second source:
vvvv all ones) or a three-byte one (0xc4, opcode map 0F), the opcode, and a
ModRM byte of two registers (mod 11)."""

X86_ARCHITECTURES = re.compile(r"(x86_64|i[3-6]86)-")
"""Triples of x86, the only architecture with the fold."""


def may_fold_mask_moves(triple: str, features: str) -> bool:
    """Whether code for `triple` with `features` may meet the fold: x86,
    unless the features turn AVX512VL off (a CPU name alone may turn it on)."""
    if not X86_ARCHITECTURES.match(triple):
        return False
    mentions = [f for f in features.split(",") if f.strip()[1:] == "avx512vl"]
    return not mentions or mentions[-1].strip() != "-avx512vl"


def holds_mask_moves(code: bytes) -> bool:
    """Whether object `code` may hold a folded mask move (see the module)."""
    return VEX_MASK_MOVE.search(code) is not None


NEEDS_VL = ("avx512fp16",)
"""Features whose code LLVM selects only with AVX512VL: with AVX512FP16 on
and VL off, some selects of 128-bit half vectors have no instruction
("Cannot select: v8f16 X86ISD::CMOV", an abort, on a clamped f16 sum the
fuzzer found). LLVM turns off by itself the features that imply VL."""


def without_mask_move_folds(features: str) -> str:
    """`features` less AVX512VL, with which the fold cannot happen, and less
    the features that need it (`NEEDS_VL`)."""
    off = ",".join(f"-{name}" for name in ("avx512vl", *NEEDS_VL))
    return f"{features},{off}" if features else off


def guarded_object_code(
    ir: str,
    machine: llvm.TargetMachine,
    features: str,
    machine_with: Callable[[str], llvm.TargetMachine],
    optimize: bool = True,
) -> bytes:
    """`object_code(ir, machine, optimize)`, where `machine` was made with
    `features`; compiled again on `machine_with(features less AVX512VL)`
    where the first object may hold a folded mask move."""
    code = object_code(ir, machine, optimize)
    if may_fold_mask_moves(machine.triple, features) and holds_mask_moves(code):
        safe = machine_with(without_mask_move_folds(features))
        return object_code(ir, safe, optimize)
    return code
