"""Memory a long-running process keeps per cpu compile: a leak finder.

    python benchmarks/jit_memory.py [--compiles N] [--no-run]

Compiles N tiny programs (each with its own constant, so no cache serves
one; the persistent cache is off), runs each once and drops it, as a fuzz
worker does. Prints the resident set size every N/5 compiles and the growth
per compile after the first fifth (the caches and allocator pools fill up
in it), and what tracemalloc sees of it on the Python heap: growth that is
not there is native (LLVM's). A leak shows as steady growth per compile.
"""

from __future__ import annotations

import argparse
import gc
import os
import tracemalloc

import numpy as np

import xlir


def resident_bytes() -> int:
    """This process's resident set size (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def program(number: int) -> str:
    return f"""func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {{
  %c = stablehlo.constant dense<{number}.0> : tensor<4xf32>
  %0 = stablehlo.add %a, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compiles", type=int, default=500)
    parser.add_argument("--no-run", action="store_true", help="compile only")
    args = parser.parse_args()
    os.environ["XLIR_CACHE"] = "0"
    step = max(args.compiles // 5, 1)
    argument = np.ones(4, np.float32)
    tracemalloc.start()
    sizes: list[int] = []
    heap: list[int] = []
    for number in range(args.compiles):
        executable = xlir.compile(program(number), target="cpu")
        if not args.no_run:
            executable(argument)
        del executable
        if number % step == step - 1:
            gc.collect()
            sizes.append(resident_bytes())
            heap.append(tracemalloc.get_traced_memory()[0])
    print("RSS (MiB):", " ".join(f"{size / 2**20:.1f}" for size in sizes))
    compiles = step * (len(sizes) - 1)
    if compiles:
        growth = (sizes[-1] - sizes[0]) / compiles / 1024
        python = (heap[-1] - heap[0]) / compiles / 1024
        print(f"growth per compile over the last {compiles}: {growth:.1f} KiB")
        print(f"of which on the Python heap (tracemalloc): {python:.1f} KiB")


if __name__ == "__main__":
    main()
