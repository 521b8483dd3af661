"""The evaluator's process grid: the spec's process-group strategies, the
in-process communicator's collectives, and how a grid fails (a rank that
raises, ranks that disagree on shapes, a grid the groups do not fit)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xlir.dialects.stablehlo.collectives import AllReduceOp
from xlir.dialects.stablehlo.process_groups import (
    Grid,
    GroupingMode,
    GroupsDoNotFit,
    process_groups,
)
from xlir.evaluator.hlo.collectives import reduction_of
from xlir.evaluator.hlo.engine import ModuleInterpreter
from xlir.evaluator.hlo.process_grid import (
    InProcessCommunicator,
    _Rendezvous,  # pyright: ignore[reportPrivateUsage]
    run_grid,
    run_programs,
)

from xlir.communicator import CollectiveError, Communicator, ReduceKind, Reduction
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module

# --- process groups: the spec's examples -------------------------------------


def test_cross_replica() -> None:
    groups = process_groups(GroupingMode.CROSS_REPLICA, [[0, 1], [2, 3]], Grid(4, 2))
    assert groups == [
        [(0, 0), (1, 0)],
        [(0, 1), (1, 1)],
        [(2, 0), (3, 0)],
        [(2, 1), (3, 1)],
    ]


def test_cross_partition() -> None:
    groups = process_groups(GroupingMode.CROSS_PARTITION, [[0, 1]], Grid(4, 2))
    assert groups == [
        [(0, 0), (0, 1)],
        [(1, 0), (1, 1)],
        [(2, 0), (2, 1)],
        [(3, 0), (3, 1)],
    ]


def test_cross_replica_and_partition() -> None:
    mode = GroupingMode.CROSS_REPLICA_AND_PARTITION
    groups = process_groups(mode, [[0, 1], [2, 3]], Grid(4, 2))
    assert groups == [
        [(0, 0), (1, 0), (0, 1), (1, 1)],
        [(2, 0), (3, 0), (2, 1), (3, 1)],
    ]


def test_flattened_ids() -> None:
    groups = process_groups(
        GroupingMode.FLATTENED_IDS, [[0, 1, 2, 3], [4, 5, 6, 7]], Grid(4, 2)
    )
    assert groups == [
        [(0, 0), (0, 1), (1, 0), (1, 1)],
        [(2, 0), (2, 1), (3, 0), (3, 1)],
    ]


def test_no_groups_is_one_group_of_all() -> None:
    groups = process_groups(GroupingMode.FLATTENED_IDS, [], Grid(1, 3))
    assert groups == [[(0, 0), (0, 1), (0, 2)]]


def test_groups_that_do_not_fit() -> None:
    with pytest.raises(GroupsDoNotFit, match="replica id 2 is out of range"):
        process_groups(GroupingMode.CROSS_REPLICA, [[0, 1, 2]], Grid(2, 1))
    with pytest.raises(GroupsDoNotFit, match=r"leave out partition id\(s\) \[2\]"):
        process_groups(GroupingMode.CROSS_PARTITION, [[0, 1]], Grid(1, 3))


# --- the in-process communicator ---------------------------------------------


def _on_ranks(size: int, work: Callable[[Communicator], Any]) -> list[Any]:
    """`work(communicator)` on each rank of a 1 x size grid, in threads."""
    grid = Grid(1, size)
    rendezvous = _Rendezvous(size)
    results: list[Any] = [None] * size

    def run(rank: int) -> None:
        results[rank] = work(InProcessCommunicator(grid, rank, rendezvous))
        rendezvous.finish(rank)

    threads = [threading.Thread(target=run, args=(r,)) for r in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _value(rank: int) -> np.ndarray:
    return np.arange(12, dtype=np.int64).reshape(3, 4) + 100 * rank


def test_collectives_follow_group_order() -> None:
    group = [2, 0, 1]
    add = Reduction(np.add)

    def work(c: Communicator) -> dict[str, Any]:
        x = _value(c.rank)
        return {
            "sum": c.all_reduce(x, group, add),
            "gather": c.all_gather(x, group),
            "scatter": c.reduce_scatter(x, group, 0, add),
            "a2a": c.all_to_all(x, group, 0, 1),
            "bcast": c.broadcast(x, group, 1),
            "perm": c.permute(x, group, [(2, 0), (0, 1)]),
        }

    results = _on_ranks(3, work)
    values = [_value(r) for r in range(3)]
    total = values[2] + values[0] + values[1]
    for rank, got in enumerate(results):
        index = group.index(rank)
        np.testing.assert_array_equal(got["sum"], total)
        assert [v[0, 0] for v in got["gather"]] == [200, 0, 100]
        np.testing.assert_array_equal(got["scatter"], total[index : index + 1])
        parts = [values[member][index : index + 1] for member in group]
        np.testing.assert_array_equal(got["a2a"], np.concatenate(parts, axis=1))
        np.testing.assert_array_equal(got["bcast"], values[0])
    np.testing.assert_array_equal(results[0]["perm"], values[2])
    np.testing.assert_array_equal(results[1]["perm"], values[0])
    assert results[2]["perm"] is None


def test_shapes_that_differ_name_the_ranks() -> None:
    def work(c: Communicator) -> str:
        try:
            c.all_reduce(np.zeros(2 + c.rank), [0, 1], Reduction(np.add))
        except CollectiveError as error:
            return str(error)
        return "no error"

    messages = _on_ranks(2, work)
    assert "rank 1 has a float64 array of shape [3]" in messages[0]
    assert "rank 0 has a float64 array of shape [2]" in messages[1]


# --- whole grids ---------------------------------------------------------------

SUM = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
"""


def test_run_grid_gives_each_rank_its_results() -> None:
    module = parse_module(make_context(), SUM, "sum.mlir")
    inputs = [[np.array([1, 2], np.float32) * 10**r] for r in range(3)]
    outputs = run_grid(module, 1, 3, inputs)
    for rank_outputs in outputs:
        np.testing.assert_array_equal(rank_outputs[0], [111, 222])


def test_run_grid_refuses_a_grid_the_groups_do_not_fit() -> None:
    module = parse_module(make_context(), SUM, "sum.mlir")
    with pytest.raises(XlirError, match="does not fit the process grid: process id 2"):
        run_grid(module, 1, 2, [[np.zeros(2, np.float32)]] * 2)


def test_run_grid_checks_the_input_count() -> None:
    module = parse_module(make_context(), SUM, "sum.mlir")
    with pytest.raises(XlirError, match="runs 3 processes, but got 3 function"):
        run_grid(module, 1, 3, [[np.zeros(2, np.float32)]] * 2)


MISMATCH = """
func.func @two(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
func.func @three(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %s : tensor<3xf32>
}
"""


def test_ranks_that_disagree_on_shapes_are_a_diagnostic() -> None:
    module = parse_module(make_context(), MISMATCH, "mismatch.mlir")
    inputs = [[np.zeros(2, np.float32)], [np.zeros(3, np.float32)]]
    with pytest.raises(XlirError, match=r"all_reduce: rank \d has a float32 array"):
        run_programs(module, Grid(2, 1), ["two", "three"], inputs)


FAILING = """
func.func @reduce(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
func.func @read_infeed(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %v, %u = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return %v : tensor<2xf32>
}
"""


def test_a_failing_rank_stops_the_others_and_is_named() -> None:
    """Rank 1 fails (its infeed is empty) while rank 0 waits for it at the
    all_reduce: rank 0 stops too, and the error is rank 1's, named."""
    module = parse_module(make_context(), FAILING, "failing.mlir")
    inputs = [[np.zeros(2, np.float32)]] * 2
    with pytest.raises(XlirError) as caught:
        run_programs(module, Grid(2, 1), ["reduce", "read_infeed"], inputs)
    message = str(caught.value)
    assert "failing.mlir:12:3: error: 'stablehlo.infeed' failed" in message
    assert "the infeed is empty" in message
    assert "(on rank 1: replica 1, partition 0)" in message


KINDS = """
func.func @main(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %m = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.maximum %b, %a : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    %u = stablehlo.add %t, %t : tensor<i32>
    stablehlo.return %u : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %m, %s : tensor<2xi32>, tensor<2xi32>
}
"""


def test_reduction_names_a_one_op_computation_only() -> None:
    """A library may use its own reduction for a named kind; any other body
    is only `combine`, which runs the region."""
    module = parse_module(make_context(), KINDS, "kinds.mlir")
    interp = ModuleInterpreter(module)
    ops = [op for op in module.walk() if isinstance(op, AllReduceOp)]
    maximum, doubled = (reduction_of(op, interp) for op in ops)
    a, b = np.array([1, 5], np.int32), np.array([4, 2], np.int32)
    assert maximum.kind is ReduceKind.MAX
    np.testing.assert_array_equal(maximum.combine(a, b), [4, 5])
    assert doubled.kind is None
    np.testing.assert_array_equal(doubled.combine(a, b), [10, 14])


PERMUTE = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 3]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
"""


def test_permute_pairs_outside_the_grid_are_refused() -> None:
    """Pair (0, 3) needs 4 partitions; on 4, partition 3 gets partition 0's
    value and the others zeros."""
    module = parse_module(make_context(), PERMUTE, "permute.mlir")
    with pytest.raises(XlirError, match="partition id 3 is out of range"):
        run_grid(module, 1, 2, [[np.zeros(2, np.float32)]] * 2)
    outputs = run_grid(
        module, 1, 4, [[np.full(2, r + 1, np.float32)] for r in range(4)]
    )
    assert [float(o[0][0]) for o in outputs] == [0, 0, 0, 1.0]


DISAGREE = """
func.func @reduce(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
func.func @gather(%x: tensor<2xf32>) -> tensor<4xf32> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %g : tensor<4xf32>
}
"""


def test_ranks_at_different_collectives_are_a_diagnostic() -> None:
    module = parse_module(make_context(), DISAGREE, "disagree.mlir")
    inputs = [[np.zeros(2, np.float32)]] * 2
    with pytest.raises(
        XlirError,
        match=r"group \[0, 1\] disagree on the collective: rank \d is at all_",
    ):
        run_programs(module, Grid(2, 1), ["reduce", "gather"], inputs)
