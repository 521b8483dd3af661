"""The `cpu` target as the registry sees it: its `TargetInfo` (this host's,
measured, or an ahead-of-time triple's generic CPU) and its pipelines, built
from pass objects whose sizes come from that info (docs/cpu.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.passes import ModulePass
from xlir.targets.base import Platform
from xlir.targets.target import (
    CompileOptions,
    KnownGaps,
    LLVMBackend,
    Target,
    TargetInfo,
)

from xlir.pass_manager import passes_of

if TYPE_CHECKING:
    from llvmlite.binding import TargetMachine

TRIPLE_INFO = {
    "x86_64": TargetInfo(vector_bits=128, vector_registers=16, ahead_of_time=True),
    "aarch64": TargetInfo(vector_bits=128, vector_registers=32, ahead_of_time=True),
    "riscv64": TargetInfo(
        vector_bits=32, vector_registers=32, register_tile=(4, 4), ahead_of_time=True
    ),
}
"""What another triple's generic CPU has, which cannot be measured as the
host's is: SSE2's 16 registers of 4 floats, NEON's 32 of 4, and rv64gc's
scalar floating-point registers (32 of one f32, tiles of 4 x 4)."""

SHORT_LOOP = 4
"""Inner scalar loops of at most this many iterations are unrolled fully
after the vector passes (`unroll{full-only}`), so that the loop around
them is innermost for LLVM's vectorizer."""


def _built_once(
    build: Callable[[CpuTarget, CompileOptions], list[ModulePass]],
) -> Callable[[CpuTarget, CompileOptions], list[ModulePass]]:
    """A pipeline method whose passes are built once per target class,
    options and `TargetInfo` (all they follow from), each call a fresh
    list of them: pass objects are frozen, so one serves every compile, and
    building the two pipelines (two dozen pass objects, the names imported
    from their modules) cost each compile ~0.3 ms."""
    built: dict[tuple[type, CompileOptions, TargetInfo], tuple[ModulePass, ...]] = {}

    @functools.wraps(build)
    def pipeline(self: CpuTarget, options: CompileOptions) -> list[ModulePass]:
        key = (type(self), options, self.info(options))
        if key not in built:
            built[key] = tuple(build(self, options))
        return list(built[key])

    return pipeline


class CpuTarget(Target):
    name = "cpu"
    description = "native code for this machine (or a triple) through LLVM"

    def info(self, options: CompileOptions) -> TargetInfo:
        """An AOT triple's from `TRIPLE_INFO` (a triple not listed: the
        passes' defaults), else this host's, measured once
        (targets/cpu/vector_width.py); its byte dot product instruction
        from the machine's features as `options.features` change them."""
        from xlir.targets.cpu.vector_width import (
            byte_dot_bits,
            host_features,
            vector_bits,
            vector_registers,
            with_features,
        )

        threads = options.threads if options.threads is not None else 0
        given = options.features or ""
        if options.triple is not None:
            arch = options.triple.split("-")[0]
            known = TRIPLE_INFO.get(arch, TargetInfo(ahead_of_time=True))
            return TargetInfo(
                vector_bits=known.vector_bits,
                vector_registers=known.vector_registers,
                register_tile=known.register_tile,
                threads=threads,
                ahead_of_time=True,
                byte_dot_bits=byte_dot_bits(with_features({}, given)),
            )
        return TargetInfo(
            vector_bits=vector_bits(),
            vector_registers=vector_registers(),
            byte_dot_bits=byte_dot_bits(with_features(host_features(), given)),
            threads=threads,
            ahead_of_time=True,
            times_launches=True,
        )

    @_built_once
    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-opt` with `quant-to-math` and `split-complex` after
        `decompose`, and `int-dot-quads` (where the host has a byte dot
        product instruction), `int-dot-in-f32`, `dot-layout` and
        `conv-padding` before `fuse`: quantized values as their storage
        integers, complex numbers as pairs of floats, int8 dots as dots of
        byte quads, exact narrow-integer dots as f32 dots, the
        dot kernels read their rhs with unit stride (or the GEMM routine
        in place), the
        convolution kernels an input padded beforehand (unless they call the
        conv routine, which reads the padding itself: `unpad-convs` after
        `fuse`, where library calls are on); `sort-routines`
        (unless `options.sort_routines` is off) before `fuse` too, so that
        plain sorts call the sort routine (targets/cpu/sort_routine.py) and
        top_ks the top_k routine (targets/cpu/top_k_routine.py);
        `decompose` keeps
        chlo.top_k for its selection kernel (lowering/kernels/top_k.py); and
        calls of public functions are inlined too, as XLA's call inliner
        does (the entry is compiled as one program; the loop level calls
        no functions of the program, only the runtime's routines)."""
        from xlir.passes.hlo.conv_padding import ConvPaddingPass
        from xlir.passes.hlo.decompose import DecomposePass
        from xlir.passes.hlo.fuse import FusePass
        from xlir.passes.hlo.inline import InlinePass
        from xlir.passes.hlo.int_dot_in_f32 import IntDotInF32Pass
        from xlir.passes.hlo.int_dot_quads import IntDotQuadsPass
        from xlir.passes.hlo.quant_to_math import QuantToMathPass
        from xlir.passes.hlo.sort_routines import SortRoutinesPass
        from xlir.passes.hlo.split_complex import SplitComplexPass
        from xlir.targets.cpu.unpad_convs import UnpadConvsPass

        passes: list[ModulePass] = []
        for pass_ in passes_of("hlo-opt"):
            if isinstance(pass_, InlinePass):
                passes.append(InlinePass(inline_public=True))
            elif isinstance(pass_, DecomposePass):
                passes += [
                    DecomposePass(keep_top_k=True),
                    QuantToMathPass(),
                    SplitComplexPass(),
                ]
            elif isinstance(pass_, FusePass):
                if self.info(options).byte_dot_bits:
                    passes.append(IntDotQuadsPass())
                if options.sort_routines:
                    passes.append(SortRoutinesPass())
                passes += [
                    IntDotInF32Pass(),
                    self._dot_layout(options),
                    ConvPaddingPass(),
                    pass_,
                ]
                if options.library_calls and not options.bounds_check:
                    passes.append(UnpadConvsPass())
            else:
                passes.append(pass_)
        return passes

    def _dot_layout(self, options: CompileOptions) -> ModulePass:
        """`dot-layout`, told the GEMM routine's panel width and longest sum,
        and the least matrices its batched entry takes and their sums (those
        of at most `SHORT_SUM` terms), where f32 dots will call it
        (`gemm-calls`): it then leaves an rhs the routine reads in place
        untransposed."""
        from xlir.passes.hlo.dot_layout import DotLayoutPass
        from xlir.targets.cpu.gemm_calls import (
            SHORT_SUM,
            SHORT_SUM_MATRIX,
            GemmCallsPass,
        )
        from xlir.targets.cpu.gemm_routine import MAX_K

        if not options.library_calls or options.bounds_check:
            return DotLayoutPass()
        info = self.info(options)
        mr, nr = info.register_tile or (0, 0)
        _, lanes = GemmCallsPass(
            mr=mr,
            lanes=nr // 2,
            vector_bits=info.vector_bits,
            vector_registers=info.vector_registers,
        ).tile()
        return DotLayoutPass(
            routine_panel=2 * lanes,
            routine_max_k=MAX_K,
            routine_batched_min=SHORT_SUM_MATRIX,
            routine_batched_max_k=SHORT_SUM,
        )

    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """`hlo-to-loop`, then `loop_pipeline`."""
        from xlir.lowering.hlo_to_loop import HloToLoopPass

        return [HloToLoopPass(), *self.loop_pipeline(options)]

    def llvm_backend(self) -> LLVMBackend:
        """This host's machine (or a triple's generic one), and the thread
        pool its threaded loops call."""
        from xlir.targets.cpu.host_machine import machine_for
        from xlir.targets.cpu.thread_runtime import define_runtime

        def machine(
            triple: str | None, cpu: str | None, features: str | None, opt: int
        ) -> TargetMachine:
            return machine_for(triple, cpu, features, opt=opt)

        return LLVMBackend(machine, define_runtime)

    @_built_once
    def loop_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """From the loop level to the llvm dialect: a module whose object
        code, with the thread pool `thread_runtime.define_runtime` defines where it is
        called, needs only the C library. The vector passes are sized by
        `info`; `fast_math` lets `vectorize` reassociate float sums (partial
        sums, as XLA:CPU's reductions); `threads=1` leaves `parallelize` out;
        `bounds_check` makes the code check every load and store;
        `time_launches` puts timers around each launch (launch_timers.py);
        `library_calls` makes f32 dots, convolutions and row dots call the
        prebuilt GEMM routine (`gemm-calls`, `conv-calls`, `row-dot-calls`),
        f32 zero pads and transposes its pad and transpose entries
        (`pad-calls`, `transpose-calls`) and int8 dots on byte quads the
        int8 routine (`int8-calls`, where the machine has `vpdpbusd`),
        unless every access is to be bounds-checked.
        Kernels equal up to their names are compiled once (`merge-kernels`),
        unless bounds checks (whose messages name each kernel's source) or
        launch timers (which report each kernel by name) ask for each."""
        from xlir.passes.loop.block_sums import BlockSumsPass
        from xlir.passes.loop.dot_quads import DotQuadsPass
        from xlir.passes.loop.expand_math import ExpandMathPass
        from xlir.passes.loop.fuse_kernels import FuseKernelsPass
        from xlir.passes.loop.int_in_float import IntInFloatPass
        from xlir.passes.loop.interleave import InterleavePass
        from xlir.passes.loop.jam_partials import JamPartialsPass
        from xlir.passes.loop.merge_kernels import MergeKernelsPass
        from xlir.passes.loop.pack_panels import PackPanelsPass
        from xlir.passes.loop.parallelize import ParallelizePass
        from xlir.passes.loop.register_tile import RegisterTilePass
        from xlir.passes.loop.scratch_in_arena import ScratchInArenaPass
        from xlir.passes.loop.split_divided import SplitDividedPass
        from xlir.passes.loop.split_ranges import SplitRangesPass
        from xlir.passes.loop.tile_transposes import TileTransposesPass
        from xlir.passes.loop.unroll import UnrollPass
        from xlir.passes.loop.unroll_last_dimension import UnrollLastDimensionPass
        from xlir.passes.loop.vectorize import VectorizePass
        from xlir.passes.loop.widen_floats import WidenFloatsPass
        from xlir.targets.cpu.conv_calls import ConvCallsPass
        from xlir.targets.cpu.gemm_calls import GemmCallsPass
        from xlir.targets.cpu.int8_calls import Int8CallsPass
        from xlir.targets.cpu.llvm_lowering import CpuLoopToLLVMPass, DeviceToLLVMPass
        from xlir.targets.cpu.pad_calls import PadCallsPass
        from xlir.targets.cpu.row_dot_calls import RowDotCallsPass
        from xlir.targets.cpu.transpose_calls import TransposeCallsPass

        info = self.info(options)
        mr, nr = info.register_tile or (0, 0)
        bits = info.vector_bits
        threads: list[ModulePass] = (
            []
            if info.threads == 1
            else [ParallelizePass(threads=info.threads, vector_bits=bits)]
        )
        in_float: list[ModulePass] = [IntInFloatPass()] if bits >= 128 else []
        merge: list[ModulePass] = (
            []
            if options.bounds_check or options.time_launches
            else [MergeKernelsPass()]
        )
        registers = info.vector_registers
        library = options.library_calls and not options.bounds_check
        sizes = {
            "mr": mr,
            "lanes": nr // 2,
            "threads": info.threads,
            "vector_bits": bits,
            "vector_registers": registers,
        }
        pads, calls = (
            [routine(**sizes) for routine in routines] if library else []
            for routines in (
                (PadCallsPass, TransposeCallsPass),
                (GemmCallsPass, ConvCallsPass, RowDotCallsPass),
            )
        )
        int8: list[ModulePass] = (
            [Int8CallsPass(**sizes, byte_dot_bits=info.byte_dot_bits)]
            if library and info.byte_dot_bits
            else []
        )
        return [
            WidenFloatsPass(),
            FuseKernelsPass(),
            *pads,
            SplitDividedPass(),
            SplitRangesPass(),
            DotQuadsPass(),
            *calls,
            *int8,
            RegisterTilePass(
                mr=mr, nr=nr, vector_bits=bits, vector_registers=registers
            ),
            VectorizePass(reassociate=options.fast_math, vector_bits=bits),
            PackPanelsPass(),
            BlockSumsPass(),
            JamPartialsPass(),
            UnrollPass(factor=SHORT_LOOP, full_only=True),
            ExpandMathPass(),
            *in_float,
            UnrollLastDimensionPass(max_trips=SHORT_LOOP),
            InterleavePass(vector_bits=bits),
            TileTransposesPass(vector_bits=bits),
            *threads,
            *merge,
            ScratchInArenaPass(),
            CpuLoopToLLVMPass(
                bounds_check=options.bounds_check, byte_dot_bits=info.byte_dot_bits
            ),
            DeviceToLLVMPass(time_launches=options.time_launches),
        ]

    def known_gaps(self) -> KnownGaps:
        from xlir.targets.cpu.known_gaps import GAPS

        return GAPS

    def make_platform(self) -> Platform:
        from xlir.targets.cpu import CpuCompiler
        from xlir.targets.host_memory import HostMemoryPlatform

        return HostMemoryPlatform(self.name, CpuCompiler)
