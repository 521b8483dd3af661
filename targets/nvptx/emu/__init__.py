"""The `nvptx-emu` target: the nvptx target's kernels, mapped onto a GPU's
grid by `map-to-gpu`, executed on the host (docs/nvptx.md, "nvptx-emu").

Its pipeline is the nvptx target's up to `map-to-gpu`; its kernels run at
their launch (`gpu_launch`), threads as loops in native code or, where
they wait for or read each other, in lockstep in the loop evaluator
(kernels.py); its host schedule runs through the generic device-schedule
executor, as the nvptx target's does over the CUDA driver.
"""
