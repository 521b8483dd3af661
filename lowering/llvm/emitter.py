"""`LLVMEmitter`: what each loop-level op becomes in the llvm dialect, for
one target.

The lowering itself (`passes.lower_kernels`, `FunctionBuilder`) knows no
target: it asks the emitter. The base class lowers scalars, memory,
sequential control, block transfers and calls of runtime routines; a target extends it (a subclass)
to change

* `lower_parallel`: how a `loop.parallel` runs (here: its iterations in
  order; the cpu target hands `{threads}`-marked loops to its thread pool);
* `math_function`: which function a transcendental calls (libm's names
  here);
* `kernel_function`: the kernel ABI, how a kernel's arguments arrive (here:
  an internal `noinline` function of pointers, `noalias` where no launch
  passes overlapping buffers);
* `address_space`: the LLVM address space of the buffers a kernel takes;
* `lowerings`: the table of op name -> lowering, to add ops or to drop
  them (an op without an entry is reported, naming `target`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import AnyFloat, IntAttr, MemRefType, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region
from xlir.dialects.llvm import FuncOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.control import CONTROL, lower_parallel_in_order
from xlir.lowering.llvm.function import (
    PTR,
    FunctionBuilder,
    Unsupported,
    function_type,
    llvm_type,
    noalias_attributes,
)
from xlir.lowering.llvm.memory import MEMORY
from xlir.lowering.llvm.routine_calls import ROUTINE_CALLS
from xlir.lowering.llvm.scalars import EMITTERS, Emitter, scalar_problem

Lowering = Callable[[FunctionBuilder, Operation], None]
"""Lowers one op into the function `FunctionBuilder` fills."""


def _binding(emit: Emitter) -> Lowering:
    """A scalar emitter as a lowering: its value becomes the op's result's."""

    def lower(b: FunctionBuilder, op: Operation) -> None:
        b.bind(op.results[0], emit(b, op))

    return lower


class LLVMEmitter:
    """The loop level in the llvm dialect; see the module docstring."""

    target = "llvm"
    """The target's name, as diagnostics give it."""

    address_space = 0
    """The LLVM address space of a kernel's buffers."""

    def __init__(self) -> None:
        self.lowerings: dict[str, Lowering] = {
            **{name: _binding(emit) for name, emit in EMITTERS.items()},
            **CONTROL,
            **MEMORY,
            **ROUTINE_CALLS,
            "loop.parallel": self.lower_parallel,
        }
        """Op name -> its lowering."""

    # --- ops ----------------------------------------------------------------------

    def lower_op(self, b: FunctionBuilder, op: Operation) -> None:
        """Lower `op` into `b` (`Unsupported` where the target has no lowering)."""
        lower = self.lowerings.get(op.name)
        if lower is None:
            raise Unsupported(op, self.missing())
        lower(b, op)

    def missing(self) -> str:
        """What a diagnostic says of an op without a lowering."""
        return f"has no lowering for target '{self.target}'"

    def problem(self, op: Operation) -> str | None:
        """Why `op` (one of `lowerings`) cannot be lowered as it is; None
        where it can."""
        if op.name in EMITTERS:
            return scalar_problem(op, self.target)
        return None

    def lower_parallel(self, b: FunctionBuilder, op: Operation) -> None:
        """A `loop.parallel`: its iterations in order, on one thread."""
        lower_parallel_in_order(b, op)

    def math_function(self, name: str, type_: AnyFloat) -> str:
        """The function a math op `name` (`exp`, `atan2`, ...; libm's names)
        calls on `type_` (f32 or f64): the C library's, `name` for f64 and
        `name`f for f32."""
        return name if type_.bitwidth == 64 else f"{name}f"

    # --- kernels --------------------------------------------------------------------

    def pointer_type(self) -> llvm.LLVMPointerType:
        """The type of a buffer a kernel takes (`!llvm.ptr` in space 0)."""
        if self.address_space == 0:
            return PTR
        return llvm.LLVMPointerType(IntAttr(self.address_space))

    def argument_type(self, type_: Attribute, kernel: Operation) -> Attribute:
        """The LLVM type a kernel argument of loop-level type `type_` arrives as."""
        lowered = llvm_type(type_, kernel)
        return self.pointer_type() if isinstance(type_, MemRefType) else lowered

    def kernel_function(
        self, kernel: KernelOp, distinct: Sequence[bool]
    ) -> tuple[llvm.FuncOp, Region]:
        """The empty function a kernel becomes, and its body: internal (the
        host code calls it in the same module), `noalias` on the buffers
        `distinct` marks (LLVM may keep loads in registers across stores and
        vectorize without run-time overlap checks), `noinline` (LLVM
        optimizes each kernel once, as itself: inlined into its caller, it
        went through the function passes twice)."""
        inputs = [self.argument_type(t, kernel) for t in kernel.argument_types]
        region = Region(Block(arg_types=inputs))
        function = FuncOp(  # xlir's llvm.func: device.launch may name it
            kernel.sym_name.data,
            function_type(tuple(inputs)),
            linkage=llvm.LinkageAttr("internal"),
            body=region,
        )
        function.arg_attrs = noalias_attributes(distinct)
        function.no_inline = UnitAttr()
        return function, region
