"""Shape-polymorphic programs: compiled once per shape signature of the
arguments they are called with.

A program `jax.export` wrote with symbolic dimensions (`tensor<?x16xf32>`)
cannot be planned or lowered as it is. `xlir.compile` and `xlir-run` return
it as a `ShapePolymorphicExecutable`: each call reads the arguments' shapes,
compiles the program specialised to them (`refine-shapes{types=...}` ahead
of the target's pipeline) the first time it sees those shapes, and runs that.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue

from xlir.deep_stack import run_deep
from xlir.printing import BitExactPrinter
from xlir.signature import MemoryStats, TensorSpec
from xlir.targets.base import Compiler, DeviceBuffer, Executable, Stream
from xlir.targets.signatures import function_signature
from xlir.walk import walk

ShapeKey = tuple[tuple[int, ...], ...]


def needs_refinement(module: ModuleOp) -> bool:
    """Whether a tensor in the module has a dynamic size, or JAX's shape
    assertions are left to check."""
    for op in walk(module):
        if op.name == "stablehlo.custom_call":
            target = op.properties.get("call_target_name")
            if getattr(target, "data", None) == "shape_assertion":
                return True
        values: list[SSAValue] = [*op.results]
        if isinstance(op, FuncOp) and op.body.blocks:
            values += op.body.block.args
        for value in values:
            if isinstance(value.type, TensorType) and not value.type.has_static_shape():
                return True
    return False


def refining_pipeline(types: Sequence[str], function: str, pipeline: str) -> str:
    """`pipeline` after refinement to the argument `types`."""
    refine = f'refine-shapes{{types="{",".join(types)}" function="{function}"}}'
    return f"{refine},{pipeline}" if pipeline else refine


class ShapePolymorphicExecutable(Executable):
    """Compiles a specialisation per shape signature of its arguments and
    keeps each; `signature` is the declared one (`?` for dynamic sizes)."""

    def __init__(
        self,
        compiler: Compiler,
        module: ModuleOp,
        function: str,
        sources: dict[str, str] | None,
        pipeline: str | None,
    ):
        super().__init__(compiler.platform, function_signature(module, function))
        self.compiler = compiler
        self.program = module
        """The program as parsed, before any specialisation."""
        self.sources = sources
        self.pipeline = compiler.hlo_pipeline_text(pipeline)
        self.specialisations: dict[ShapeKey, Executable] = {}

    def specialize(self, shapes: Sequence[Sequence[int]]) -> Executable:
        """The program compiled for arguments of these shapes (once)."""
        key: ShapeKey = tuple(tuple(int(d) for d in s) for s in shapes)
        found = self.specialisations.get(key)
        if found is None:
            types = [
                TensorSpec(spec.name, sizes, spec.element_type, spec.dtype).type_text
                for spec, sizes in zip(self.signature.arguments, key, strict=True)
            ]
            spec = refining_pipeline(types, self.signature.function, self.pipeline)
            program = self.program.clone()
            found = run_deep(
                lambda: self.compiler.compile(
                    program, self.signature.function, self.sources, spec
                )
            )
            self.specialisations[key] = found
        return found

    def __call__(self, *arrays: Any) -> np.ndarray | tuple[np.ndarray, ...]:
        checked = self.signature.check_arguments(arrays)
        return self.specialize([a.shape for a in checked])(*checked)

    def execute(
        self, arguments: Sequence[DeviceBuffer], stream: Stream
    ) -> list[DeviceBuffer]:
        specialised = self.specialize([b.shape for b in arguments])
        return specialised.execute(arguments, stream)

    def memory_stats(self) -> MemoryStats:
        raise ValueError(
            f"@{self.signature.function} has dynamic shapes; the memory figures "
            "are a specialisation's: executable.specialize(shapes).memory_stats()"
        )

    def as_text(self) -> str:
        """The program as parsed (each specialisation has its own text)."""
        text = StringIO()
        BitExactPrinter(stream=text).print_op(self.program)
        return text.getvalue()
