"""The interpreter's engine: a table of kernels by op name, and programs.

Each op is turned once, before anything runs, into a *kernel*: a Python
callable on numpy arrays made by the op's *factory* (`KERNELS[type(op)]`),
which reads the op's attributes up front. A block becomes a `Program`: a list
of steps (kernel, operand values, result values). Regions (reducer bodies,
while conditions and bodies, sort comparators) are programs too; their kernels
work on rank-0 arrays or, where a kernel vectorizes a region, on whole arrays
with numpy broadcasting.

A factory that cannot handle an op raises `Unsupported`; all of them are
collected, with their locations, into one error before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xlir.dialects.hlo import FusionOp, YieldOp
from xlir.dialects.stablehlo.control_flow import (
    CaseOp,
    CompositeOp,
    GetTupleElementOp,
    IfOp,
    OptimizationBarrierOp,
    ReturnOp,
    TupleOp,
    WhileOp,
)
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.dialects.stablehlo.elementwise import BitcastConvertOp
from xlir.dialects.stablehlo.quantization import UniformDequantizeOp, UniformQuantizeOp
from xlir.evaluator.hlo.flush import flushing
from xlir.evaluator.hlo.process_grid import ProcessContext, single_process
from xlir.evaluator.hlo.types import (
    Unsupported,
    dequantize,
    dtype_of,
    is_quantized,
    quantize,
    rounding,
)
from xlir.evaluator.registry import OpTable

from xlir.deep_stack import SHALLOW_DEPTH, run_deep
from xlir.diagnostics import XlirError, format_at_op
from xlir.walk import walk

Kernel = Callable[..., Any]
Factory = Callable[[Operation, "ModuleInterpreter"], Kernel]

KERNELS: OpTable[Factory] = OpTable()
"""op class -> factory(op, interpreter) -> kernel(*operand arrays)."""

impl = KERNELS.impl
"""`@impl(SomeOp, ...)`: register a kernel factory for the op classes given."""

KERNEL_MODULES = (
    "check",
    "chlo",
    "collectives",
    "contraction",
    "control_flow",
    "data_movement",
    "elementwise",
    "indexing",
    "linalg",
    "normalization",
    "reduction",
    "rng",
)
"""The modules of `xlir.evaluator.hlo` whose kernels register on import."""


def register_kernels() -> None:
    """Fill `KERNELS`: import every kernel module (again: a no-op). Done when
    an interpreter is made, not when this module loads, so that the kernels
    (which import this one) load only where something is evaluated."""
    for name in KERNEL_MODULES:
        import_module(f"xlir.evaluator.hlo.{name}")


TERMINATORS = {func.ReturnOp, ReturnOp, YieldOp}


def _make_fix(type_: Any) -> Callable[[Any], Any]:
    """Coerce a kernel's result to the host form of the result type."""
    if not isinstance(type_, TensorType):
        return lambda x: x
    dtype = dtype_of(type_)
    round_to_type = rounding(type_)
    if round_to_type is not None:

        def fix_narrow(x: Any) -> np.ndarray:
            return round_to_type(np.asarray(x, dtype=dtype))

        return fix_narrow

    def fix(x: Any) -> np.ndarray:
        if type(x) is not np.ndarray:
            x = np.asarray(x)
        if x.dtype != dtype:
            x = x.astype(dtype)
        return x

    return fix


class Program:
    """A compiled block: run it on its block arguments' values."""

    __slots__ = ("args", "captured", "ops", "returns", "steps")

    def __init__(self, block: Block, interp: ModuleInterpreter):
        self.args: list[SSAValue] = list(block.args)
        self.captured: dict[SSAValue, Any] = {}
        """Values of the enclosing scope this region uses (set before a run)."""
        self.steps: list[tuple[Any, ...]] = []
        self.returns: list[SSAValue] = []
        self.ops: list[Operation] = list(block.ops)
        for op in self.ops:
            if type(op) in TERMINATORS:
                self.returns = list(op.operands)
                continue
            fn = interp.make_kernel(op)
            if fn is None:
                continue
            try:
                fixes = [_make_fix(r.type) for r in op.results]
            except Unsupported as error:
                interp.report(op, str(error))
                continue
            if len(fixes) == 1:
                fix: Any = fixes[0]
            elif not fixes:
                fix = None
            else:
                fix = fixes
            captures = None
            if op.regions:
                outside = _captured_values(op, interp.captured)
                if outside:
                    programs = [
                        interp.region_programs[r]
                        for r in op.regions
                        if r in interp.region_programs
                    ]
                    captures = (outside, programs)
            self.steps.append(
                (fn, list(op.operands), list(op.results), fix, op, captures)
            )

    def run(self, values: Sequence[Any]) -> list[Any]:
        env: dict[SSAValue, Any] = dict(self.captured)
        env.update(zip(self.args, values, strict=True))
        step = None
        try:
            for step in self.steps:
                fn, ins, outs, fix, _, captures = step
                if captures is None:
                    result = fn(*[env[v] for v in ins])
                else:
                    result = _run_capturing(fn, [env[v] for v in ins], env, captures)
                if type(fix) is list:
                    for value, fixer, out in zip(outs, fix, result, strict=True):
                        env[value] = fixer(out)
                elif fix is not None:
                    env[outs[0]] = fix(result)
        except (XlirError, CheckFailure, RecursionError):
            raise
        except Exception as error:
            assert step is not None
            op = step[4]
            raise XlirError(
                format_at_op(op, f"'{op.name}' failed in the interpreter: {error}")
            ) from error
        return [env[v] for v in self.returns]


def _captured_values(
    op: Operation, known: dict[Operation, list[SSAValue]]
) -> list[SSAValue]:
    """Values used inside the op's regions but defined outside the op. Those
    of the region ops inside come from `known` (filled here): each op is
    looked at once however deep the regions nest."""
    cached = known.get(op)
    if cached is not None:
        return cached
    inside: set[SSAValue] = set()
    used: list[SSAValue] = []
    for region in op.regions:
        for block in region.blocks:
            inside.update(block.args)
            for nested in block.ops:
                inside.update(nested.results)
                used.extend(nested.operands)
                if nested.regions:
                    used.extend(_captured_values(nested, known))
    seen: set[SSAValue] = set()
    outside = []
    for value in used:
        if value not in inside and value not in seen:
            seen.add(value)
            outside.append(value)
    known[op] = outside
    return outside


def _run_capturing(
    fn: Kernel, args: list[Any], env: dict[SSAValue, Any], captures: Any
) -> Any:
    values, programs = captures
    bound = {v: env[v] for v in values}
    saved = [p.captured for p in programs]
    for program in programs:
        program.captured = bound
    try:
        return fn(*args)
    finally:
        for program, old in zip(programs, saved, strict=True):
            program.captured = old


QUANTIZED_NATIVE = {
    UniformQuantizeOp,
    UniformDequantizeOp,
    BitcastConvertOp,
    ConstantOp,
    # structure: values pass through to the ops inside, which see them
    FusionOp,
    func.CallOp,
    CompositeOp,
    WhileOp,
    CaseOp,
    IfOp,
    OptimizationBarrierOp,
    TupleOp,
    GetTupleElementOp,
}
"""Ops whose kernels work on quantized values' storage integers themselves
(or only pass them on); every other op on quantized types runs on their
dequantized values."""


def _has_quantized_types(op: Operation) -> bool:
    return any(is_quantized(v.type) for v in (*op.operands, *op.results))


def _expressed(type_: Attribute) -> Attribute:
    """A quantized tensor type with its expressed element type instead."""
    if not is_quantized(type_):
        return type_
    assert isinstance(type_, TensorType)
    quantized = type_.get_element_type()
    return TensorType(quantized.expressed_type, type_.get_shape())  # type: ignore[attr-defined]


def _dequantize_op_quantize(
    op: Operation, factory: Factory, interp: ModuleInterpreter
) -> Kernel:
    """The spec's semantics of an op on quantized values: dequantize the
    operands, run the op on the expressed values, quantize the results."""
    if op.regions:
        raise Unsupported("quantized operands of ops with regions are not supported")
    stand_in_block = Block(arg_types=[_expressed(v.type) for v in op.operands])
    stand_in = type(op).create(
        operands=list(stand_in_block.args),
        result_types=[_expressed(r.type) for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    inner = factory(stand_in, interp)
    ins = [v.type if is_quantized(v.type) else None for v in op.operands]
    outs = [r.type if is_quantized(r.type) else None for r in op.results]

    def run(*values: Any) -> Any:
        floats = [
            dequantize(v, t) if t is not None else v
            for v, t in zip(values, ins, strict=True)
        ]
        result = inner(*floats)
        results = result if len(outs) > 1 else [result]
        quantized = [
            quantize(r, t) if t is not None else r
            for r, t in zip(results, outs, strict=True)
        ]
        return quantized if len(outs) > 1 else quantized[0]

    return run


class CheckFailure(Exception):
    """A check.* op found a mismatch (the message says where and how)."""


class ModuleInterpreter:
    """A module prepared for the interpreter: one program per function."""

    def __init__(
        self,
        module: ModuleOp,
        sources: dict[str, str] | None = None,
        flush_denormals: bool = False,
    ):
        """`flush_denormals`: compute as XLA:CPU does, with f32 and f64
        denormals flushed to zero (`flush.py`), for comparisons with XLA."""
        register_kernels()
        self.module = module
        self.sources = sources or {}
        self.flush_denormals = flush_denormals
        self.functions: dict[str, Operation] = {}
        for op in walk(module):
            if isinstance(op, func.FuncOp):
                name = op.properties.get("sym_name") or op.attributes.get("sym_name")
                self.functions[name.data] = op  # type: ignore[union-attr]
        self.programs: dict[str, Program] = {}
        self.region_programs: dict[Region, Program] = {}
        self.depth = 0
        """How deeply the compiled regions nest (runs recurse as deep)."""
        self._open_regions = 0
        self.captured: dict[Operation, list[SSAValue]] = {}
        """The values each region op uses from outside it (`_captured_values`)."""
        self.errors: list[str] = []
        self.check_failures: list[str] = []
        """Failures of check.* ops that do not stop the run (in order)."""
        self.probes: dict[str, list[np.ndarray]] = {}
        """The values each `interpreter.probe` recorded, by probe id, one per
        execution."""
        self.process: ProcessContext | None = None
        """The process of a grid this interpreter runs as (process_grid.py);
        None: a grid of one, made when a collective first asks."""
        for name, function in self.functions.items():
            body = function.regions[0]
            if not body.blocks:  # a declaration
                continue
            self.programs[name] = Program(body.blocks[0], self)
        if self.errors:
            count = len(self.errors)
            head = (
                f"the interpreter does not support {count} op(s) of this module:"
                if count > 1
                else "the interpreter does not support an op of this module:"
            )
            raise XlirError(head + "\n" + "\n".join(self.errors))

    # --- used while compiling ---------------------------------------------

    def report(self, op: Operation, message: str) -> None:
        self.errors.append(format_at_op(op, message, self.sources))

    def make_kernel(self, op: Operation) -> Kernel | None:
        factory = KERNELS.lookup(op)
        if factory is None:
            self.report(op, f"'{op.name}' is not supported by the interpreter")
            return None
        try:
            if type(op) not in QUANTIZED_NATIVE and _has_quantized_types(op):
                return _dequantize_op_quantize(op, factory, self)
            kernel = factory(op, self)
        except Unsupported as error:
            self.report(op, f"'{op.name}': {error}")
            return None
        return flushing(kernel, op) if self.flush_denormals else kernel

    def compile_region(self, region: Region) -> Program:
        if len(region.blocks) != 1:
            raise Unsupported("regions with more than one block are not supported")
        self._open_regions += 1
        self.depth = max(self.depth, self._open_regions)
        try:
            program = Program(region.blocks[0], self)
        finally:
            self._open_regions -= 1
        self.region_programs[region] = program
        return program

    def function_program(self, name: str) -> Callable[[], Program]:
        """A getter for a function's program (functions may be compiled later
        than their callers, or call themselves)."""
        if name not in self.functions:
            raise Unsupported(f"there is no function @{name} in the module")
        if not self.functions[name].regions[0].blocks:
            raise Unsupported(f"@{name} is only declared, it has no body")
        return lambda: self.programs[name]

    # --- running ------------------------------------------------------------

    def process_context(self) -> ProcessContext:
        """The process the collectives run as (a grid of one by default)."""
        if self.process is None:
            self.process = single_process()
        return self.process

    def call(self, name: str, arguments: Sequence[np.ndarray]) -> list[np.ndarray]:
        if name not in self.programs:
            raise XlirError(f"error: there is no function @{name} with a body")
        program = self.programs[name]
        if self.depth > SHALLOW_DEPTH:
            return run_deep(lambda: self._run(program, arguments))
        return self._run(program, arguments)

    @staticmethod
    def _run(program: Program, arguments: Sequence[np.ndarray]) -> list[np.ndarray]:
        with np.errstate(all="ignore"):
            return program.run(list(arguments))
