# Manual section 10.1, example A: elementwise add of two 4,096-element f32 arrays.
.kernel vadd4096, 3             # a0 = &x, a1 = &y, a2 = &out
    li      t0, 1
    dma.cfg t0, zero, zero, raw # 1 row per descriptor
    li      t1, 4096            # bytes per chunk
    li      t2, 8192            # scratchpad address of the out chunk
    li      s0, 4               # chunks left
chunk:
    dma.ld  zero, a0, t1, 0     # x chunk -> spad 0x0000
    dma.ld  t1, a1, t1, 0       # y chunk -> spad 0x1000
    dma.wait 0
    li      t3, 0               # byte offset inside the chunk
elem:
    vld     v0, 0(t3)
    vld     v1, 4096(t3)
    vfadd   v2, v0, v1
    vst     v2, 8192(t3)
    addi    t3, t3, 64
    bne     t3, t1, elem
    dma.st  t2, a2, t1, 1       # out chunk -> DRAM
    dma.wait 1
    addi    a0, a0, 4096
    addi    a1, a1, 4096
    addi    a2, a2, 4096
    addi    s0, s0, -1
    bne     s0, zero, chunk
    halt
