"""One kernel of an optimized program as a program of its own.

After the HLO pipeline each top-level op of the entry function is one step of
the host schedule: an `hlo.fusion` is one kernel, an op left unfused (a
`dot_general`, a `while` with the kernels of its body) is one too, and a
`stablehlo.constant` is data, not a kernel. `kernel_module` copies a step
into a fresh module whose `@main` takes the values it reads (a fusion's
operands; for an op with regions, also the values its regions read from
outside) and returns its results, so that it compiles and runs alone on any
target, with the inputs the rest of the program would have given it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xlir.dialects.hlo import FusionOp
from xlir.dialects.hlo_buffers import BUFFERS

from xlir.source_locations import describe_source, text_location
from xlir.walk import walk

DATA_OPS = {"stablehlo.constant", "func.return"}
"""Top-level ops that launch nothing."""


@dataclass
class Kernel:
    """One step of the entry function: its op, a name to call it by, and
    the values of the entry function it reads, in order."""

    op: Operation
    name: str
    inputs: list[SSAValue]

    @property
    def description(self) -> str:
        """`fusion.3 (input fusion)` or `stablehlo.dot_general`."""
        if isinstance(self.op, FusionOp):
            return f"{self.name} ({self.op.fusion_kind.value} fusion)"
        return self.name


def entry_steps(function: func.FuncOp) -> list[tuple[Operation, Kernel | None]]:
    """The top-level ops of `function` in execution order, each with the
    kernel it launches (None for data and the return). Kernels are numbered
    from 1; an unfused op is named by its op name and that number."""
    steps: list[tuple[Operation, Kernel | None]] = []
    number = 0
    for op in function.body.block.ops:
        if op.name in DATA_OPS:
            steps.append((op, None))
            continue
        number += 1
        name = op.attributes.get("name")
        if isinstance(op, FusionOp) and isinstance(name, StringAttr):
            label = name.data
        else:
            label = f"{op.name}#{number}"
        steps.append((op, Kernel(op, label, read_from_outside(op))))
    return steps


def read_from_outside(op: Operation) -> list[SSAValue]:
    """The values `op` and the ops nested in it read that are defined
    outside it, each once, in the order first read."""
    seen: dict[SSAValue, None] = {}
    for inner in walk(op):
        for value in inner.operands:
            if value in seen:
                continue
            owner = value.owner
            holder = owner.parent_op() if isinstance(owner, Block) else owner
            if holder is op or (holder is not None and op.is_ancestor(holder)):
                continue
            seen[value] = None
    return list(seen)


def source_locations(op: Operation) -> list[str]:
    """The distinct `file:line:col` of `op` and the ops inside it, sorted
    by file and line: where the kernel's computation comes from; each with
    the user's Python line that made it where the text said (JAX's
    `loc(...)`: `f.mlir:4:5 [model.py:12:8 (jit(f)/exp)]`)."""
    found: dict[tuple[str, int, int], str] = {}
    for inner in walk(op):
        loc = text_location(inner.location)
        if loc is None:
            continue
        key = (loc.filename.data, loc.line.data, loc.column.data)
        source = describe_source(inner.location)
        if source is not None or key not in found:
            found[key] = f" [{source}]" if source else ""
    return [f"{f}:{line}:{col}{found[f, line, col]}" for f, line, col in sorted(found)]


def kernel_module(kernel: Kernel, program: ModuleOp) -> ModuleOp:
    """`@main(inputs...) -> results` computing the kernel alone; the
    functions of `program` it calls are copied beside it. The buffer plan's
    attributes are dropped: the kernel's own compile plans again."""
    block = Block(arg_types=[v.type for v in kernel.inputs])
    mapping: dict[SSAValue, SSAValue] = dict(
        zip(kernel.inputs, block.args, strict=True)
    )
    copy = kernel.op.clone(value_mapper=mapping)
    for inner in walk(copy):
        inner.attributes.pop(BUFFERS, None)
    block.add_ops([copy, func.ReturnOp(*copy.results)])
    main = func.FuncOp(
        "main",
        ([v.type for v in kernel.inputs], [r.type for r in copy.results]),
        Region(block),
    )
    return ModuleOp([main, *_callees(kernel.op, program)])


def _callees(op: Operation, program: ModuleOp) -> list[Operation]:
    """Copies of the functions of `program` that `op` calls, directly or
    through them."""
    functions = {f.sym_name.data: f for f in program.ops if isinstance(f, func.FuncOp)}
    wanted: dict[str, None] = {}
    pending = [op]
    while pending:
        for inner in walk(pending.pop()):
            callee = inner.properties.get("callee") or inner.attributes.get("callee")
            if isinstance(callee, SymbolRefAttr):
                name = callee.root_reference.data
                if name in functions and name not in wanted:
                    wanted[name] = None
                    pending.append(functions[name])
    return [functions[name].clone() for name in wanted]
