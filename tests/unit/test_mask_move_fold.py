"""The guard against LLVM 22's mask-move fold (lowering/llvm/mask_move_fold.py):
a module LLVM miscompiles at -mcpu=emeraldrapids comes out right through
`guarded_object_code`; the scan finds every VEX movmsk and nothing else; and
which machines may meet the fold."""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import numpy as np
import pytest
from xlir.lowering.llvm.llvmlite_module import object_code, target_machine
from xlir.lowering.llvm.mask_move_fold import (
    guarded_object_code,
    holds_mask_moves,
    may_fold_mask_moves,
    without_mask_move_folds,
)
from xlir.targets.cpu.jit_loader import LoadedObject

from tests.cpu_features import X86

TRIPLE = "x86_64-unknown-linux-gnu"

LANES = """
; Lane 0 of the output is 32 where x[0] < 0, else 0; lane 1 is (x[1] << 16)
; or 20, or 32 where x[1] < 0 (with 4 for x[1] where it has no bit above bit
; 22). Optimized at -O2 for -mcpu=emeraldrapids, LLVM 22.1 folds lane 0's
; `vpmovd2m %xmm0, %k0; kmovd %k0, %r` into `vmovmskps %xmm0, %r` and erases
; the `vpmovd2m`, though the `kshiftrb $1, %k0, %k0` that extracts lane 1
; still reads %k0: lane 1 loses its 32.
target triple = "x86_64-unknown-linux-gnu"

define void @lanes(ptr noalias %in, ptr noalias %out) {
  %x = load <2 x i32>, ptr %in, align 4
  %high = lshr <2 x i32> %x, splat (i32 23)
  %small = icmp eq <2 x i32> %high, zeroinitializer
  %negative = icmp slt <2 x i32> %x, zeroinitializer
  %negative0 = extractelement <2 x i1> %negative, i64 0
  %out0 = select i1 %negative0, i32 32, i32 0
  store i32 %out0, ptr %out, align 4
  %x1 = extractelement <2 x i32> %x, i64 1
  %small1 = extractelement <2 x i1> %small, i64 1
  %value1 = select i1 %small1, i32 4, i32 %x1
  %shifted1 = shl i32 %value1, 16
  %bits1 = or i32 %shifted1, 20
  %negative1 = extractelement <2 x i1> %negative, i64 1
  %sign1 = select i1 %negative1, i32 32, i32 0
  %out1 = or i32 %bits1, %sign1
  %at1 = getelementptr i32, ptr %out, i64 1
  store i32 %out1, ptr %at1, align 4
  ret void
}
"""

INPUTS = [[1, -1], [-1, 1], [-(1 << 31), 5], [7, 0x7FFFFFFF], [-5, -(1 << 31)]]


def _expected(x: list[int]) -> list[int]:
    lane0 = 32 if x[0] < 0 else 0
    value1 = 4 if (x[1] & 0xFFFFFFFF) >> 23 == 0 else x[1]
    lane1 = ((value1 << 16) | 20 | (32 if x[1] < 0 else 0)) & 0xFFFFFFFF
    return [lane0, int(np.uint32(lane1).view(np.int32))]


def _run(code: bytes, x: list[int]) -> list[int]:
    loaded = LoadedObject((code,))
    lanes = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(
        loaded.address("lanes")
    )
    given = np.array(x, np.int32)
    got = np.zeros(2, np.int32)
    lanes(given.ctypes.data, got.ctypes.data)
    return got.tolist()


def _host_runs_emeraldrapids_code() -> bool:
    if not X86:
        return False
    features = llvm.get_host_cpu_features()
    return all(features.get(f) for f in ("avx512f", "avx512vl", "avx512dq", "avx512bw"))


def _emeraldrapids(features: str = "") -> llvm.TargetMachine:
    return target_machine(TRIPLE, "emeraldrapids", features)


@pytest.mark.skipif(
    not _host_runs_emeraldrapids_code(), reason="needs AVX-512 with VL, DQ and BW"
)
def test_lanes_keep_their_signs_through_the_guard() -> None:
    unguarded = object_code(LANES, _emeraldrapids())
    assert holds_mask_moves(unguarded), "the scan misses LLVM's folded vmovmskps"
    guarded = guarded_object_code(LANES, _emeraldrapids(), "", _emeraldrapids)
    assert not holds_mask_moves(guarded)
    for x in INPUTS:
        assert _run(guarded, x) == _expected(x), x


def _assembled(instruction: str) -> bytes:
    llvm.initialize_native_asmparser()
    module = llvm.parse_assembly(
        f'target triple = "{TRIPLE}"\nmodule asm ".text"\nmodule asm "{instruction}"\n'
    )
    return _emeraldrapids().emit_object(module)


FOLD_RESULTS = [
    "vmovmskps %xmm0, %eax",
    "vmovmskps %xmm8, %ebx",
    "vmovmskpd %ymm3, %ecx",
    "vmovmskpd %xmm15, %r9d",
    "vpmovmskb %xmm9, %r10d",
    "vpmovmskb %ymm15, %r15d",
]
"""What the fold makes: every width, register bank and prefix form."""

OTHERS = [
    "movmskps %xmm0, %eax",
    "vpmovd2m %xmm0, %k1",
    "kmovd %k1, %eax",
    "kshiftrb $$1, %k1, %k1",
    "vmovaps %xmm1, %xmm2",
    "vblendvps %xmm0, %xmm1, %xmm2, %xmm3",
    "vaddps %ymm1, %ymm2, %ymm3",
]
"""Neighbours that are not VEX movmsk instructions (the legacy SSE form is
not one: the fold makes VEX ones)."""


@pytest.mark.skipif(not X86, reason="assembles x86 instructions")
@pytest.mark.parametrize("instruction", FOLD_RESULTS)
def test_scan_finds_vex_mask_moves(instruction: str) -> None:
    assert holds_mask_moves(_assembled(instruction))


@pytest.mark.skipif(not X86, reason="assembles x86 instructions")
@pytest.mark.parametrize("instruction", OTHERS)
def test_scan_passes_other_instructions(instruction: str) -> None:
    assert not holds_mask_moves(_assembled(instruction))


@pytest.mark.parametrize(
    ("triple", "features", "may"),
    [
        (TRIPLE, "+avx2,+avx512f,+avx512vl", True),
        (TRIPLE, "", True),
        (TRIPLE, "+avx512vl,-avx512vl", False),
        (TRIPLE, "-avx512vl,+avx512vl", True),
        (TRIPLE, without_mask_move_folds("+avx512vl"), False),
        (TRIPLE, without_mask_move_folds(""), False),
        ("i686-pc-linux-gnu", "+avx512vl", True),
        ("aarch64-unknown-linux-gnu", "+neon", False),
    ],
)
def test_machines_that_may_meet_the_fold(triple: str, features: str, may: bool) -> None:
    assert may_fold_mask_moves(triple, features) == may
