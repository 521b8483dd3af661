"""HLO-level passes: on StableHLO, CHLO and the hlo dialect (docs/hlo-passes.md)."""
