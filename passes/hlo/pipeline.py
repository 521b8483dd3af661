"""`hlo-opt`: the HLO-level default pipeline, which `xlir.compile` runs and
targets build theirs on; a named pipeline registered as the `hlo-opt` entry
point of `xlir.pipelines`."""

HLO_OPT = (
    "inline",
    "decompose",
    "simplify",
    "subpixel-conv",
    "fold-constants",
    "cse",
    "dce",
    "combine-all-reduces",
    "fuse",
    "assign-buffers",
)
"""Its passes, in order: calls inlined, composite ops decomposed, the graph
simplified, convolutions with lhs dilation split into their output phases
(fewer multiplies on every target), folded and deduplicated, neighbouring all_reduces combined,
then fused and its buffers planned."""
