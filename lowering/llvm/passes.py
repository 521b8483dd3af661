"""`loop-to-llvm` and `device-to-llvm`: the loop level in xDSL's llvm dialect.

`loop-to-llvm` lowers every `loop.kernel` to an internal, `noinline`
`llvm.func` (buffers become pointers, `noalias` where no launch passes
overlapping buffers; index becomes i64); threaded loops call the thread
pool's `xlir.parallel_for`, which the module only declares (`threads.py`).
`device-to-llvm` lowers every host `func.func` to its native entry point
(`host`) and then every `loop.global` to an internal constant: a global goes
with the last of its uses (`loop.get_global` in a host function names a
`loop.global`; a kernel's `llvm.mlir.addressof` takes any symbol), so the IR
verifies between the two passes. Either leaves a function without
branches, or a host one with control flow nested more than `DEEP_CONTROL`
deep, unoptimized (`optnone`). Run both
(`loop-to-llvm,device-to-llvm`, as the CPU pipeline does) to get a module
xDSL's LLVM translation accepts. Before changing anything, each pass checks
every op it must lower and reports all it cannot, with locations, in one
diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xlir.analysis.kernel_aliasing import distinct_arguments, launches_by_kernel
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.control import CONTROL
from xlir.lowering.llvm.function import (
    FunctionBuilder,
    ModuleSymbols,
    Unsupported,
    llvm_type,
    noalias_attributes,
)
from xlir.lowering.llvm.host import ENTRY_TYPE, HostLowering
from xlir.lowering.llvm.launch_timers import LaunchTimers
from xlir.lowering.llvm.memory import MEMORY, lower_global
from xlir.lowering.llvm.scalars import EMITTERS, lower_scalar, narrow_float_problem

from xlir.diagnostics import XlirError, format_at_op
from xlir.walk import region_depth, walk

TERMINATORS = {"loop.yield", "loop.return", "scf.yield", "scf.condition"}
"""Handled by the op that owns their block."""

HOST_OPS = {
    "device.default_stream",
    "device.stream_create",
    "device.stream_destroy",
    "device.event_create",
    "device.event_destroy",
    "device.record",
    "device.wait",
    "device.synchronize",
    "device.alloc",
    "device.free",
    "device.copy",
    "device.read_scalar",
    "device.launch",
    "func.return",
}


def _lower_op(b: FunctionBuilder, op: Operation) -> None:
    if op.name in EMITTERS:
        lower_scalar(b, op)
    elif op.name in CONTROL:
        CONTROL[op.name](b, op)
    elif op.name in MEMORY:
        MEMORY[op.name](b, op)
    else:
        raise Unsupported(op, "has no CPU lowering")


def _problems(ops: Sequence[Operation], host: bool) -> list[tuple[Operation, str]]:
    """Every op among `ops` (and nested) the lowering would refuse. A type is
    checked once (by identity: the ops share their type objects, and hold
    them while this runs): checking each use cost while_loops' and conv2d's
    compiles 1.5-1.8 ms, once per type 0.5-0.6."""
    known = {*EMITTERS, *CONTROL, *MEMORY, *TERMINATORS, *(HOST_OPS if host else ())}
    found: list[tuple[Operation, str]] = []
    lowerable: set[int] = set()
    for top in ops:
        for op in walk(top):
            if op is top:
                continue
            if op.name not in known:
                found.append((op, "has no CPU lowering"))
                continue
            if op.name in EMITTERS and (problem := narrow_float_problem(op)):
                found.append((op, problem))
                continue
            try:
                for value in (*op.operands, *op.results):
                    type_ = value.type
                    if id(type_) not in lowerable:
                        if not type_.name.startswith("device."):
                            llvm_type(type_, op)
                        lowerable.add(id(type_))
            except Unsupported as error:
                found.append((op, str(error)))
    return found


def _report(problems: list[tuple[Operation, str]], what: str) -> None:
    if problems:
        lines = [format_at_op(op, f"'{op.name}' {reason}") for op, reason in problems]
        raise XlirError(
            f"{what} cannot lower {len(problems)} op(s) of this module:\n"
            + "\n".join(lines)
        )


def _declarations(module: ModuleOp, symbols: ModuleSymbols) -> None:
    """Add the external functions the lowering called and the strings it
    made, once each."""
    present = {
        op.sym_name.data
        for op in module.body.block.ops
        if isinstance(op, llvm.FuncOp | llvm.GlobalOp)
    }
    for name, declaration in {**symbols.declared, **symbols.strings}.items():
        if name not in present:
            module.body.block.insert_op_before(declaration, module.body.block.first_op)  # pyright: ignore[reportArgumentType]


def _new_function(
    name: str, type_: llvm.LLVMFunctionType, linkage: str
) -> tuple[llvm.FuncOp, Region]:
    region = Region(Block(arg_types=type_.inputs.data))
    function = llvm.FuncOp(name, type_, linkage=llvm.LinkageAttr(linkage), body=region)
    return function, region


@dataclass(frozen=True)
class LoopToLLVMPass(ModulePass):
    """Kernels and globals to the llvm dialect; see the module docstring."""

    name = "loop-to-llvm"

    bounds_check: bool = False
    """Check every load, store and block transfer against its buffer's
    bounds, aborting with a message where one is out (a debug mode:
    bounds_checks.py)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = [o for o in op.body.block.ops if isinstance(o, KernelOp)]
        _report(_problems(kernels, host=False), self.name)
        symbols = ModuleSymbols(self.bounds_check)
        launches = launches_by_kernel(op)
        lowered: list[llvm.FuncOp] = []
        for kernel in kernels:
            inputs = [llvm_type(t, kernel) for t in kernel.argument_types]
            type_ = llvm.LLVMFunctionType(inputs)
            function, region = _new_function(kernel.sym_name.data, type_, "internal")
            # noalias: LLVM may keep loads in registers across stores and
            # vectorize without run-time overlap checks
            function.arg_attrs = noalias_attributes(
                distinct_arguments(kernel, launches.get(kernel.sym_name.data, []))
            )
            # noinline: LLVM optimizes each kernel once, as itself (inlined
            # into the entry, it went through the function passes twice)
            function.no_inline = UnitAttr()
            b = FunctionBuilder(region, symbols, _lower_op)
            for old, new in zip(
                kernel.body.block.args, region.blocks[0].args, strict=True
            ):
                b.bind(old, new)
            b.lower_block(kernel.body.block)
            b.emit(llvm.ReturnOp())
            op.body.block.insert_op_before(function, kernel)
            kernel.detach()
            kernel.erase()
            lowered.append(function)
        defined = [f for f in symbols.declared.values() if f.body.blocks]
        _straight_code_unoptimized([*lowered, *defined])
        _declarations(op, symbols)


def _straight_code_unoptimized(functions: Iterable[llvm.FuncOp]) -> None:
    """Leave the functions without branches (host entries, thread launchers,
    grain entries, kernels of a few elements) as they are (`optnone`, which
    needs `noinline`): each runs once a call, and LLVM's -O2 pipeline on
    them took a tenth of its time on the bench programs for no run time."""
    for function in functions:
        if len(function.body.blocks) == 1:
            function.no_inline = UnitAttr()
            function.optimize_none = UnitAttr()


DEEP_CONTROL = 32
"""Host code with control flow nested deeper than this (while loops in while
loops ...) is left unoptimized too: LLVM's loop passes take time growing
with the square of the nesting (minutes for 1,000 levels), and host code
only launches kernels, which are optimized as usual."""


def _type_errors(global_: GlobalOp) -> list[str]:
    try:
        llvm_type(global_.value.get_element_type(), global_)
    except Unsupported as error:
        return [str(error)]
    return []


@dataclass(frozen=True)
class DeviceToLLVMPass(ModulePass):
    """Host functions to native entry points; see the module docstring."""

    name = "device-to-llvm"

    time_launches: bool = False
    """Wrap each launch in calls of the target's timers (launch_timers.py)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hosts = [o for o in op.body.block.ops if isinstance(o, func.FuncOp)]
        globals_ = [o for o in op.body.block.ops if isinstance(o, GlobalOp)]
        _report(
            _problems(hosts, host=True)
            + [(g, str(e)) for g in globals_ for e in _type_errors(g)],
            self.name,
        )
        symbols = ModuleSymbols()
        timers = LaunchTimers() if self.time_launches else None
        for host in hosts:
            function, region = _new_function(host.sym_name.data, ENTRY_TYPE, "external")
            b = FunctionBuilder(region, symbols, _lower_op)
            b.lower_op = HostLowering(host, b, timers).wrap(_lower_op)
            for inner in host.body.block.ops:
                b.run(inner)
            deep = region_depth(host) > DEEP_CONTROL
            op.body.block.insert_op_before(function, host)
            host.detach()
            host.erase()
            _straight_code_unoptimized([function])
            if deep:
                function.no_inline = UnitAttr()
                function.optimize_none = UnitAttr()
        for global_ in globals_:
            op.body.block.insert_op_before(lower_global(global_), global_)
            global_.detach()
            global_.erase()
        _declarations(op, symbols)
        if timers is not None:
            timers.record(op)
