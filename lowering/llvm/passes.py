"""`loop-to-llvm` for any target: the kernels and globals of the loop level
in xDSL's llvm dialect.

`lower_kernels` lowers every `loop.kernel` to an `llvm.func` over pointers
(buffers become pointers, index becomes i64), as the target's emitter
(`emitter.LLVMEmitter`) says: the kernel ABI, `loop.parallel`, math calls,
address spaces. `LoopToLLVMPass` is the pass a target registers, naming its
emitter. Host code (the `device` dialect) is the target's own (the cpu
target's `device-to-llvm`). A function left without branches, by either,
or whose loops only launch, is left unoptimized (`optnone`). Before
changing anything, each lowering checks every op it must lower and reports
all it cannot, with locations and the target's name, in one diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xlir.analysis.kernel_aliasing import distinct_arguments, launches_by_kernel
from xlir.dialects.loop.globals import GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.lowering.llvm.emitter import LLVMEmitter
from xlir.lowering.llvm.function import (
    FunctionBuilder,
    ModuleSymbols,
    Unsupported,
    llvm_type,
)

from xlir.diagnostics import refuse_ops
from xlir.walk import walk

TERMINATORS = {"loop.yield", "loop.return", "scf.yield", "scf.condition"}
"""Handled by the op that owns their block."""


DATA_REGIONS = frozenset({"device.collective"})
"""Ops whose region is data a runtime reads (what to exchange), not code."""


def problems(
    ops: Sequence[Operation], emitter: LLVMEmitter, also: Iterable[str] = ()
) -> list[tuple[Operation, str]]:
    """Every op among `ops` (and nested) the lowering would refuse (`also`:
    names a caller lowers itself). A type is checked once (by identity: the
    ops share their type objects, and hold them while this runs): checking
    each use cost while_loops' and conv2d's compiles 1.5-1.8 ms, once per
    type 0.5-0.6."""
    known = {*emitter.lowerings, *TERMINATORS, *also}
    found: list[tuple[Operation, str]] = []
    lowerable: set[int] = set()
    for top in ops:
        data: set[int] = set()
        for op in walk(top):
            if op is top or id(op) in data:
                continue
            if op.name in DATA_REGIONS:
                data.update(id(inner) for inner in walk(op) if inner is not op)
            if op.name not in known:
                found.append((op, emitter.missing()))
                continue
            if problem := emitter.problem(op):
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


def report(
    problems: list[tuple[Operation, str]], what: str, emitter: LLVMEmitter
) -> None:
    """Raise one XlirError listing `problems` (none: nothing), each line
    once (copies of one op, as unrolling makes, share their location)."""
    messages = [(op, f"'{op.name}' {reason}") for op, reason in problems]
    where = f"of this module for target '{emitter.target}'"
    refuse_ops(f"{what} cannot lower", messages, where)


def add_declarations(module: ModuleOp, symbols: ModuleSymbols) -> None:
    """Add the external functions the lowering called and the strings and
    variables it made, once each."""
    present = {
        op.sym_name.data
        for op in module.body.block.ops
        if isinstance(op, llvm.FuncOp | llvm.GlobalOp)
    }
    added = {**symbols.declared, **symbols.strings, **symbols.globals}
    for name, declaration in added.items():
        if name not in present:
            module.body.block.insert_op_before(declaration, module.body.block.first_op)  # pyright: ignore[reportArgumentType]


def new_function(
    name: str, type_: llvm.LLVMFunctionType, linkage: str
) -> tuple[llvm.FuncOp, Region]:
    """An `llvm.func` with an empty entry block of its arguments, and its body."""
    region = Region(Block(arg_types=type_.inputs.data))
    function = llvm.FuncOp(name, type_, linkage=llvm.LinkageAttr(linkage), body=region)
    return function, region


def lower_kernels(
    module: ModuleOp, emitter: LLVMEmitter, what: str, bounds_check: bool = False
) -> None:
    """Every kernel of `module` to an `llvm.func` as `emitter` says, in
    place; `what` names the lowering in diagnostics. `bounds_check`: each
    load, store and block transfer checks its buffer's bounds first
    (bounds_checks.py)."""
    kernels = [o for o in module.body.block.ops if isinstance(o, KernelOp)]
    report(problems(kernels, emitter), what, emitter)
    symbols = ModuleSymbols(bounds_check)
    launches = launches_by_kernel(module)
    lowered: list[llvm.FuncOp] = []
    for kernel in kernels:
        distinct = distinct_arguments(kernel, launches.get(kernel.sym_name.data, []))
        function, region = emitter.kernel_function(kernel, distinct)
        b = FunctionBuilder(region, symbols, emitter)
        for old, new in zip(kernel.body.block.args, region.blocks[0].args, strict=True):
            b.bind(old, new)
        b.lower_block(kernel.body.block)
        b.emit(llvm.ReturnOp())
        module.body.block.insert_op_before(function, kernel)
        # Detached whole, not erased: a later kernel's nests compare with its
        # (threaded_loops.py), and nothing outside a kernel uses its values
        # (it is isolated from above), so erasing would only walk each op to
        # drop references that the collector frees with it.
        kernel.detach()
        lowered.append(function)
    defined = [f for f in symbols.declared.values() if f.body.blocks]
    launch_code_unoptimized([*lowered, *defined])
    add_declarations(module, symbols)


def launch_code_unoptimized(functions: Iterable[llvm.FuncOp]) -> None:
    """Leave the functions without branches (host entries, thread launchers,
    grain entries, kernels of a few elements) as they are (`optnone`, which
    needs `noinline`): each runs once a call, and LLVM's -O2 pipeline on
    them took a tenth of its time on the bench programs for no run time.
    So too the functions whose loops only launch (`_launches_only`): a
    sort's passes, each launching its merges on the threads."""
    for function in functions:
        if len(function.body.blocks) == 1 or _launches_only(function):
            function.no_inline = UnitAttr()
            function.optimize_none = UnitAttr()


def _launches_only(function: llvm.FuncOp) -> bool:
    """Whether the function reads no memory and writes only its own stack
    (the records of its launches' arguments): then what it computes is
    which calls to make, and the work is in the callees, which are
    optimized where they are defined. Ops are told by their exact class
    (`type(op) is`): an `isinstance` on xDSL's op classes goes through
    `ABCMeta`, a cost on every op of every function."""
    ops = list(walk(function))
    stack = {op.res for op in ops if type(op) is llvm.AllocaOp}
    for op in ops:
        if type(op) is llvm.LoadOp or type(op) is llvm.InlineAsmOp:
            return False
        if type(op) is llvm.StoreOp:
            address = op.ptr
            while type(address.owner) is llvm.GEPOp:
                address = address.owner.ptr
            if address not in stack:
                return False
        if type(op) is llvm.CallIntrinsicOp and any(
            isinstance(a.type, llvm.LLVMPointerType) for a in op.args
        ):
            return False
    return True


def global_type_errors(global_: GlobalOp) -> list[str]:
    """Why a `loop.global`'s elements have no LLVM type (none: they do)."""
    try:
        llvm_type(global_.value.get_element_type(), global_)
    except Unsupported as error:
        return [str(error)]
    return []


@dataclass(frozen=True)
class LoopToLLVMPass(ModulePass):
    """Kernels to the llvm dialect as the target's `emitter` says (a target
    subclasses the pass and names its emitter class); see the module
    docstring."""

    name = "loop-to-llvm"

    emitter: ClassVar[type[LLVMEmitter]] = LLVMEmitter
    """The target's emitter class."""

    bounds_check: bool = False
    """Check every load, store and block transfer against its buffer's
    bounds, aborting with a message where one is out (a debug mode:
    bounds_checks.py)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_kernels(op, self.emitter(), self.name, self.bounds_check)
