"""The device's own time for a piece of work, without the host's time to
issue it: CUDA events around one run measure the launches' issue from
Python too (about 10 microseconds a launch here), which on a 4-16 MB
program is longer than its kernels. So the stream is first held busy by a
kernel that waits on the GPU's clock until the host has issued the start
event, the work and the end event behind it; the events then bracket
back-to-back device work only (what a profiler's kernel durations show).

Before each timed run the L2 cache can be evicted by a kernel reading a
buffer larger than it, so a program's inputs come from memory, as the
256 MiB copy's do (the roofline it is compared with); reading leaves the
cache clean, so the run pays no write-back of the eviction's lines.

The two kernels are PTX written here: the GPU machine has no xlir.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gpucheck.cuda import Driver

EVICT_BYTES = 256 << 20
"""Five times an H100's or H200's 50 MiB L2: read whole, it leaves none of
the work's data cached."""

MIN_HOLD_NS = 50_000

PTX = b"""
.version 7.0
.target sm_80
.address_size 64

.visible .entry gpu_check_hold(.param .u64 gpu_check_hold_ns)
{
    .reg .pred %p<2>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [gpu_check_hold_ns];
    mov.u64 %rd2, %globaltimer;
WAIT:
    mov.u64 %rd3, %globaltimer;
    sub.u64 %rd4, %rd3, %rd2;
    setp.lt.u64 %p1, %rd4, %rd1;
    @%p1 bra WAIT;
    ret;
}

.visible .entry gpu_check_evict(
    .param .u64 gpu_check_evict_base,
    .param .u64 gpu_check_evict_words,
    .param .u64 gpu_check_evict_sink)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [gpu_check_evict_base];
    ld.param.u64 %rd2, [gpu_check_evict_words];
    ld.param.u64 %rd3, [gpu_check_evict_sink];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd4, %r1, %r2;
    cvt.u64.u32 %rd5, %r3;
    add.u64 %rd4, %rd4, %rd5;
    mov.u32 %r4, %nctaid.x;
    mul.wide.u32 %rd6, %r4, %r2;
    mov.u32 %r5, 0;
LOOP:
    setp.ge.u64 %p1, %rd4, %rd2;
    @%p1 bra DONE;
    shl.b64 %rd7, %rd4, 4;
    add.u64 %rd8, %rd1, %rd7;
    ld.global.v4.u32 {%r6, %r7, %r1, %r2}, [%rd8];
    xor.b32 %r5, %r5, %r6;
    xor.b32 %r5, %r5, %r7;
    xor.b32 %r5, %r5, %r1;
    xor.b32 %r5, %r5, %r2;
    add.u64 %rd4, %rd4, %rd6;
    bra LOOP;
DONE:
    setp.ne.u32 %p2, %r5, 1234567891;
    @%p2 bra END;
    st.global.u32 [%rd3], %r5;
END:
    ret;
}
"""
"""`gpu_check_hold(ns)`: one thread waits `ns` nanoseconds of the global
timer. `gpu_check_evict(base, words, sink)`: a grid-stride read of `words`
16-byte words, their xor stored only if it is a magic value (so the reads
cannot be dropped, and nothing is written)."""


class DeviceClock:
    """Times work on the device alone (see the module docstring)."""

    def __init__(self, driver: Driver):
        self.driver = driver
        self.module = driver.load_module(PTX)
        self.hold_kernel = driver.function(self.module, "gpu_check_hold")
        self.evict_kernel = driver.function(self.module, "gpu_check_evict")
        self.buffer = driver.allocate(EVICT_BYTES)
        self.sink = driver.allocate(16)
        driver.zero(self.buffer, EVICT_BYTES)

    def release(self) -> None:
        self.driver.free(self.buffer)
        self.driver.free(self.sink)
        self.driver.unload(self.module)

    def hold(self, nanoseconds: int) -> None:
        self.driver.launch(self.hold_kernel, (1,), (1,), 0, [("i64", nanoseconds)])

    def evict(self) -> None:
        self.driver.launch(
            self.evict_kernel,
            (1024,),
            (256,),
            0,
            [("ptr", self.buffer), ("i64", EVICT_BYTES // 16), ("ptr", self.sink)],
        )

    def times(
        self,
        work: Callable[[], Any],
        repeats: int,
        warmup: int = 1,
        evict: bool = True,
    ) -> list[float]:
        """`work`'s device milliseconds, `repeats` times (after `warmup`
        untimed runs, which also measure how long the host takes to issue
        it: the hold lasts three times that, at least 50 us)."""
        issue = []
        for _ in range(max(1, warmup)):
            began = time.perf_counter()
            work()
            issue.append(time.perf_counter() - began)
            self.driver.synchronize()
        hold = max(MIN_HOLD_NS, int(3e9 * max(issue)))
        start, end = self.driver.event(), self.driver.event()
        found = []
        try:
            for _ in range(repeats):
                if evict:
                    self.evict()
                self.hold(hold)
                self.driver.record(start)
                work()
                self.driver.record(end)
                found.append(self.driver.elapsed_ms(start, end))
        finally:
            self.driver.destroy(start)
            self.driver.destroy(end)
        return found

    def median_ms(self, work: Callable[[], Any], repeats: int, evict: bool) -> float:
        return float(np.median(self.times(work, repeats, evict=evict)))


class _NoOp:
    """The host version of a check kernel under the fake driver: the fake's
    memory needs neither eviction nor a hold."""

    def __init__(self, params: Sequence[str]):
        self.params = list(params)

    def run_raw(self, grid: Any, block: Any, shared_bytes: int, values: Any) -> None:
        return None


HOST_VERSIONS = {
    "gpu_check_hold": _NoOp(["i64"]),
    "gpu_check_evict": _NoOp(["ptr", "i64", "ptr"]),
}
"""For `fake_cuda`: the check kernels by name."""
