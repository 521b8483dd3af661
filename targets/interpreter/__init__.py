"""The `interpreter` target: a platform over the evaluator
(`xlir.evaluator`), StableHLO's semantics on numpy arrays. It is the
reference every other target is compared with.

Its device is the host (`targets/host_memory.py`): an executable of the HLO
level is one kernel on it; a module at the loop level runs its host schedule
through the generic executor of the `device` dialect
(`targets/device_schedule.py`), its kernels run by the loop evaluator.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects.stablehlo.collectives import RecvOp, SendOp
from xlir.dialects.stablehlo.process_groups import module_grid
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.evaluator.hlo.process_grid import ProcessContext
from xlir.evaluator.hlo.types import as_held, store_held
from xlir.targets.base import (
    Executable,
    HostExecutable,
    Platform,
    ProgramRecord,
)
from xlir.targets.collective_steps import communicator_for
from xlir.targets.device_schedule import ScheduleCompiler
from xlir.targets.host_memory import LoopKernels

from xlir.signature import MemoryStats, Signature

__all__ = [
    "InterpreterCompiler",
    "InterpreterExecutable",
]


class InterpreterCompiler(ScheduleCompiler):
    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        """Loop-level modules (after hlo-to-loop) run their host schedule,
        with the loop evaluator's kernels."""
        if record.loop_level:
            return super().run_backend(module, record, sources)
        image = ModuleInterpreter(module, sources)
        return InterpreterExecutable(
            self.platform, record.signature, module, image, record.stats
        )

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> Any:
        return LoopKernels(module, sources)


class InterpreterExecutable(HostExecutable):
    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        module: ModuleOp,
        image: ModuleInterpreter,
        stats: MemoryStats | None = None,
    ):
        super().__init__(platform, signature, module, stats=stats)
        self.image = image
        self.grid = module_grid(module)
        self._channels = any(isinstance(op, SendOp | RecvOp) for op in module.walk())
        """Whether it sends or receives: each rank opens the channels first."""
        self._ranks = threading.local()
        """A sharded program's interpreter per thread (an in-process grid
        runs its ranks as threads), each running as its rank."""

    @property
    def check_failures(self) -> list[str]:
        return self.image.check_failures

    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run on host arrays of the signature's dtypes, narrow types held
        as the wider one that computes them (bf16 as float32, int4 as int8)."""
        held = [
            as_held(array, spec.element_type)
            for spec, array in zip(self.signature.arguments, arrays, strict=True)
        ]
        image = self.image
        if self.grid.size > 1:
            image = getattr(self._ranks, "image", None)
            if image is None:
                assert self.module is not None
                image = self._ranks.image = ModuleInterpreter(self.module)
            communicator = communicator_for(self.grid, self._channels)
            image.process = ProcessContext(communicator)
        return [np.asarray(r) for r in image.call(self.signature.function, held)]

    def run_into(self, arrays: list[np.ndarray], outputs: list[np.ndarray]) -> None:
        """`run`, its held results written bit for bit (a bf16 NaN's payload)."""
        for output, value in zip(outputs, self.run(arrays), strict=True):
            store_held(output, value)
