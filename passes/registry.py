"""Every pass xlir-opt and the pipelines can name, by name.

Passes are imported on first use, so starting a tool stays fast: each entry
names the module and the `ModulePass` class that implements it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.passes import ModulePass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(importlib.import_module(module), cls)

    return load


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    # xDSL's generic passes.
    "canonicalize": _lazy("xdsl.transforms.canonicalize", "CanonicalizePass"),
    "dce": _lazy("xlir.passes.hlo.dce", "DCEPass"),
    # The HLO level (docs/hlo-passes.md).
    "cse": _lazy("xlir.passes.hlo.cse", "CSEPass"),
    "refine-shapes": _lazy("xlir.passes.hlo.refine_shapes", "RefineShapesPass"),
    "inline": _lazy("xlir.passes.hlo.inline", "InlinePass"),
    "decompose": _lazy("xlir.passes.hlo.decompose", "DecomposePass"),
    "simplify": _lazy("xlir.passes.hlo.simplify", "SimplifyPass"),
    "split-complex": _lazy("xlir.passes.hlo.split_complex", "SplitComplexPass"),
    "quant-to-math": _lazy("xlir.passes.hlo.quant_to_math", "QuantToMathPass"),
    "fold-constants": _lazy("xlir.passes.hlo.fold_constants", "FoldConstantsPass"),
    "dot-layout": _lazy("xlir.passes.hlo.dot_layout", "DotLayoutPass"),
    "conv-padding": _lazy("xlir.passes.hlo.conv_padding", "ConvPaddingPass"),
    "fuse": _lazy("xlir.passes.hlo.fuse", "FusePass"),
    "assign-buffers": _lazy("xlir.passes.hlo.assign_buffers", "AssignBuffersPass"),
    "check-to-outputs": _lazy("xlir.passes.hlo.check_to_outputs", "CheckToOutputsPass"),
    # Lowering from the HLO level to the loop level (docs/loop-level.md).
    "hlo-to-loop": _lazy("xlir.lowering.hlo_to_loop", "HloToLoopPass"),
    # The loop level.
    "widen-floats": _lazy("xlir.passes.loop.widen_floats", "WidenFloatsPass"),
    "fuse-kernels": _lazy("xlir.passes.loop.fuse_kernels", "FuseKernelsPass"),
    "hoist": _lazy("xlir.passes.loop.hoist", "HoistPass"),
    "unroll": _lazy("xlir.passes.loop.unroll", "UnrollPass"),
    "tile": _lazy("xlir.passes.loop.tile", "TilePass"),
    "fold-index": _lazy("xlir.passes.loop.fold_index", "FoldIndexPass"),
    "split-ranges": _lazy("xlir.passes.loop.split_ranges", "SplitRangesPass"),
    "register-tile": _lazy("xlir.passes.loop.register_tile", "RegisterTilePass"),
    "vectorize": _lazy("xlir.passes.loop.vectorize", "VectorizePass"),
    "pack-panels": _lazy("xlir.passes.loop.pack_panels", "PackPanelsPass"),
    "block-sums": _lazy("xlir.passes.loop.block_sums", "BlockSumsPass"),
    "parallelize": _lazy("xlir.passes.loop.parallelize", "ParallelizePass"),
    "expand-math": _lazy("xlir.passes.loop.expand_math", "ExpandMathPass"),
    "interleave": _lazy("xlir.passes.loop.interleave", "InterleavePass"),
    # The cpu target's lowering from the loop level to LLVM (docs/cpu.md).
    "loop-to-llvm": _lazy("xlir.targets.cpu.llvm_lowering", "CpuLoopToLLVMPass"),
    "device-to-llvm": _lazy("xlir.targets.cpu.llvm_lowering", "DeviceToLLVMPass"),
}
