# A compute read of scratchpad bytes an in-flight DMA is writing.
.kernel hazard, 0
    li t0, 64
    dma.ld zero, zero, t0, 0
    vld v0, 0(zero)
    dma.wait 0
    halt
