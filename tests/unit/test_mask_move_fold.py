"""The guard against LLVM 22's mask-move fold (lowering/llvm/mask_move_fold.py):
a module LLVM miscompiles at -mcpu=emeraldrapids comes out right through
`guarded_object_code`; the scan finds every VEX movmsk and nothing else;
which machines may meet the fold; and the compile without the fold leaves
off the features that need AVX512VL."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import llvmlite.binding as llvm
import numpy as np
import pytest
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.lowering.llvm.llvmlite_module import object_code, target_machine
from xlir.lowering.llvm.mask_move_fold import (
    guarded_object_code,
    holds_mask_moves,
    may_fold_mask_moves,
    without_mask_move_folds,
)

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


HALF_SELECTS = """
; The nvptx emulator's kernel of a clamped, negated f16 sum (the program
; fuzzer's program_case(24940649, 8)). Without AVX512VL but with
; AVX512FP16, LLVM 22 has no instruction for a select of its 128-bit half
; vectors and aborts ("Cannot select: v8f16 X86ISD::CMOV").
define void @"clamped_sums"(ptr noalias %".1", ptr noalias %".2", i64 %".3") noinline
{
.5:
  br label %".6"
.6:
  %".18" = phi  i64 [0, %".5"], [%".35", %".11"]
  %".25" = icmp slt i64 %".18", %".3"
  br i1 %".25", label %".7", label %".8"
.7:
  br label %".9"
.8:
  ret void
.9:
  %".19" = phi  i64 [0, %".7"], [%".51", %".14"]
  %".29" = icmp slt i64 %".19", 15
  br i1 %".29", label %".10", label %".11"
.10:
  %".31" = mul i64 %".3", 15
  %".32" = mul i64 %".18", 15
  %".33" = add i64 %".32", %".19"
  br label %".12"
.11:
  %".35" = add i64 %".18", 1
  br label %".6"
.12:
  %".20" = phi  i64 [%".33", %".10"], [%".91", %".17"]
  %".37" = icmp slt i64 %".20", 15
  br i1 %".37", label %".13", label %".14"
.13:
  %".39" = call i64 @"llvm.smax.i64"(i64 %".20", i64 0)
  %".40" = call i64 @"llvm.smin.i64"(i64 %".39", i64 4)
  %".41" = icmp slt i64 %".20", 5
  %".42" = sub i64 %".20", 5
  %".43" = call i64 @"llvm.smax.i64"(i64 %".42", i64 0)
  %".44" = call i64 @"llvm.smin.i64"(i64 %".43", i64 4)
  %".45" = icmp slt i64 %".20", 10
  %".46" = sub i64 %".20", 10
  %".47" = call i64 @"llvm.smax.i64"(i64 %".46", i64 0)
  %".48" = call i64 @"llvm.smin.i64"(i64 %".47", i64 4)
  %".49" = fpext half              0x0 to float
  br label %".15"
.14:
  %".51" = add i64 %".19", 1
  br label %".9"
.15:
  %".21" = phi  i64 [0, %".13"], [%".86", %".16"]
  %".22" = phi  float [%".49", %".13"], [%".85", %".16"]
  %".53" = icmp slt i64 %".21", 4
  br i1 %".53", label %".16", label %".17"
.16:
  %".55" = getelementptr inbounds [5 x half], ptr %".1", i64 %".21", i64 %".40"
  %".56" = load half, ptr %".55"
  %".57" = getelementptr inbounds [5 x half], ptr %".1", i64 %".21", i64 %".44"
  %".58" = load half, ptr %".57"
  %".59" = getelementptr inbounds [5 x half], ptr %".1", i64 %".21", i64 %".48"
  %".60" = load half, ptr %".59"
  %".61" = select  i1 %".45", half %".58", half %".60"
  %".62" = select  i1 %".41", half %".56", half %".61"
  %".63" = fpext half %".62" to float
  %".64" = call float @"llvm.fabs.f32"(float %".63")
  %".65" = fptrunc float %".64" to half
  %".66" = fpext half %".65" to float
  %".67" = fpext half 0x7ff0000000000000 to float
  %".68" = fcmp olt float %".66", %".67"
  %".69" = fpext half %".62" to float
  %".70" = fpext half 0xc070000000000000 to float
  %".71" = call float @"llvm.maximum.f32"(float %".69", float %".70")
  %".72" = fptrunc float %".71" to half
  %".73" = fpext half %".72" to float
  %".74" = fpext half 0x4070000000000000 to float
  %".75" = call float @"llvm.minimum.f32"(float %".73", float %".74")
  %".76" = fptrunc float %".75" to half
  %".77" = select  i1 %".68", half %".76", half %".62"
  %".78" = fpext half %".77" to float
  %".79" = call float @"llvm.fabs.f32"(float %".78")
  %".80" = fptrunc float %".79" to half
  %".81" = fpext half %".80" to float
  %".82" = fneg float %".81"
  %".83" = fptrunc float %".82" to half
  %".84" = fpext half %".83" to float
  %".85" = fadd float %".22", %".84"
  %".86" = add i64 %".21", 1
  br label %".15"
.17:
  %".23" = phi  float [%".22", %".15"]
  %".88" = fptrunc float %".23" to half
  %".89" = getelementptr inbounds half, ptr %".2", i64 %".20"
  store half %".88", ptr %".89"
  %".91" = add i64 %".20", %".31"
  br label %".12"
}

declare i64 @"llvm.smax.i64"(i64 %".1", i64 %".2")

declare i64 @"llvm.smin.i64"(i64 %".1", i64 %".2")

declare float @"llvm.fabs.f32"(float %".1")

declare float @"llvm.maximum.f32"(float %".1", float %".2")

declare float @"llvm.minimum.f32"(float %".1", float %".2")
"""

COMPILE_GUARDED = """
import sys
from xlir.lowering.llvm.llvmlite_module import target_machine
from xlir.lowering.llvm.mask_move_fold import guarded_object_code, holds_mask_moves
def machine(features=""):
    return target_machine("x86_64-unknown-linux-gnu", "sapphirerapids", features)
code = guarded_object_code(sys.stdin.read(), machine(), "", machine)
print(holds_mask_moves(code))
"""


def test_guard_compiles_half_selects() -> None:
    """A module that holds a mask move (`LANES`) is compiled again without
    AVX512VL; with half selects beside it, that compile must leave
    AVX512FP16 off too (in a subprocess: LLVM aborts)."""
    run = subprocess.run(
        [sys.executable, "-c", COMPILE_GUARDED],
        input=LANES + HALF_SELECTS,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["False"]
