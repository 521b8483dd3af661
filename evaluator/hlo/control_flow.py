"""Calls and control flow: func.call, while, case, if, composite,
optimization_barrier, tuples; custom_call runs the LAPACK routines of jnp.linalg
(lapack.py) and refuses any other target with a diagnostic
(rng_bit_generator is in rng.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Operation
from xlir.dialects.hlo import FusionOp
from xlir.dialects.stablehlo.control_flow import (
    AfterAllOp,
    CaseOp,
    CompositeOp,
    CreateTokenOp,
    CustomCallOp,
    GetTupleElementOp,
    IfOp,
    OptimizationBarrierOp,
    TupleOp,
    WhileOp,
)
from xlir.dialects.stablehlo.lapack import (
    LapackCallError,
    is_lapack_target,
    lapack_call,
)
from xlir.evaluator.hlo.data_movement import int_attr
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.lapack import lapack_kernel
from xlir.evaluator.hlo.types import Unsupported

Array = Any


def _symbol(value: Any) -> str:
    if value is None:
        raise Unsupported("missing the callee")
    root = getattr(value, "root_reference", None)
    if root is not None:
        return root.data
    data = getattr(value, "data", value)
    return str(getattr(data, "data", data))


def _unpack(results: list[Array], count: int) -> Any:
    return results[0] if count == 1 else results


@impl(func.CallOp)
def _call(op: Operation, interp: ModuleInterpreter):
    callee = _symbol(attribute(op, "callee"))
    program = interp.function_program(callee)
    count = len(op.results)
    return lambda *args: _unpack(program().run(args), count)


@impl(CompositeOp)
def _composite(op: Operation, interp: ModuleInterpreter):
    callee = _symbol(attribute(op, "decomposition"))
    program = interp.function_program(callee)
    count = len(op.results)
    return lambda *args: _unpack(program().run(args), count)


@impl(WhileOp)
def _while(op: Operation, interp: ModuleInterpreter):
    if len(op.regions) != 2:
        raise Unsupported("needs a cond and a body region")
    cond = interp.compile_region(op.regions[0])
    body = interp.compile_region(op.regions[1])
    count = len(op.results)

    def run(*values: Array) -> Any:
        current = list(values)
        while bool(cond.run(current)[0]):
            current = body.run(current)
        return _unpack(current, count)

    return run


@impl(CaseOp)
def _case(op: Operation, interp: ModuleInterpreter):
    branches = [interp.compile_region(r) for r in op.regions]
    if not branches:
        raise Unsupported("needs at least one branch")
    count = len(op.results)

    def run(index: Array, *values: Array) -> Any:
        i = int(index)
        if not 0 <= i < len(branches):
            i = len(branches) - 1
        return _unpack(branches[i].run(list(values)), count)

    return run


@impl(IfOp)
def _if(op: Operation, interp: ModuleInterpreter):
    then, otherwise = (interp.compile_region(r) for r in op.regions)
    count = len(op.results)
    return lambda pred: _unpack((then if bool(pred) else otherwise).run([]), count)


@impl(OptimizationBarrierOp)
def _barrier(op: Operation, interp: ModuleInterpreter):
    count = len(op.results)
    return lambda *values: values[0] if count == 1 else list(values)


@impl(TupleOp)
def _tuple(op: Operation, interp: ModuleInterpreter):
    return lambda *values: tuple(values)


@impl(GetTupleElementOp)
def _get_tuple_element(op: Operation, interp: ModuleInterpreter):
    index = int_attr(op, "index")
    return lambda value: value[index]


@impl(CustomCallOp)
def _custom_call(op: Operation, interp: ModuleInterpreter):
    target = attribute(op, "call_target_name")
    name = getattr(target, "data", target)
    if is_lapack_target(str(name)):
        try:
            return lapack_kernel(lapack_call(op))
        except LapackCallError as error:
            raise Unsupported(str(error)) from None
    raise Unsupported(
        f"custom call target '{name}' is not supported (custom calls are "
        "opaque to the interpreter)"
    )


@impl(AfterAllOp, CreateTokenOp)
def _token(op: Operation, interp: ModuleInterpreter):
    return lambda *values: np.zeros((), np.bool_)


@impl(FusionOp)
def _fusion(op: Operation, interp: ModuleInterpreter):
    """A fusion runs its body on its operands (the interpreter does not fuse)."""
    if len(op.regions) != 1:
        raise Unsupported("needs one body region")
    body = interp.compile_region(op.regions[0])
    count = len(op.results)
    return lambda *values: _unpack(body.run(list(values)), count)
