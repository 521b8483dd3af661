"""Random elementwise programs over every element type (the generator's
elementwise mode: bf16, f16, the float8/6/4 types, 2- and 4-bit integers
among the others; NaN, infinities, -0, subnormals, integer extremes and
shift amounts past the width in the arguments) agree between the evaluator
and every target bit for bit: their ops are those the spec defines exactly.
The cases share one worker process, so a crash fails the test instead of
killing pytest."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.strategies import program_seeds
from xlir.testing.differential import check
from xlir.testing.fuzz import arrays, program_case
from xlir.testing.program import ALL_ELEMENT_TYPES
from xlir.testing.worker import Worker


@pytest.fixture(scope="module")
def worker():
    with Worker() as shared:
        yield shared


@settings(
    max_examples=len(ALL_ELEMENT_TYPES) * 3,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=program_seeds(max_ops=6), element=st.sampled_from(ALL_ELEMENT_TYPES))
def test_elementwise_programs_agree_bit_for_bit(worker, seed, element) -> None:
    elements = (element,)
    program, inputs = program_case(*seed, elements=elements)
    verdict = check(worker, program, arrays(inputs), exact=True)
    if verdict.failed:
        pytest.fail(
            f"program_case({seed[0]}, {seed[1]}, elements={elements}): "
            f"{verdict.signature}\n{verdict.detail}\n{program.text()}"
        )
