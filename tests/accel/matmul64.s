# Manual section 10.2, example B: 64x64x64 f32 matmul with 16x16 tiles.
.kernel matmul64, 3             # a0 = &A, a1 = &B, a2 = &C
    li      t0, 16              # rows per tile
    li      t1, 256             # DRAM row stride
    li      t2, 64              # scratchpad row stride = bytes per tile row
    dma.cfg t0, t1, t2, raw
    mcfg    t2, t2              # A and B operand row strides
    li      s0, 0x0000          # spad: A tile
    li      s1, 0x0400          # spad: B tile
    li      s2, 0x0800          # spad: C tile
    li      s5, 16384           # end of the i loop
    li      s3, 0               # i * 4096 (byte offset of row block i)
iloop:
    li      s4, 0               # j * 64 (byte offset of column block j)
jloop:
    mzero   m0
    li      t3, 0               # k * 64
    li      t5, 0               # k * 4096
kloop:
    add     t4, a0, s3
    add     t4, t4, t3          # &A[16i][16k]
    dma.ld  s0, t4, t2, 0
    add     t4, a1, t5
    add     t4, t4, s4          # &B[16k][16j]
    dma.ld  s1, t4, t2, 0
    dma.wait 0
    mmac    m0, s0, s1
    addi    t3, t3, 64
    addi    t5, t5, 4096
    bne     t3, t1, kloop
    mst     m0, s2, t2
    add     t4, a2, s3
    add     t4, t4, s4          # &C[16i][16j]
    dma.st  s2, t4, t2, 1
    dma.wait 1
    addi    s4, s4, 64
    bne     s4, t1, jloop
    addi    s3, s3, 4096
    bne     s3, s5, iloop
    halt
