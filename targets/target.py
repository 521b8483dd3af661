"""What a target is to the rest of xlir: a `Target` object.

A target has a name, a one-line description, a `TargetInfo` (the facts its
passes size their work by), the HLO-level and backend pipelines it runs
(lists of pass objects, built from `CompileOptions`), and its `Platform`
(the runtime: devices, streams, compiler; `targets/base.py`). Targets are
found through the registry (`targets/registry.py`); nothing outside a
target's own folder names it.

This module imports no target and no pass (only the passes' default vector
sizes): a target builds its pipelines when asked, so listing targets stays
cheap.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from xdsl.passes import ModulePass
from xlir.passes.loop.vector_sizes import DEFAULT_VECTOR_BITS, DEFAULT_VECTOR_REGISTERS

if TYPE_CHECKING:
    from collections.abc import Callable

    from llvmlite import ir as llvm_ir
    from llvmlite.binding import TargetMachine
    from xlir.targets.base import Platform

FAST_MATH_VARIABLE = "XLIR_FAST_MATH"
"""Set to 1, compiles default to `fast_math=True` (a thin alias of the option)."""

BOUNDS_CHECK_VARIABLE = "XLIR_CPU_BOUNDS_CHECK"
"""Set to 1, compiles default to `bounds_check=True` (a thin alias)."""

SORT_ROUTINES_VARIABLE = "XLIR_SORT_ROUTINES"
"""Set to 0, compiles default to `sort_routines=False` (a thin alias: the
merge sort kernels back for an A/B of a whole program or tool run)."""


@dataclass(frozen=True)
class TargetInfo:
    """The facts about a target's device that its passes need. Passes take
    them only as options, which the target's pipeline sets from here."""

    vector_bits: int = DEFAULT_VECTOR_BITS
    """Bits per vector register in the code the target makes."""
    vector_registers: int = DEFAULT_VECTOR_REGISTERS
    """Vector registers the code may use."""
    register_tile: tuple[int, int] | None = None
    """`register-tile`'s rows and f32 columns (mr, nr); None: the pass
    derives them from the registers."""
    threads: int = 0
    """Threads per parallel loop; 0: the cores online at run time."""
    byte_dot_bits: int = 0
    """The widest vector of i32 lanes a byte dot product instruction
    (x86's VNNI `vpdpbusd`: four u8 x s8 products added into each lane)
    takes; 0: none."""
    pointer_bits: int = 64
    element_types: frozenset[str] | None = None
    """MLIR spellings of the element types it computes; None: all of them."""
    ahead_of_time: bool = False
    """Whether it can compile to an object file to link into a program."""
    times_launches: bool = False
    """Whether its executables time each kernel launch on a device clock
    (`Executable.timed_call`, for `xlir-run --profile`), once compiled with
    `CompileOptions.time_launches` where the timers are code of their own."""
    device_code: bool = False
    """Ahead of time it makes code for a device the host drives (a GPU's
    kernels and the manifest of their launches), not an object to link:
    the tools compile for it only when it is named."""
    warp_size: int = 0
    """GPUs: threads that run in lockstep and can shuffle values (0: not a GPU)."""
    max_threads_per_block: int = 0
    """GPUs: the most threads a block (CUDA's CTA, a workgroup) may have."""
    shared_memory_bytes: int = 0
    """GPUs: the static shared (workgroup) memory a block may declare."""
    scratchpad_bytes: int = 0
    """Accelerators: the software-managed memory compute reads, which DMA fills."""


@dataclass(frozen=True)
class CompileOptions:
    """The choices of one compile, with values (not pipeline text)."""

    fast_math: bool = False
    """Float sums and products may be reassociated (partial sums that
    vectorize, as XLA:CPU's reductions); off: results are bit for bit those
    of a fixed order."""
    bounds_check: bool = False
    """Generated code checks each memory access against its buffer (a debug
    mode of the targets that compile to native code)."""
    threads: int | None = None
    """None: the target's (`TargetInfo.threads`); 1: no threads; N: at most N."""
    triple: str | None = None
    """Ahead of time: the LLVM triple to compile for; None: this host."""
    features: str | None = None
    """Ahead of time: LLVM's `+a,-b` features turning the host's or the
    triple's instructions on and off (`xlir-compile --features`); None:
    the machine's own."""
    time_launches: bool = False
    """Time each kernel launch (`xlir-run --profile`), where the target's
    `TargetInfo.times_launches`; code with timers of its own (cpu) is not
    cached."""
    library_calls: bool = True
    """f32 dots and convolutions call the GEMM routine the target has
    prebuilt for them where it covers them (`gemm-calls`, `conv-calls`), as
    XLA calls Eigen; off: every dot and convolution is a register-tiled
    kernel of its own."""
    sort_routines: bool = True
    """Sorts of one operand by a plain order call the target's sort routine,
    and top_ks its top_k routine, where it has them (`sort-routines`); off:
    every sort is a merge sort kernel of its own, every top_k a selection
    kernel."""

    def with_environment(self) -> CompileOptions:
        """These options, with `XLIR_FAST_MATH=1` and `XLIR_CPU_BOUNDS_CHECK=1`
        in the environment turning their switches on, `XLIR_SORT_ROUTINES=0`
        its off."""
        options = self
        if os.environ.get(FAST_MATH_VARIABLE) == "1":
            options = replace(options, fast_math=True)
        if os.environ.get(BOUNDS_CHECK_VARIABLE) == "1":
            options = replace(options, bounds_check=True)
        if os.environ.get(SORT_ROUTINES_VARIABLE) == "0":
            options = replace(options, sort_routines=False)
        return options


@dataclass(frozen=True)
class KnownGaps:
    """What a target does not compute yet, per test corpus, each listed with
    its reason in the target's own folder (e.g. targets/cpu/known_gaps.py).
    The test suite runs every registered target on every corpus and fails a
    case that is listed and passes, as well as one that fails unlisted."""

    corpus: dict[str, str] = field(default_factory=dict)
    """Program name of the test corpus (`mlp_fwd`) -> why it fails."""
    bench: dict[str, str] = field(default_factory=dict)
    """Program of the bench corpus (`matmul_512`) -> why it fails."""
    jax_exports: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Program of tests/jax_exports -> (whose work it waits for, a regular
    expression the failure's message matches)."""
    stablehlo_suite: dict[str, list[str]] = field(default_factory=dict)
    """File of StableHLO's interpreter suite -> its failing test functions
    (outside the collective files, which only the interpreter runs: see
    tests/e2e/test_stablehlo_suite.py)."""
    stablehlo_suite_files: frozenset[str] | None = None
    """The files of StableHLO's interpreter suite the target is held to
    (None: every file): hardware with fewer types than StableHLO has (no
    f64, no complex) names the files of the ops its programs use."""


@dataclass(frozen=True)
class LLVMBackend:
    """How a target that compiles through LLVM makes machine code from an
    llvm-dialect module (what `xlir-translate` needs of it)."""

    machine: Callable[[str | None, str | None, str | None, int], TargetMachine]
    """(triple, cpu, features, optimization level) -> an LLVM target machine;
    None for any of the first three: the target's default. A ValueError names
    what is wrong with them."""
    runtime: Callable[[llvm_ir.Module], None] | None = None
    """Defines the runtime functions the target's lowering calls, so that its
    object needs no runtime library, in an llvmlite module that holds
    declarations of the module's functions (`llvmlite_module.llvm_ir`)."""


class Target(ABC):
    """One kind of hardware xlir compiles for (module docstring)."""

    name: str = ""
    description: str = ""
    """One line, for `xlir-run --list-targets`."""
    is_reference: bool = False
    """Whether it is the reference the other targets are compared with
    (StableHLO's semantics as written): `registry.reference_target()`, the
    default of `xlir-run --bisect --against` and of differential testing."""
    runs_check_ops: bool = False
    """Whether its executables run `check.*` ops themselves and report what
    failed as `Executable.check_failures` (the reference does). Self-checking
    tests run on such a target as written; on any other, the check runner
    (tools/check_runner.py) compiles each test through `check-to-outputs`."""

    program_magic: bytes | None = None
    """The first bytes of the files its ahead-of-time compile writes that
    its compiler runs without compiling (`Compiler.load_ahead_of_time`:
    `xlir-run model.xa1`); None: it runs none."""

    def __init__(self) -> None:
        self._platform: Platform | None = None

    @abstractmethod
    def info(self, options: CompileOptions) -> TargetInfo:
        """The device's facts for a compile with `options` (an ahead-of-time
        triple's, or this host's)."""

    @abstractmethod
    def hlo_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """The HLO-level passes, from StableHLO to the fused, planned module."""

    @abstractmethod
    def backend_pipeline(self, options: CompileOptions) -> list[ModulePass]:
        """The passes from the planned HLO module to what the target emits."""

    def llvm_backend(self) -> LLVMBackend | None:
        """How it makes machine code through LLVM; None: it does not."""
        return None

    def known_gaps(self) -> KnownGaps:
        """What it does not compute yet (none by default)."""
        return KnownGaps()

    @abstractmethod
    def make_platform(self) -> Platform:
        """A new platform of this target (its runtime)."""

    def platform(self) -> Platform:
        """The target's platform, made on first use."""
        if self._platform is None:
            self._platform = self.make_platform()
            self._platform.target = self
        return self._platform
