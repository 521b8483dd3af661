"""The pieces of scripts/gpu_check.py: the CUDA driver by ctypes
(`cuda`), a fake of it for rehearsals without a GPU (`fake_cuda`), the
host schedule of an xlir nvptx manifest (`schedule`), the corpus
comparison (`compare`), XLA's timing of the same StableHLO text (`xla`),
the preparation with xlir (`prepare`) and the GPU run (`run`).

Everything but `prepare` (and the rehearsal's kernels) needs only Python,
numpy and ctypes: what the lent GPU machine has.
"""
