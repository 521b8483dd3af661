"""Buffer assignment (`assign-buffers`): liveness over the fused program,
which values may share a buffer, the heap simulation that packs the temp
arena, and the report of XLA's memory figures."""
