"""A simulator standing for the Q4 chip: it runs the assembly text on the
launch's buffers (the host's memory standing for the chip's), sixteen
registers of four 32-bit lanes, each instruction as the dialect's `ISA` says."""

from __future__ import annotations

import re
from math import prod
from typing import Any

import numpy as np
from xlir.targets.base import DeviceBuffer
from xlir.targets.host_memory import HostKernel

from xlir.diagnostics import XlirError
from xlir_qdsp.dialect import ISA, F, S, U


class Program:
    """An assembly text's kernels, each line split into its mnemonic, its
    fields and their register numbers, each loop's line paired with its end."""

    def __init__(self, text: str):
        self.kernels: dict[str, Kernel] = {}
        for line in text.splitlines():
            m, *f = re.findall(r"[^\s,]+", line)
            if m == ".kernel":  # .kernel name, kind of each argument
                kernel, loops = self.kernels.setdefault(f[0], Kernel(f[0], f[1:])), []
                continue
            n = [int(x[1:]) if re.fullmatch(r"r\d+", x) else 0 for x in f]
            loops += [len(kernel.code)] if m in ("loop", "ploop") else []
            kernel.ends.update(
                {loops.pop(): len(kernel.code)} if m == "endloop" else {}
            )
            kernel.code.append((m, f, n))

    def kernel(self, name: str) -> Kernel:
        if name not in self.kernels:
            raise XlirError(f"error: the qdsp image has no kernel @{name}")
        return self.kernels[name]


class Kernel(HostKernel):
    def __init__(self, name: str, kinds: list[str]):
        self.name, self.kinds = name, kinds
        self.code: list[tuple[str, list[str], list[int]]] = []
        self.ends: dict[int, int] = {}

    def run(self, grid: tuple[int, ...], arguments: Any) -> None:
        """One launch: one core runs the grid's blocks one after another,
        each its share of the `ploop`'s trips."""
        kinds = [
            "buffer" if isinstance(a, DeviceBuffer) else "scalar" for a in arguments
        ]
        if kinds != self.kinds:
            raise XlirError(f"error: @{self.name} takes {self.kinds}, not {kinds}")
        split = [pc for pc, line in enumerate(self.code) if line[0] == "ploop"]
        [pc] = split if len(split) == 1 else [len(self.code) - 1]
        outside = self.code[:pc] + self.code[self.ends.get(pc, pc) :]
        if prod(grid) > 1 and any(line[0] in ("ld", "st") for line in outside):
            raise XlirError(f"error: @{self.name} touches memory outside its ploop: "
                            "it cannot be split between blocks; launch it on (1,)")  # fmt: skip
        args = [
            a.handle.view(U) if isinstance(a, DeviceBuffer) else a for a in arguments
        ]
        for block in range(prod(grid)):
            with np.errstate(all="ignore"):
                self.run_lines(0, np.zeros((16, 4), U), args, (block, prod(grid)))

    def run_lines(self, pc: int, r: np.ndarray, args: list, share: tuple) -> None:
        """Run from line `pc` to the `endloop` or `ret` that ends it."""
        while (m := self.code[pc][0]) not in ("endloop", "ret"):
            _, f, n = self.code[pc]
            if m in ("loop", "ploop"):
                trips, (block, blocks) = int(f[3]), share if m == "ploop" else (0, 1)
                for trip in range(
                    trips * block // blocks, trips * (block + 1) // blocks
                ):
                    r[n[0]] = int(f[1]) + int(f[2]) * trip
                    self.run_lines(pc + 1, r, args, share)
                pc = self.ends[pc]
            elif m in ISA:
                lanes, meaning = ISA[m][1:]
                out = np.asarray(meaning(*(r[i].view(lanes) for i in n[1:])))
                r[n[0]] = out.astype(U if out.dtype == bool else lanes).view(U)
            elif m in ("li", "lf", "argf", "argi"):
                value = f[1] if m[0] == "l" else args[int(f[1])]
                r[n[0]] = np.array(value, F if m[-1] == "f" else S).view(U)
            else:  # ld rd, rs1, k / st rs1, rs2, k: word rs of buffer k
                words, index = args[int(f[2])], r[n[1]].view(S)
                if index.min() < 0 or index.max() >= len(words):
                    raise XlirError(
                        f"error: @{self.name}: {m} of word {index} of {len(words)}"
                    )
                if m == "ld":
                    r[n[0]] = words[index]
                else:
                    words[index] = r[n[0]]
            pc += 1
