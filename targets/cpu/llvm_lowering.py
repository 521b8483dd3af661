"""The cpu target's lowering to the llvm dialect: its emitter and the two
passes its pipeline ends with (docs/cpu.md).

`loop-to-llvm` lowers every `loop.kernel` with `CpuEmitter`: the target-
neutral lowering (lowering/llvm/), with `{threads}`-marked loops handed to
the thread pool (`threaded_loops`). `device-to-llvm` lowers every host
`func.func` to its native entry point (`host_entry`) and then every
`loop.global` to an internal constant (and records each entry's `temp`
bytes: `TEMP_BYTES`): a global goes with the last of its
uses (`loop.get_global` in a host function names a `loop.global`; a
kernel's `llvm.mlir.addressof` takes any symbol), so the IR verifies
between the two passes. A host function with control flow nested more than
`DEEP_CONTROL` deep is left unoptimized (`optnone`). Run both
(`loop-to-llvm,device-to-llvm`) to get a module xDSL's LLVM translation
accepts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.loops import THREADS, ParallelOp
from xlir.lowering.llvm.collective_calls import CollectiveCalls
from xlir.lowering.llvm.emitter import LLVMEmitter
from xlir.lowering.llvm.function import FunctionBuilder, ModuleSymbols
from xlir.lowering.llvm.launch_timers import LaunchTimers
from xlir.lowering.llvm.memory import lower_global
from xlir.lowering.llvm.passes import (
    LoopToLLVMPass,
    add_declarations,
    global_type_errors,
    launch_code_unoptimized,
    lower_kernels,
    new_function,
    problems,
    report,
)
from xlir.lowering.llvm.scalars import EMITTERS
from xlir.targets.cpu.host_entry import ENTRY_TYPE, HOST_OPS, HostLowering
from xlir.targets.cpu.threaded_loops import lower_shared, lower_threaded

from xlir.walk import region_depth


class CpuEmitter(LLVMEmitter):
    """The neutral lowering, with loops marked `{threads = N}` by
    `parallelize` split across the thread pool's threads, equal unthreaded
    nests sharing one function (`lower_shared`), and `arith.dot_quads` on
    vectors of up to `byte_dot_bits` bits as x86's `vpdpbusd` (LLVM's
    `llvm.x86.avx512.vpdpbusd.*`, which AVX-VNNI's 256-bit form shares);
    0: no such instruction, plain integer code."""

    target = "cpu"

    def __init__(self, byte_dot_bits: int = 0) -> None:
        super().__init__()
        self.byte_dot_bits = byte_dot_bits
        if byte_dot_bits:
            self.lowerings["arith.dot_quads"] = self._dot_quads

    def _dot_quads(self, b: FunctionBuilder, op: Operation) -> None:
        type_ = op.results[0].type
        bits = 32 * type_.get_shape()[0] if isinstance(type_, VectorType) else 0
        if bits not in (128, 256, 512) or bits > self.byte_dot_bits:
            b.bind(op.results[0], EMITTERS["arith.dot_quads"](b, op))
            return
        name = f"llvm.x86.avx512.vpdpbusd.{bits}"
        args = [b.get(v) for v in op.operands]
        b.bind(op.results[0], b.intrinsic(name, args, type_))

    def lower_parallel(self, b: FunctionBuilder, op: Operation) -> None:
        assert isinstance(op, ParallelOp)
        if THREADS in op.attributes:
            lower_threaded(b, op)
        elif not lower_shared(b, op):
            super().lower_parallel(b, op)


@dataclass(frozen=True)
class CpuLoopToLLVMPass(LoopToLLVMPass):
    """Kernels to the llvm dialect, threaded loops to the thread pool (the
    cpu target's emitter)."""

    emitter = CpuEmitter

    byte_dot_bits: int = 0
    """The widest vector `vpdpbusd` takes on the machine compiled for
    (`TargetInfo.byte_dot_bits`); 0: none."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_kernels(op, CpuEmitter(self.byte_dot_bits), self.name, self.bounds_check)


TEMP_BYTES = "xlir.temp_bytes"
"""The module attribute `device-to-llvm` records each entry's `temp` bytes
in (a dictionary by host function), for the host to read before
translating the module: with `scratch-in-arena`, more than the plan's
arena."""

DEEP_CONTROL = 32
"""Host code with control flow nested deeper than this (while loops in while
loops ...) is left unoptimized: LLVM's loop passes take time growing with
the square of the nesting (minutes for 1,000 levels), and host code only
launches kernels, which are optimized as usual."""


@dataclass(frozen=True)
class DeviceToLLVMPass(ModulePass):
    """Host functions to native entry points, then globals to constants
    (the cpu target's entry ABI); see the module docstring."""

    name = "device-to-llvm"

    time_launches: bool = False
    """Wrap each launch in calls of the target's timers (launch_timers.py)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        emitter = CpuEmitter()
        hosts = [o for o in op.body.block.ops if isinstance(o, func.FuncOp)]
        globals_ = [o for o in op.body.block.ops if isinstance(o, GlobalOp)]
        report(
            problems(hosts, emitter, HOST_OPS)
            + [(g, e) for g in globals_ for e in global_type_errors(g)],
            self.name,
            emitter,
        )
        symbols = ModuleSymbols()
        timers = LaunchTimers() if self.time_launches else None
        collectives = CollectiveCalls()
        temps: dict[str, Attribute] = {}
        for host in hosts:
            function, region = new_function(host.sym_name.data, ENTRY_TYPE, "external")
            b = FunctionBuilder(region, symbols, emitter)
            lowering = HostLowering(host, b, timers, collectives)
            b.lower_op = lowering.wrap(emitter.lower_op)
            temps[host.sym_name.data] = IntegerAttr(lowering.temp_bytes, i64)
            for inner in host.body.block.ops:
                b.run(inner)
            deep = region_depth(host) > DEEP_CONTROL
            op.body.block.insert_op_before(function, host)
            host.detach()
            host.erase()
            launch_code_unoptimized([function])
            if deep:
                function.no_inline = UnitAttr()
                function.optimize_none = UnitAttr()
        for global_ in globals_:
            op.body.block.insert_op_before(lower_global(global_), global_)
            global_.detach()
            global_.erase()
        add_declarations(op, symbols)
        if timers is not None:
            timers.record(op)
        collectives.record(op)
        op.attributes[TEMP_BYTES] = DictionaryAttr(temps)
