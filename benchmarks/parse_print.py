"""Front-end speed: parse, verify and print a module of 5,000 stablehlo ops.

The module cycles through the op mix of JAX programs (elementwise math,
broadcasts, constants, compare/select, reshape/transpose, slices,
dot_general and reduce). Prints the best of several runs per phase.

    python benchmarks/parse_print.py [--ops 5000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
from io import StringIO

from xdsl.printer import Printer

from xlir import make_context, parse_module
from xlir.diagnostics import verify_module

T = "tensor<64x128xf32>"
TEMPLATES = [
    "%{n} = stablehlo.add %{a}, %{b} : " + T,
    "%{n} = stablehlo.multiply %{a}, %{b} : " + T,
    "%{n} = stablehlo.tanh %{a} : " + T,
    "%c{n} = stablehlo.constant dense<5.000000e-01> : tensor<f32>\n"
    "    %{n} = stablehlo.broadcast_in_dim %c{n}, dims = [] : (tensor<f32>) -> " + T,
    "%p{n} = stablehlo.compare GT, %{a}, %{b}, FLOAT : ("
    + T
    + ", "
    + T
    + ") -> tensor<64x128xi1>\n"
    "    %{n} = stablehlo.select %p{n}, %{a}, %{b} : tensor<64x128xi1>, " + T,
    "%r{n} = stablehlo.reshape %{a} : (" + T + ") -> tensor<128x64xf32>\n"
    "    %{n} = stablehlo.transpose %r{n}, dims = [1, 0] : (tensor<128x64xf32>) -> "
    + T,
    "%s{n} = stablehlo.slice %{a} [0:64, 0:64] : (" + T + ") -> tensor<64x64xf32>\n"
    "    %{n} = stablehlo.concatenate %s{n}, %s{n}, dim = 1 : "
    "(tensor<64x64xf32>, tensor<64x64xf32>) -> " + T,
    "%d{n} = stablehlo.dot_general %{a}, %{b}, contracting_dims = [1] x [1], "
    "precision = [DEFAULT, DEFAULT] : (" + T + ", " + T + ") -> tensor<64x64xf32>\n"
    "    %{n} = stablehlo.concatenate %d{n}, %d{n}, dim = 1 : "
    "(tensor<64x64xf32>, tensor<64x64xf32>) -> " + T,
    "%z{n} = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
    "    %m{n} = stablehlo.reduce(%{a} init: %z{n}) applies stablehlo.add across "
    "dimensions = [1] : (" + T + ", tensor<f32>) -> tensor<64xf32>\n"
    "    %{n} = stablehlo.broadcast_in_dim %m{n}, dims = [0] : (tensor<64xf32>) -> "
    + T,
]


def make_module(num_ops: int) -> tuple[str, int]:
    """A function whose body has about `num_ops` ops; returns (text, count)."""
    lines = [f"func.func @main(%x0: {T}, %x1: {T}) -> {T} {{"]
    count, n, prev, other = 0, 0, "x0", "x1"
    while count < num_ops:
        template = TEMPLATES[n % len(TEMPLATES)]
        lines.append("    " + template.format(n=n, a=prev, b=other))
        count += template.count(" = ")
        other, prev = prev, str(n)
        n += 1
    lines.append(f"    func.return %{prev} : {T}\n}}")
    return "\n".join(lines) + "\n", count + 1


def best_of(repeat: int, action) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    text, count = make_module(args.ops)
    ctx = make_context()
    parse_module(ctx, text, "warmup.mlir")  # load dialects, warm caches

    t_parse, module = best_of(
        args.repeat, lambda: parse_module(ctx, text, "bench.mlir")
    )
    t_verify, _ = best_of(args.repeat, lambda: verify_module(module))  # type: ignore[arg-type]

    def print_it() -> str:
        out = StringIO()
        Printer(stream=out).print_op(module)  # type: ignore[arg-type]
        return out.getvalue()

    t_print, _ = best_of(args.repeat, print_it)
    total = t_parse + t_verify + t_print
    print(f"module: {count} ops, {len(text) / 1e6:.2f} MB of text")
    print(f"{'phase':<8} {'seconds':>8}")
    for phase, seconds in (
        ("parse", t_parse),
        ("verify", t_verify),
        ("print", t_print),
    ):
        print(f"{phase:<8} {seconds:8.3f}")
    print(f"{'total':<8} {total:8.3f}   (goal: < 1.5 s)")


if __name__ == "__main__":
    main()
