"""Optimizing LLVM IR keeps no memory per call: a long-running process (a
fuzz worker, a server) compiling many programs must not grow. llvmlite 0.50
never freed a module pass manager's pipeline (`dispose_pass_manager` in
lowering/llvm/llvmlite_module.py says why): 73 KB per tiny compile, which
took a fuzz worker to 2.9 GB and an abort."""

from __future__ import annotations

import gc
import os
import sys

import llvmlite.binding as llvm
import pytest
from xlir.lowering.llvm.llvmlite_module import (
    dispose_pass_manager,
    object_code,
    target_machine,
)

TINY = """
define void @scale(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds float, ptr %x, i64 %i
  %v = load float, ptr %p
  %w = fmul float %v, 2.0
  store float %w, ptr %p
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""

BOUND = 16 * 1024
"""Bytes a call may keep on average: generous (the allocator's pools move
in steps; what is left, llvmlite's per-builder instrumentation callbacks,
is under 1 KB), and far below the 73 KB each call kept before."""


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_object_code_keeps_no_memory_per_call() -> None:
    machine = target_machine(llvm.get_default_triple())
    for _ in range(50):  # caches and allocator pools fill up
        object_code(TINY, machine)
    gc.collect()
    before = _resident_bytes()
    calls = 300
    for _ in range(calls):
        object_code(TINY, machine)
    gc.collect()
    growth = (_resident_bytes() - before) / calls
    assert growth < BOUND, f"{growth / 1024:.1f} KiB kept per call"


def test_a_disposed_pass_manager_is_closed() -> None:
    machine = target_machine(llvm.get_default_triple())
    builder = llvm.create_pass_builder(machine, llvm.PipelineTuningOptions())
    manager = builder.getModulePassManager()
    dispose_pass_manager(manager)
    assert manager.closed
