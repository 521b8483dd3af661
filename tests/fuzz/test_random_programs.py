"""Random programs (the project's generator, through hypothesis) run on
every registered target and agree with the evaluator. All cases share one
worker process, so a target that crashes or hangs fails the test with a
verdict instead of killing pytest."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.known_failures import known_program_failure
from tests.fuzz.strategies import program_seeds
from xlir.testing.differential import check
from xlir.testing.fuzz import arrays, program_case
from xlir.testing.generator import Generator
from xlir.testing.program import Program, TType
from xlir.testing.worker import Worker


@pytest.fixture(scope="module")
def worker():
    with Worker() as shared:
        yield shared


@settings(
    max_examples=175,  # each program is checked on every target that runs it
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=program_seeds())
def test_targets_agree_with_the_evaluator(worker, seed) -> None:
    program, inputs = program_case(*seed)
    verdict = check(worker, program, arrays(inputs))
    if verdict.failed and known_program_failure(verdict, program) is None:
        pytest.fail(
            f"program_case{seed}: {verdict.signature}\n{verdict.detail}\n"
            f"{program.text()}"
        )


def test_xla_is_a_second_reference(worker) -> None:
    pytest.importorskip("jax")
    text = """func.func @main(%a: tensor<3xbf16>, %b: tensor<3xi64>) -> (tensor<3xbf16>, tensor<3xi64>) {
  %0 = stablehlo.add %a, %a : tensor<3xbf16>
  %1 = stablehlo.shift_left %b, %b : tensor<3xi64>
  return %0, %1 : tensor<3xbf16>, tensor<3xi64>
}"""
    a, b = np.array([1.5, -2, 3], np.float32), np.array([1, 64, 3], np.int64)
    status, (outcome, outputs) = worker.call("run_xla", text, [a, b], [True, False])
    assert (status, outcome) == ("ok", "ok")
    np.testing.assert_array_equal(outputs[0], 2 * a)
    np.testing.assert_array_equal(outputs[1], [2, 0, 24])


def test_xla_skips_what_each_implementation_defines(worker) -> None:
    """rng_bit_generator's bits are the implementation's own: XLA's
    THREE_FRY state advances by another count (fuzzer seed 94000110), so a
    program with one is not compared on XLA."""
    pytest.importorskip("jax")
    program = Program()
    state = program.new_argument(TType((2,), "ui64"))
    new_state, _ = program.add_node(
        "$R = stablehlo.rng_bit_generator $0, algorithm = THREE_FRY "
        ": (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui8>)",
        [state],
        [TType((2,), "ui64"), TType((3,), "ui8")],
    )
    program.outputs = [new_state]
    verdict = check(worker, program, [np.array([1, 0], np.uint64)], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_skips_where_it_differs_from_the_reference_interpreter(worker) -> None:
    """reduce_precision to no mantissa bits: StableHLO's reference
    interpreter (and the evaluator) makes a NaN infinity, XLA keeps it NaN
    (fuzzer seed 43701270), so a program with one is not compared on XLA."""
    pytest.importorskip("jax")
    program = Program()
    type_ = TType((2,), "f32")
    x = program.new_argument(type_)
    program.outputs = program.add_node(
        f"$R = stablehlo.reduce_precision $0, format = e3m0 : {type_}", [x], [type_]
    )
    verdict = check(worker, program, [np.array([np.nan, 3], np.float32)], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_skips_ties_in_padded_select_and_scatter(worker) -> None:
    """Which of a window's equal values select_and_scatter picks is the
    implementation's (the spec's reduce_window schedule): the evaluator
    walks the window in row-major order, as XLA does unpadded, but with
    padding XLA picked the 5 at [1, 1] where the evaluator picks [0, 2]
    (fuzzer seed 43700534), so such a program is not compared on XLA."""
    pytest.importorskip("jax")
    program = Program()
    operand, source = TType((2, 3), "f32"), TType((1, 3), "f32")
    x, y = program.new_argument(operand), program.new_argument(source)
    program.outputs = program.add_node(
        "$Pi = stablehlo.constant dense<0.0> : tensor<f32>\n"
        '$R = "stablehlo.select_and_scatter"($0, $1, $Pi) <{padding = '
        "dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>, window_dimensions = "
        "array<i64: 2, 2>, window_strides = array<i64: 1, 1>}> ({\n"
        "^bb0($Pa: tensor<f32>, $Pb: tensor<f32>):\n"
        "  $Pc = stablehlo.compare GE, $Pa, $Pb, FLOAT : "
        "(tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "  stablehlo.return $Pc : tensor<i1>\n"
        "}, {\n"
        "^bb0($Pd: tensor<f32>, $Pe: tensor<f32>):\n"
        "  $Pf = stablehlo.add $Pd, $Pe : tensor<f32>\n"
        "  stablehlo.return $Pf : tensor<f32>\n"
        f"}}) : ({operand}, {source}, tensor<f32>) -> {operand}",
        [x, y],
        [operand],
    )
    arguments = [
        np.array([[0.5, 4, 5], [-7, 5, 2.5]], np.float32),
        np.array([[1, 2, 3]], np.float32),
    ]
    verdict = check(worker, program, arguments, xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_skips_its_folded_leading_zeros(worker) -> None:
    """XLA's constant folder counts the leading zeros of a negative i8 in 64
    bits (-56 for -128 and -1, where the count is 0; fuzzer seed
    40410131), so a count of a constant's zeros is not compared on XLA."""
    pytest.importorskip("jax")
    program = Program()
    type_ = TType((2,), "i8")
    program.outputs = program.add_node(
        f"$Pc = stablehlo.constant dense<[-128, 5]> : {type_}\n"
        f"$R = stablehlo.count_leading_zeros $Pc : {type_}",
        [],
        [type_],
    )
    verdict = check(worker, program, [], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_skips_the_maximum_of_a_clamp_it_simplifies(worker) -> None:
    """XLA simplifies max(clamp(lo, x, hi), lo) to the clamp, which is hi
    where lo > hi, below lo (fuzzer seed 40410541), so a maximum of a
    clamp is not compared on XLA."""
    pytest.importorskip("jax")
    program = Program()
    type_ = TType((2,), "ui8")
    x, lo, hi = (program.new_argument(type_) for _ in range(3))
    (clamped,) = program.add_node(
        f"$R = stablehlo.clamp $1, $0, $2 : {type_}", [x, lo, hi], [type_]
    )
    program.outputs = program.add_node(
        f"$R = stablehlo.maximum $0, $1 : {type_}", [clamped, lo], [type_]
    )
    arguments = [np.array(v, np.uint8) for v in ([11, 4], [9, 1], [3, 3])]
    verdict = check(worker, program, arguments, xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_flushing_denormals_is_its_own_difference(worker) -> None:
    """XLA:CPU flushes denormals to zero: sign(-denormal) is -0 there, -1 in
    the evaluator (fuzzer seed 24000172, with log, divide and floor of
    denormals in 24000030, 24000211 and 24000231; atan2 of two in 25000166,
    which XLA flushed inside): XLA runs on the arguments flushed, and is
    compared with the evaluator on those."""
    pytest.importorskip("jax")
    program = Program()
    x = program.new_argument(TType((3,), "f32"))
    (signs,) = program.add_node(
        "$R = stablehlo.sign $0 : tensor<3xf32>", [x], [TType((3,), "f32")]
    )
    program.outputs = [signs]
    denormal = np.float32(-1e-40)
    verdict = check(
        worker, program, [np.array([denormal, 2, -3], np.float32)], xla=True
    )
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_flushing_denormals_it_computes_is_its_own_difference(worker) -> None:
    """XLA:CPU flushes the denormals a program computes too, and what follows
    changes: a divisor flushed to 0 gives infinity (fuzzer seeds 39000356
    and 41000219, a quotient carried through a loop): where XLA differs
    from the evaluator, each element must match the evaluator or the
    evaluator flushing as XLA does."""
    pytest.importorskip("jax")
    program = Program()
    f32 = TType((3,), "f32")
    x, y = program.new_argument(f32), program.new_argument(f32)
    (product,) = program.add_node(
        "$R = stablehlo.multiply $0, $1 : tensor<3xf32>", [x, y], [f32]
    )
    (quotient,) = program.add_node(
        "$R = stablehlo.divide $0, $1 : tensor<3xf32>", [x, product], [f32]
    )
    program.outputs = [quotient]
    a = np.array([1e-20, 2.0, 3.0], np.float32)
    b = np.array([1e-20, 4.0, 5.0], np.float32)  # a * b: a denormal
    verdict = check(worker, program, [a, b], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_xla_flushing_a_copied_bf16_denormal_is_its_own_difference(worker) -> None:
    """XLA copies a rank-3 splat bf16 constant through f32 arithmetic, which
    flushes its denormals (seed 41000849): the flushing reference flushes
    outputs too."""
    pytest.importorskip("jax")
    program = Program()
    bf16 = TType((3, 1, 5), "bf16")
    (constant,) = program.add_node(
        "$R = stablehlo.constant dense<1.000000e-40> : tensor<3x1x5xbf16>", [], [bf16]
    )
    program.outputs = [constant]
    verdict = check(worker, program, [], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


@pytest.mark.parametrize("seed", [41000823, 41200081, 41201530, 43300803])
def test_the_generator_keeps_xlas_own_differences_out(worker, seed) -> None:
    """The spec multiplies the zeros a convolution pads or dilates its lhs
    with by the rhs, NaN where that is inf; XLA skips those products (seed
    41000823, an f16 convolution padded by 2). XLA multiplies one group's
    lhs by the zeros of a dense kernel made of a grouped one, where the
    spec has no products (seed 41200081, three groups). The generator makes
    the rhs of the first and the lhs of the second finite. XLA simplifies
    `x + 0.0` to `x`, which kept a product's -0 that atan2 then told apart
    (seed 41201530): sums' zeros are made +0 by a select. With batch groups
    XLA spreads a kernel's NaN into every group's results (seed 43300803):
    their rhs is made finite too."""
    pytest.importorskip("jax")
    program, inputs = program_case(seed)
    verdict = check(worker, program, arrays(inputs), xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"


def test_canonical_nans_survive_xla(worker) -> None:
    """XLA folds a select on `x != x` back to `x`, so the -NaN of a sqrt
    stayed negative and top_k ranked it last (seed 43300099): the
    generator's canonical NaN is told and chosen on the bits."""
    pytest.importorskip("jax")
    program = Program()
    type_ = TType((2, 4), "f32")
    x = program.new_argument(type_)
    (root,) = program.add_node(f"$R = stablehlo.sqrt $0 : {type_}", [x], [type_])
    results = [type_.with_shape((2, 2)), TType((2, 2), "i32")]
    program.add_node(
        "\n".join(Generator.canonical_nan("$0", type_, "$Pk"))
        + f"\n$R = chlo.top_k($Pk, k = 2) : {type_} -> ({results[0]}, {results[1]})",
        [root],
        results,
    )
    program.outputs = [program.next_id - 1]
    a = np.array([[0.5, -1, 0.25, -2], [-3, 4, -1, 9]], np.float32)
    verdict = check(worker, program, [a], xla=True)
    assert not verdict.failed, f"{verdict.signature}\n{verdict.detail}"
