"""assign-buffers: plans of random programs are sound, the plan attributes
change no result, `verify_plan` catches inconsistent plans, and the report
gives XLA's figures."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.hlo_buffers import (
    BUFFERS,
    PLAN,
    TEMP,
    BufferAttr,
    PlanAttr,
    verify_plan,
)
from xlir.passes.hlo.assign_buffers import AssignBuffersPass
from xlir.passes.hlo.buffers.plan import Buffer, FunctionPlan, plan_function
from xlir.passes.hlo.buffers.report import buffer_report, buffer_stats
from xlir.targets.base import planned_memory_stats
from xlir.targets.signatures import function_signature

import xlir
from tests.corpus import PROGRAMS, load_case
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import PIPELINES, run_pipeline
from xlir.signature import MemoryStats


def parse(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "test.mlir")


def only_function(module: ModuleOp) -> FuncOp:
    (func,) = [op for op in module.walk() if isinstance(op, FuncOp)]
    return func


# --- random straight-line programs ------------------------------------------------

SHAPES = [(16,), (4, 4), (8, 8), (64,), (2, 8)]


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    """A function of elementwise ops, views, transposes, broadcasts and loop
    fusions over f32 tensors; some values are returned, some parameters donated."""
    params = draw(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3))
    values: list[tuple[str, tuple[int, ...]]] = [
        (f"%p{i}", s) for i, s in enumerate(params)
    ]
    lines: list[str] = []

    def ty(shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}xf32>"

    for n in range(draw(st.integers(1, 12))):
        name, shape = draw(st.sampled_from(values))
        same = [v for v in values if v[1] == shape]
        kind = draw(
            st.sampled_from(
                ["unary", "binary", "reshape", "transpose", "broadcast", "fusion"]
            )
        )
        out = f"%v{n}"
        t = ty(shape)
        if kind == "unary":
            op = draw(st.sampled_from(["tanh", "negate", "sine"]))
            lines.append(f"{out} = stablehlo.{op} {name} : {t}")
        elif kind == "binary":
            other = draw(st.sampled_from(same))[0]
            op = draw(st.sampled_from(["add", "multiply", "subtract"]))
            lines.append(f"{out} = stablehlo.{op} {name}, {other} : {t}")
        elif kind == "reshape":
            size = int(np.prod(shape))
            shape = draw(st.sampled_from([(size,), (size // 4, 4), (1, size)]))
            lines.append(f"{out} = stablehlo.reshape {name} : ({t}) -> {ty(shape)}")
        elif kind == "transpose" and len(shape) == 2:
            shape = (shape[1], shape[0])
            lines.append(
                f"{out} = stablehlo.transpose {name}, dims = [1, 0] : ({t}) -> {ty(shape)}"
            )
        elif kind == "broadcast":
            rows = draw(st.sampled_from([1, 2]))
            dims = ", ".join(str(d + 1) for d in range(len(shape)))
            shape = (rows, *shape)
            lines.append(
                f"{out} = stablehlo.broadcast_in_dim {name}, dims = [{dims}] : "
                f"({t}) -> {ty(shape)}"
            )
        else:
            other = draw(st.sampled_from(same))[0]
            body = "%tr = stablehlo.tanh %a"
            if len(shape) == 2 and shape[0] == shape[1] and draw(st.booleans()):
                body = f"%tr = stablehlo.transpose %a, dims = [1, 0] : ({t}) -> {t}"
            else:
                body += f" : {t}"
            lines.append(
                f"{out} = hlo.fusion kind = loop ({name}, {other}) : ({t}, {t}) -> {t} {{\n"
                f"  ^bb0(%a: {t}, %b: {t}):\n    {body}\n"
                f"    %m = stablehlo.multiply %tr, %b : {t}\n    hlo.yield %m : {t}\n  }}"
            )
        values.append((out, shape))
    results = draw(
        st.lists(st.sampled_from(values[len(params) :]), min_size=1, max_size=3)
    )
    donors = {
        i: draw(st.sampled_from(range(len(results))))
        for i, shape in enumerate(params)
        if draw(st.booleans())
    }
    args = ", ".join(
        f"%p{i}: {ty(s)}"
        + (f" {{tf.aliasing_output = {donors[i]} : i32}}" if i in donors else "")
        for i, s in enumerate(params)
    )
    text = (
        f"func.func @main({args}) -> ({', '.join(ty(s) for _, s in results)}) {{\n  "
        + "\n  ".join(lines)
        + f"\n  func.return {', '.join(v for v, _ in results)} : "
        + ", ".join(ty(s) for _, s in results)
        + "\n}\n"
    )
    return text, params


def assert_no_overlap(plan: FunctionPlan) -> None:
    """Temp buffers whose lifetimes overlap have disjoint, aligned bytes inside
    the arena."""
    temps = [b for b in plan.buffers if b.kind == TEMP and b.size]
    for buffer in temps:
        offset = buffer.location.offset_value  # pyright: ignore[reportOptionalMemberAccess]
        assert offset is not None and offset % plan.alignment == 0
        assert offset + buffer.size <= plan.arena
    for i, a in enumerate(temps):
        for b in temps[i + 1 :]:
            if a.start <= b.end and b.start <= a.end:
                a0 = a.location.offset_value  # pyright: ignore[reportOptionalMemberAccess]
                b0 = b.location.offset_value  # pyright: ignore[reportOptionalMemberAccess]
                assert a0 + a.size <= b0 or b0 + b.size <= a0, (a.values, b.values)  # pyright: ignore[reportOptionalOperand]


class PlannedMemory:
    """Runs a straight-line program in the memory the plan gives it: every
    value is read from and written to its buffer (temp values at their arena
    offsets), so a buffer overwritten while still needed gives a wrong
    operand, which `run` reports."""

    def __init__(self, plan: FunctionPlan, arguments: list[np.ndarray]):
        self.plan = plan
        self.arena = np.zeros(max(plan.arena, 1), np.uint8)
        self.own: dict[int, np.ndarray] = {}
        self.written_arguments: set[int] = set()
        block = plan.func.body.block
        for arg, array in zip(block.args, arguments, strict=True):
            self.own[id(plan.buffer_of[arg])] = array.view(np.uint8).reshape(-1).copy()

    def _bytes(self, buffer: Buffer) -> np.ndarray:
        if buffer.kind == TEMP:
            offset = buffer.location.offset_value  # pyright: ignore[reportOptionalMemberAccess]
            return self.arena[offset : offset + buffer.size]
        return self.own.setdefault(id(buffer), np.zeros(buffer.size, np.uint8))

    def read(self, value: SSAValue) -> np.ndarray:
        shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        return self._bytes(self.plan.buffer_of[value]).view(np.float32).reshape(shape)

    def write(self, value: SSAValue, array: np.ndarray) -> None:
        buffer = self.plan.buffer_of[value]
        data = np.ascontiguousarray(array, np.float32).view(np.uint8).reshape(-1)
        target = self._bytes(buffer)
        if np.array_equal(target, data):
            return  # a view: the bytes are already there
        if buffer.arguments and not buffer.outputs:
            raise AssertionError(f"{value} overwrites a parameter")
        target[:] = data


def evaluate(op, operands: list[np.ndarray]) -> np.ndarray:
    """numpy semantics of the ops `programs` draws."""
    result_shape = op.results[0].type.get_shape()
    name = op.name.removeprefix("stablehlo.")
    if name in ("tanh", "negate", "sine"):
        return {"tanh": np.tanh, "negate": np.negative, "sine": np.sin}[name](
            operands[0]
        )
    if name in ("add", "multiply", "subtract"):
        return {"add": np.add, "multiply": np.multiply, "subtract": np.subtract}[name](
            *operands
        )
    if name == "reshape":
        return operands[0].reshape(result_shape)
    if name == "transpose":
        return operands[0].T
    if name == "broadcast_in_dim":
        return np.broadcast_to(operands[0], result_shape)
    assert op.name == "hlo.fusion"
    env = dict(zip(op.block.args, operands, strict=True))
    for inner in op.block.ops:
        if inner.name == "hlo.yield":
            return env[inner.operands[0]]
        env[inner.results[0]] = evaluate(inner, [env[v] for v in inner.operands])
    raise AssertionError("fusion without a yield")


def run_in_plan(plan: FunctionPlan, arguments: list[np.ndarray]) -> None:
    memory = PlannedMemory(plan, arguments)
    reference: dict[SSAValue, np.ndarray] = dict(
        zip(plan.func.body.block.args, arguments, strict=True)
    )
    for op in plan.func.body.block.ops:
        if op.name == "func.return":
            for value in op.operands:
                np.testing.assert_array_equal(memory.read(value), reference[value])
            return
        operands = []
        for value in op.operands:
            operands.append(memory.read(value).copy())
            np.testing.assert_array_equal(
                operands[-1], reference[value], err_msg=f"operand of {op.name}"
            )
        expected = evaluate(op, [reference[v] for v in op.operands])
        reference[op.results[0]] = np.asarray(expected, np.float32)
        memory.write(op.results[0], evaluate(op, operands))


@settings(max_examples=150, deadline=None)
@given(programs(), st.sampled_from([1, 16, 64]))
def test_random_programs_get_sound_plans(program, alignment) -> None:
    text, params = program
    func = only_function(parse(text))
    plan = plan_function(func, alignment)
    assert_no_overlap(plan)
    rng = np.random.default_rng(0)
    arguments = [rng.uniform(-1, 1, s).astype(np.float32) for s in params]
    run_in_plan(plan, arguments)
    AssignBuffersPass(alignment=alignment).apply(make_context(), func.parent_op())  # pyright: ignore[reportArgumentType]
    verify_plan(func)


# --- the attributes are discardable ---------------------------------------------

WITHOUT_PLAN = ",".join(p for p in PIPELINES["hlo-opt"] if p != "assign-buffers")
CORPUS = [p for p in PROGRAMS if not p.name.endswith(".export.mlir")]


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_plan_changes_no_output(path) -> None:
    arguments, _ = load_case(path)
    planned = xlir.compile(path, pipeline=WITHOUT_PLAN + ",assign-buffers")
    plain = xlir.compile(path, pipeline=WITHOUT_PLAN)
    got, want = planned(*arguments), plain(*arguments)
    for a, b in zip(
        got if isinstance(got, tuple) else (got,),
        want if isinstance(want, tuple) else (want,),
        strict=True,
    ):
        np.testing.assert_array_equal(a, b)
    module = planned.module  # pyright: ignore[reportAttributeAccessIssue]
    for func in module.walk():
        if isinstance(func, FuncOp) and func.body.blocks:
            verify_plan(func)


# --- verify_plan --------------------------------------------------------------------

PLANNED = """
func.func @f(%w: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<16xf32> {
  %a = stablehlo.tanh %g : tensor<16xf32>
  %b = stablehlo.negate %a : tensor<16xf32>
  %r = stablehlo.add %a, %b : tensor<16xf32>
  func.return %r : tensor<16xf32>
}
"""


def planned() -> FuncOp:
    module = parse(PLANNED)
    AssignBuffersPass().apply(make_context(), module)
    func = only_function(module)
    verify_plan(func)
    return func


def set_buffer(func: FuncOp, index: int, buffer: BufferAttr) -> None:
    op = list(func.body.block.ops)[index]
    op.attributes[BUFFERS] = ArrayAttr([buffer])


@pytest.mark.parametrize(
    ("buffer", "message"),
    [
        (BufferAttr.temp(32, 64), "offset 32 is not a multiple of the alignment 64"),
        (BufferAttr.temp(64, 64), "bytes [64, 128) lie outside the arena of 64"),
        (BufferAttr.temp(0, 32), "buffer size 32 differs from the 64 bytes"),
        (BufferAttr("arg", argument=2), "arg 2 is out of range"),
        (BufferAttr("out", output=1), "out 1 is out of range"),
        (
            BufferAttr("out", output=0, argument=0),
            "output 0 cannot live in parameter 0",
        ),
    ],
)
def test_verify_plan_rejects(buffer, message) -> None:
    func = planned()
    set_buffer(func, 1, buffer)
    with pytest.raises(VerifyException, match=re.escape(message)):
        verify_plan(func)


def test_verify_plan_needs_one_buffer_per_result_and_a_plan() -> None:
    func = planned()
    op = func.body.block.first_op
    assert op is not None
    op.attributes[BUFFERS] = ArrayAttr([])
    with pytest.raises(VerifyException, match=re.escape("one #hlo.buffer per result")):
        verify_plan(func)
    func = planned()
    del func.attributes[PLAN]
    with pytest.raises(VerifyException, match=re.escape("no 'hlo.plan'")):
        verify_plan(func)


def test_attributes_check_themselves() -> None:
    with pytest.raises(VerifyException, match="needs size"):
        BufferAttr("temp", offset=0)
    with pytest.raises(VerifyException, match="takes no offset"):
        BufferAttr("const", offset=0)
    with pytest.raises(VerifyException, match="power of two"):
        PlanAttr(arena=0, alignment=0, arguments=0, outputs=0, alias=0, constants=0)


def test_alignment_option_is_checked() -> None:
    with pytest.raises(Exception, match="alignment must be a power of two, but is 3"):
        AssignBuffersPass(alignment=3).apply(make_context(), parse(PLANNED))


# --- the report -------------------------------------------------------------------


def test_report_gives_xlas_figures() -> None:
    module = parse(PLANNED)
    stats = buffer_stats(module)["f"]
    assert stats.argument_size_in_bytes == 128
    assert stats.output_size_in_bytes == 64
    assert stats.temp_size_in_bytes == 64
    assert stats.naive_temp_size_in_bytes == 128
    assert [(row.location, row.values) for row in stats.buffers] == [
        ("arg 0", ("%w",)),
        ("arg 1", ("%g",)),
        ("out 0", ("%a", "%r")),
        ("temp", ("%b",)),
    ]
    text = buffer_report(module)
    assert text.startswith("buffers of @f: temp 64 bytes (one buffer per op: 128)")
    assert "%a, %r" in text


def test_report_uses_the_planned_alignment() -> None:
    module = parse(PLANNED)
    AssignBuffersPass(alignment=16).apply(make_context(), module)
    assert buffer_stats(module)["f"].alignment == 16


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_memory_stats_read_from_the_recorded_plan_are_a_fresh_plans(path) -> None:
    """A compile reads the figures `assign-buffers` recorded on the function
    (`planned_memory_stats`); a new plan of the same function gives the
    same ones."""
    module = parse(path.read_text())
    run_pipeline(make_context(), module, "hlo-opt", verify=False)
    recorded = planned_memory_stats(module, function_signature(module, "main"))
    fresh = buffer_stats(module)["main"]
    assert recorded == MemoryStats(
        argument_size_in_bytes=fresh.argument_size_in_bytes,
        output_size_in_bytes=fresh.output_size_in_bytes,
        alias_size_in_bytes=fresh.alias_size_in_bytes,
        temp_size_in_bytes=fresh.temp_size_in_bytes,
        constant_size_in_bytes=fresh.constant_size_in_bytes,
    )
