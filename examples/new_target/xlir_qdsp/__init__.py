"""`qdsp`: an xlir target for Q4, a made-up DSP with no LLVM backend, from
outside the xlir tree (docs/new-hardware.md builds it step by step)."""
