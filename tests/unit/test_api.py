"""xlir.compile and the Executable it returns: results, signature, and the
errors users see (each a diagnostic or a ValueError naming the argument)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xlir.targets import Stream, get_platform, target_names

import xlir
from xlir.diagnostics import XlirError

ADD = """
func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""

TWO_RESULTS = """
func.func @main(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<i32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  %1 = stablehlo.negate %arg0 : tensor<4xi32>
  return %1, %0 : tensor<4xi32>, tensor<i32>
}
"""


def test_compile_and_call() -> None:
    executable = xlir.compile(ADD)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    result = executable(a, a)
    assert isinstance(result, np.ndarray)
    np.testing.assert_array_equal(result, a + a)
    assert result.flags.writeable


def test_tuple_results() -> None:
    negated, total = xlir.compile(TWO_RESULTS)(np.array([1, 2, 3, 4], np.int32))
    np.testing.assert_array_equal(negated, [-1, -2, -3, -4])
    assert total.shape == () and total.dtype == np.int32 and int(total) == 10


def test_signature() -> None:
    signature = xlir.compile(ADD).signature
    assert signature.function == "main"
    assert [a.name for a in signature.arguments] == ["arg0", "arg1"]
    assert signature.arguments[0].shape == (2, 3)
    assert signature.arguments[0].dtype == np.float32
    assert signature.results[0].type_text == "tensor<2x3xf32>"
    assert "arg0: tensor<2x3xf32>" in str(signature)


def test_compile_accepts_module_and_path(tmp_path) -> None:
    module = xlir.parse_module(xlir.make_context(), ADD)
    assert xlir.compile(module).signature.function == "main"
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    assert xlir.compile(path).signature.function == "main"


def test_wrong_argument_count() -> None:
    executable = xlir.compile(ADD)
    with pytest.raises(ValueError, match=r"expects 2 argument\(s\).*1 were given"):
        executable(np.zeros((2, 3), np.float32))


def test_wrong_shape_names_argument() -> None:
    executable = xlir.compile(ADD)
    with pytest.raises(
        ValueError, match=r"argument arg1: expected shape \[2, 3\].*got \[3, 2\]"
    ):
        executable(np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32))


def test_wrong_dtype_names_argument() -> None:
    executable = xlir.compile(ADD)
    with pytest.raises(
        ValueError, match=r"argument arg0: expected dtype float32.*got float64"
    ):
        executable(np.zeros((2, 3)), np.zeros((2, 3), np.float32))


def test_non_array_argument_is_converted_or_refused() -> None:
    executable = xlir.compile(ADD)
    rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    np.testing.assert_array_equal(executable(rows, rows), 2 * np.array(rows))
    with pytest.raises(ValueError, match="argument arg0"):
        executable([["a", "b", "c"], ["d", "e", "f"]], rows)


def test_parse_error_is_a_diagnostic() -> None:
    with pytest.raises(XlirError, match=r"<source>:3:\d+: error:"):
        xlir.compile("func.func @main() {\n  %0 = stablehlo.add\n  return\n}\n")


def test_verify_error_is_a_diagnostic() -> None:
    bad = """
func.func @main(%arg0: tensor<2xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""
    with pytest.raises(XlirError, match=r"<source>:3:3: error:"):
        xlir.compile(bad)


def test_unsupported_ops_listed_together() -> None:
    source = """
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @bar(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""
    with pytest.raises(XlirError) as info:
        xlir.compile(source)
    text = str(info.value)
    assert "2 op(s)" in text
    assert (
        "<source>:3:3: error: 'stablehlo.custom_call': custom call target 'foo'" in text
    )
    assert (
        "<source>:4:3: error: 'stablehlo.custom_call': custom call target 'bar'" in text
    )


def test_unknown_target_and_function() -> None:
    with pytest.raises(XlirError, match=r"unknown target 'nope'.*interpreter"):
        xlir.compile(ADD, target="nope")
    with pytest.raises(XlirError, match=r"no function @other.*@main"):
        xlir.compile(ADD, function="other")


def test_scalar_bool_argument() -> None:
    source = """
func.func @main(%arg0: tensor<i1>) -> tensor<i32> {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  return %0 : tensor<i32>
}
"""
    assert int(xlir.compile(source)(np.array(True))) == 1


def test_executable_extras() -> None:
    executable = xlir.compile(ADD)
    stats = executable.memory_stats()
    assert stats.argument_size_in_bytes == 48
    assert stats.output_size_in_bytes == 24
    assert stats.temp_size_in_bytes == 0  # one fusion writing the output
    assert "stablehlo.add" in executable.as_text()
    compiler = get_platform("interpreter").compiler()
    with pytest.raises(XlirError, match="ahead-of-time"):
        compiler.compile_ahead_of_time(xlir.parse_module(xlir.make_context(), ADD))


def test_memory_stats_come_from_the_buffer_plan() -> None:
    source = """func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
  %b = stablehlo.broadcast_in_dim %m, dims = [] : (tensor<f32>) -> tensor<256xf32>
  %e = stablehlo.exponential %x : tensor<256xf32>
  %d = stablehlo.divide %e, %b : tensor<256xf32>
  return %d : tensor<256xf32>
}
"""
    stats = xlir.compile(source).memory_stats()
    assert stats.argument_size_in_bytes == stats.output_size_in_bytes == 1024
    assert 0 < stats.temp_size_in_bytes <= 64  # the sum, aligned
    unplanned = xlir.compile(source, pipeline="").memory_stats()
    assert unplanned.temp_size_in_bytes > stats.temp_size_in_bytes


def test_platform_executor_stream() -> None:
    assert "interpreter" in target_names()
    platform = get_platform("interpreter")
    assert platform.devices() == ["interpreter:0"]
    executor = platform.executor(0)
    with pytest.raises(XlirError, match="no device 3"):
        platform.executor(3)
    before = executor.allocated_bytes
    transfer = platform.transfer_manager()
    buffer = transfer.to_device(executor, np.arange(4, dtype=np.int32))
    assert executor.allocated_bytes == before + 16
    assert buffer.size_in_bytes == 16
    spec = xlir.compile(TWO_RESULTS).signature.arguments[0]
    np.testing.assert_array_equal(
        transfer.from_device(executor, buffer, spec), [0, 1, 2, 3]
    )
    executor.deallocate(buffer)
    assert executor.allocated_bytes == before
    # a deferred stream runs its work in order on synchronize
    stream = Stream(executor)
    order: list[int] = []
    stream.enqueue(lambda: order.append(1))
    event = stream.record_event()
    stream.enqueue(lambda: order.append(2))
    assert order == [] and not event.done
    other = Stream(executor)
    other.wait_event(event)
    other.enqueue(lambda: order.append(3))
    other.synchronize()  # waiting on the event drains the first stream
    assert event.done and order == [1, 2, 3]
    assert stream.pending == 0 and other.pending == 0


def test_bf16_arguments_are_rounded() -> None:
    """bf16 is `ml_dtypes.bfloat16` in and out; float32 arrays are taken too,
    rounded to bf16."""
    source = """
func.func @main(%arg0: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
"""
    executable = xlir.compile(source)
    assert executable.signature.arguments[0].dtype == ml_dtypes.bfloat16
    result = executable(np.array([1.00390625, 3.0], np.float32))  # 1 + 2^-8 -> 1.0
    assert isinstance(result, np.ndarray) and result.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(result.astype(np.float32), [2.0, 6.0])
