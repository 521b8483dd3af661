"""`qdsp`: Q4, a made-up DSP, as an out-of-tree xlir target (docs/new-hardware.md)."""
