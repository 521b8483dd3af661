"""Loop-level passes: on loop kernels and the host schedule (docs/loop-level.md)."""
