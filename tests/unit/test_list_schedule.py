"""`buffers/schedule.list_schedule` keeps its ready ops in a heap; its order
is the greedy rule's (take the ready op freeing the most bytes net of what it
allocates, ties to the earlier), checked against that rule applied by a scan
of every ready op at every step, on random programs and the bench corpus."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xlir.dialects.hlo_buffers import byte_size
from xlir.passes.hlo.buffers.schedule import _inputs, list_schedule

from tests.corpus import CORPUS
from xlir.context import make_context
from xlir.parsing import parse_module
from xlir.pass_manager import run_pipeline

BENCH = CORPUS / "bench"


def scanned_schedule(block: Block) -> list[Operation]:
    """The greedy rule, step by step, over a block of ops free of side
    effects, each reading what the scheduler finds it reads."""
    ops = list(block.ops)
    terminator = ops.pop()
    position = {op: i for i, op in enumerate(ops)}
    kept = set(terminator.operands) | set(block.args)
    reads = {op: _inputs(op) for op in ops}
    left = {v: sum(v in reads[op] for op in ops) for op in ops for v in reads[op]}
    done: set[Operation] = set()

    def ready(op: Operation) -> bool:
        return all(v.owner in done or v.owner not in position for v in reads[op])

    def size(value: SSAValue) -> int:
        return byte_size(value.type) if isinstance(value.type, TensorType) else 0

    def gain(op: Operation) -> int:
        freed = sum(size(v) for v in reads[op] if left[v] == 1 and v not in kept)
        return freed - sum(size(r) for r in op.results if r not in kept)

    order: list[Operation] = []
    while len(order) < len(ops):
        best = max(
            (op for op in ops if op not in done and ready(op)),
            key=lambda op: (gain(op), -position[op]),
        )
        done.add(best)
        order.append(best)
        for value in reads[best]:
            left[value] -= 1
    return [*order, terminator]


def random_program(seed: int) -> str:
    """Ops over arrays of a few sizes reading random earlier values, several
    results returned: many ops ready at once, gains that change as readers
    finish."""
    rng = random.Random(seed)
    shapes = ["tensor<4xf32>", "tensor<64xf32>", "tensor<1024xf32>"]
    values = [(f"%arg{i}", shapes[i]) for i in range(3)]
    lines = []
    for n in range(40):
        shape = rng.choice(shapes)
        same = [name for name, s in values if s == shape]
        if rng.random() < 0.3 or not same:
            source = rng.choice(values)
            lines.append(
                f"%{n} = stablehlo.reduce({source[0]} init: %zero) applies "
                f"stablehlo.add across dimensions = [0] : ({source[1]}, tensor<f32>)"
                " -> tensor<f32>"
                if rng.random() < 0.5
                else f"%{n} = stablehlo.constant dense<1.0> : {shape}"
            )
            values.append((f"%{n}", "tensor<f32>" if "reduce" in lines[-1] else shape))
            continue
        a, b = rng.choice(same), rng.choice(same)
        lines.append(f"%{n} = stablehlo.add {a}, {b} : {shape}")
        values.append((f"%{n}", shape))
    results = rng.sample(values[3:], 3)
    arguments = ", ".join(f"%arg{i}: {s}" for i, s in enumerate(shapes))
    body = "\n    ".join(lines)
    return f"""func.func @main({arguments}) -> ({", ".join(s for _, s in results)}) {{
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    {body}
    return {", ".join(n for n, _ in results)} : {", ".join(s for _, s in results)}
}}"""


def main_block(module: ModuleOp) -> Block:
    (func,) = [op for op in module.walk() if isinstance(op, FuncOp)]
    return func.body.block


@pytest.mark.parametrize("seed", range(30))
def test_heap_order_is_the_scanned_order(seed: int) -> None:
    block = main_block(parse_module(make_context(), random_program(seed), "t.mlir"))
    assert list_schedule(block) == scanned_schedule(block)


@pytest.mark.parametrize("name", ["train_step_mlp", "layernorm_512x768", "mlp_fwd_64"])
def test_fused_bench_programs_schedule_as_scanned(name: str) -> None:
    ctx = make_context()
    path = BENCH / f"{name}.mlir"
    module = parse_module(ctx, path.read_text(), path.name)
    run_pipeline(ctx, module, "inline,decompose,simplify,fold-constants,cse,dce,fuse")
    block = main_block(module)
    assert list_schedule(block) == scanned_schedule(block)
